#!/usr/bin/python3
"""scripts/test_timings.py on a build folder made up here: the last ninja run only (not the one
before it), each step once though it has several outputs, compiles summed per target, ctest's
JUnit report and the shards' GoogleTest reports counted (skips and failures named), slowest first.

  test_timings_test.py SOURCE_DIR     (Debian's python3)"""
import os
import subprocess
import sys
import tempfile


def fail(message):
    print("test_timings_test: FAIL: " + message)
    sys.exit(1)


NINJA_LOG = """# ninja log v5
0\t90000\t0\tsrc/CMakeFiles/old.dir/gone.cpp.o\taaaa
100\t3100\t0\tsrc/CMakeFiles/wirebench_framing.dir/Unity/unity_1_cxx.cxx.o\tb2
0\t4000\t0\tsrc/CMakeFiles/wirebench_framing.dir/Unity/unity_0_cxx.cxx.o\tb1
3000\t12000\t0\ttests/protocols/CMakeFiles/protocol_tests.dir/Unity/unity_0_cxx.cxx.o\tb3
12000\t14000\t0\ttests/protocols/protocol_tests\tb4
12000\t14000\t0\ttests/protocols/protocols_protocol_tests_shards.cmake\tb4
14000\t14200\t0\tsrc/libwirebench_framing.a\tb5
"""

JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="3">
  <testcase name="protocols.protocol_tests/1-of-2" classname="x" time="7.5" status="run"/>
  <testcase name="protocols.protocol_tests/2-of-2" classname="x" time="2.5" status="fail">
    <failure message="Failed"/>
  </testcase>
  <testcase name="consumer.standalone_library" classname="x" time="30" status="run"/>
</testsuite>
"""

GTEST = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" name="AllTests">
  <testsuite name="all/greet" tests="3">
    <testcase name="round_trip/line_tcp" status="run" result="completed" time="0.25" classname="all/greet"/>
    <testcase name="round_trip/mux_tcp" status="run" result="skipped" time="0.5" classname="all/greet"/>
    <testcase name="round_trip/resp_tcp" status="run" result="completed" time="6" classname="all/greet">
      <failure message="boom"/>
    </testcase>
  </testsuite>
</testsuites>
"""


def main():
    script = os.path.join(sys.argv[1], "scripts", "test_timings.py")
    with tempfile.TemporaryDirectory() as work:
        build = os.path.join(work, "test")
        os.makedirs(os.path.join(build, "Testing", "gtest"))
        with open(os.path.join(build, ".ninja_log"), "w") as f:
            f.write(NINJA_LOG)
        with open(os.path.join(build, "Testing", "junit.xml"), "w") as f:
            f.write(JUNIT)
        with open(os.path.join(build, "Testing", "gtest", "shard.xml"), "w") as f:
            f.write(GTEST)
        phases = os.path.join(work, "phases.tsv")
        with open(phases, "w") as f:
            f.write("test: build\t14\ntest: tests\t40\nset-up (scripts/setup)\t1\n")
        done = subprocess.run(["/usr/bin/python3", script, phases, build], capture_output=True,
                              text=True, timeout=60)
    out = done.stdout
    if done.returncode != 0:
        fail("exit %d: %s" % (done.returncode, done.stderr))
    lines = out.splitlines()

    def line_with(text):
        found = [line for line in lines if text in line]
        if not found:
            fail("no line with %r in:\n%s" % (text, out))
        return found[0]

    if "55 s in all" not in line_with("phases, wall time"):
        fail("the phases' total: " + line_with("phases, wall time"))
    if lines.index(line_with("test: tests")) > lines.index(line_with("test: build")):
        fail("phases not slowest first:\n" + out)
    # The first ninja run (gone.cpp, 90 s) is not this build's; the shards file shares its step
    # with the link and is counted once.
    if "gone.cpp" in out or "old" in out.split("builds:")[1].split("tests of")[0]:
        fail("an earlier ninja run was counted:\n" + out)
    if "5 steps, 16 s of compiling and 2 s of linking" not in line_with("steps,"):
        fail("the build's steps: " + line_with("steps,"))
    if "11 s  protocol_tests (1 file, 2.0 s linking)" not in line_with("protocol_tests (") or \
            "7 s  wirebench_framing (2 files, 0.2 s linking)" not in line_with("wirebench_framing ("):
        fail("the targets' times:\n" + out)
    counts = line_with("tests of ")
    if "3 ctest tests (1 failed)" not in counts or \
            "3 GoogleTest cases in them (1 skipped, 1 failed)" not in counts:
        fail("the counts: " + counts)
    slow = lines.index(line_with("the slowest ctest tests"))
    if "consumer.standalone_library" not in lines[slow + 1] or "(failed)" not in lines[slow + 3]:
        fail("the slowest ctest tests:\n" + out)
    if "all/greet.round_trip/resp_tcp (failed)" not in \
            lines[lines.index(line_with("the slowest GoogleTest cases")) + 1]:
        fail("the slowest GoogleTest cases:\n" + out)
    print("test_timings_test: passed")


if __name__ == "__main__":
    main()
