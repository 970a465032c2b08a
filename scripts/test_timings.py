#!/usr/bin/python3
"""Where scripts/test spent its time: the slowest phases, build targets and tests.

  scripts/test_timings.py PHASES_FILE BUILD_DIR...

PHASES_FILE holds a line per phase that scripts/test timed ("<name>\t<seconds>"). From each
BUILD_DIR it reads the last build's steps (.ninja_log: every compile and link of that ninja run)
and the tests' wall times (the JUnit files ctest wrote there, Testing/junit*.xml). It prints what
was measured, slowest first, so that the next change to CI's time starts from figures.
"""
import collections
import glob
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

TOP_TARGETS = 8
TOP_TESTS = 15


def last_ninja_run(path):
    """The steps of the last ninja run in a .ninja_log (v5): [(seconds, output)], one per step.

    Ninja appends a line per output as each step ends, so end times grow within a run and fall
    back when a new run starts; a step with several outputs has several lines with the same
    times and command hash, counted once.
    """
    runs, steps, seen, last_end = [], [], set(), -1
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                continue
            start, end, output, command = int(fields[0]), int(fields[1]), fields[3], fields[4]
            if end < last_end:
                runs.append(steps)
                steps, seen = [], set()
            last_end = end
            if (start, end, command) in seen:
                continue
            seen.add((start, end, command))
            steps.append(((end - start) / 1000.0, output))
    runs.append(steps)
    return runs[-1]


OBJECT = re.compile(r"CMakeFiles/([^/]+)\.dir/")


def target_of(output):
    """(target, is_compile) for a ninja output: an object file names its target's folder."""
    match = OBJECT.search(output)
    if match and output.endswith((".o", ".gch", ".pch")):
        return match.group(1), True
    name = os.path.basename(output)
    name = re.sub(r"^lib(.*)\.(a|so(\.[0-9.]+)?)$", r"\1", name)
    return name, False


def build_lines(build_dir):
    path = os.path.join(build_dir, ".ninja_log")
    if not os.path.exists(path):
        return []
    steps = last_ninja_run(path)
    if not steps:
        return ["%s: nothing was built (up to date)" % build_dir]
    compile_s, link_s, files = collections.Counter(), collections.Counter(), collections.Counter()
    for seconds, output in steps:
        target, is_compile = target_of(output)
        if is_compile:
            compile_s[target] += seconds
            files[target] += 1
        elif re.search(r"(\.a|\.so[0-9.]*)$", output) or "." not in os.path.basename(output):
            link_s[target] += seconds  # a library or a program (custom commands are left out)
    total = sum(compile_s.values())
    lines = ["%s: %d steps, %.0f s of compiling and %.0f s of linking (summed over jobs)"
             % (build_dir, len(steps), total, sum(link_s.values()))]
    targets = sorted(set(compile_s) | set(link_s), key=lambda t: -(compile_s[t] + link_s[t]))
    for target in targets[:TOP_TARGETS]:
        lines.append("  %6.0f s  %s (%d file%s, %.1f s linking)"
                     % (compile_s[target] + link_s[target], target, files[target],
                        "" if files[target] == 1 else "s", link_s[target]))
    slowest = sorted(((s, o) for s, o in steps if target_of(o)[1]), reverse=True)[:3]
    if slowest:
        lines.append("  the slowest compiles: " + ", ".join(
            "%s %.0f s" % (o.replace("/CMakeFiles/", " ").replace(".dir/", ":"), s) for s, o in slowest))
    return lines


def xml_roots(pattern):
    for path in sorted(glob.glob(pattern)):
        try:
            yield ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            print("scripts/test_timings.py: %s: %s" % (path, error), file=sys.stderr)


def ctest_tests(build_dir):
    """[(seconds, name, status)]: each ctest test of the JUnit report ctest wrote (Testing/)."""
    out = []
    for root in xml_roots(os.path.join(build_dir, "Testing", "junit*.xml")):
        for case in root.iter("testcase"):
            status = case.get("status", "run")
            if case.find("failure") is not None or status == "fail":
                status = "failed"
            elif case.find("skipped") is not None or status == "notrun":
                status = "skipped"
            out.append((float(case.get("time", "0")), case.get("name", "?"), status))
    return out


def gtest_cases(build_dir):
    """[(seconds, suite.case, status)]: every GoogleTest case the shards ran (Testing/gtest/)."""
    out = []
    for root in xml_roots(os.path.join(build_dir, "Testing", "gtest", "*.xml")):
        for case in root.iter("testcase"):
            status = "skipped" if case.get("result") == "skipped" else "run"
            if case.find("failure") is not None:
                status = "failed"
            out.append((float(case.get("time", "0")),
                        "%s.%s" % (case.get("classname", "?"), case.get("name", "?")), status))
    return out


def count_line(what, items):
    statuses = collections.Counter(status for _, _, status in items)
    others = ", ".join("%d %s" % (statuses[s], s) for s in ("skipped", "failed") if statuses[s])
    return "%d %s%s" % (len(items), what, " (%s)" % others if others else "")


def slowest(items, lines):
    for seconds, name, status in sorted(items, reverse=True)[:TOP_TESTS]:
        lines.append("    %6.1f s  %s%s" % (seconds, name, "" if status == "run" else " (%s)" % status))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    phases_file, build_dirs = argv[1], argv[2:]
    print("== timings: where this run's time went (slowest first)")
    if os.path.exists(phases_file):
        with open(phases_file, encoding="utf-8") as f:
            phases = [line.rstrip("\n").split("\t") for line in f if "\t" in line]
        total = sum(float(s) for _, s in phases)
        print("phases, wall time (%.0f s in all, %.1f minutes):" % (total, total / 60))
        for name, seconds in sorted(phases, key=lambda p: -float(p[1])):
            print("  %6.0f s  %s" % (float(seconds), name))
    print("builds:")
    for build_dir in build_dirs:
        for line in build_lines(build_dir):
            print("  " + line)
    for build_dir in build_dirs:
        tests, cases = ctest_tests(build_dir), gtest_cases(build_dir)
        if not tests:
            continue
        print("tests of %s: %s, %s; %.0f s summed over the parallel slots"
              % (build_dir, count_line("ctest tests", tests),
                 count_line("GoogleTest cases in them", cases), sum(t[0] for t in tests)))
        lines = []
        print("  the slowest ctest tests:")
        slowest(tests, lines)
        if cases:
            lines.append("  the slowest GoogleTest cases:")
            slowest(cases, lines)
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
