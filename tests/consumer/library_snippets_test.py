#!/usr/bin/env python3
"""docs/LIBRARY.md's code is real code: every C++ block is an excerpt of an example.

  library_snippets_test.py SOURCE_DIR

Each ```cpp block of docs/LIBRARY.md starts with `// examples/NAME.cpp`; the rest is one or
more excerpts of that file, separated by `// ...` lines, each found in the file in order as
consecutive lines (compared without leading blanks). The file is one of the examples
examples/CMakeLists.txt builds, with its expected output, so the consumer test compiles and runs
it against the installed package (find_package and pkg-config). Every <wirebench/...> header the
page names exists. Prints each block checked; exits 1 naming the first that is not so.
"""
import os
import re
import sys


def fail(message):
    print("docs/LIBRARY.md: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    root = sys.argv[1]
    page = open(os.path.join(root, "docs/LIBRARY.md")).read()
    built = open(os.path.join(root, "examples/CMakeLists.txt")).read()
    examples = set(re.search(r"set\(WIREBENCH_EXAMPLES([^)]*)\)", built).group(1).split())
    blocks = re.findall(r"^```cpp\n(.*?)^```", page, flags=re.M | re.S)
    if not blocks:
        fail("no C++ blocks")
    for number, block in enumerate(blocks, 1):
        lines = block.rstrip("\n").split("\n")
        m = re.fullmatch(r"// examples/(\w+)\.cpp", lines[0].strip())
        if not m:
            fail(f"C++ block {number} does not start with // examples/NAME.cpp: {lines[0]!r}")
        name = m.group(1)
        if name not in examples:
            fail(f"block {number}: examples/{name}.cpp is not built by examples/CMakeLists.txt")
        if not os.path.exists(os.path.join(root, "examples/expected", name + ".txt")):
            fail(f"block {number}: examples/expected/{name}.txt is missing")
        source = [l.strip() for l in open(os.path.join(root, "examples", name + ".cpp")).read().split("\n")]
        excerpts, current = [], []
        for line in lines[1:]:
            if line.strip() == "// ...":
                excerpts.append(current)
                current = []
            else:
                current.append(line.strip())
        excerpts.append(current)
        at = 0
        for excerpt in excerpts:
            excerpt = [l for l in excerpt]
            while excerpt and not excerpt[0]:
                excerpt.pop(0)
            while excerpt and not excerpt[-1]:
                excerpt.pop()
            if not excerpt:
                continue
            found = next((i for i in range(at, len(source) - len(excerpt) + 1)
                          if source[i:i + len(excerpt)] == excerpt), None)
            if found is None:
                fail(f"block {number}: this excerpt is not in examples/{name}.cpp (in order):\n  " +
                     "\n  ".join(excerpt))
            at = found + len(excerpt)
        print(f"block {number}: examples/{name}.cpp, {len(excerpts)} excerpt(s)")
    for header in sorted(set(re.findall(r"<(wirebench/[\w/]+\.hpp)>", page))):
        if header != "wirebench/version.hpp" and not os.path.exists(os.path.join(root, "include", header)):
            fail(f"names <{header}>, which does not exist")


if __name__ == "__main__":
    main()
