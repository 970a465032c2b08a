#!/usr/bin/python3
"""The codec fuzz targets' seeds name their protocol ("@name\\n", codec_fuzz_support.hpp's pick)
and each name is one the registry has (`wirebench list --json`): a seed that named none, after a
protocol was renamed, would silently drive whichever codec its first byte picks.

  seed_names_test.py WIREBENCH CORPUS_DIR
"""
import json
import os
import subprocess
import sys

MAX_NAME = 32  # codec_fuzz_support.hpp's max_seed_name


def main():
    wirebench, corpus = sys.argv[1], sys.argv[2]
    listed = json.loads(subprocess.run([wirebench, "list", "--json"], check=True, capture_output=True,
                                       text=True, timeout=60).stdout)
    names = {p["name"] for p in listed}
    problems, seeds = [], 0
    for target in ("client_codec", "server_codec"):
        folder = os.path.join(corpus, target)
        for file in sorted(os.listdir(folder)):
            seeds += 1
            with open(os.path.join(folder, file), "rb") as f:
                head = f.read(MAX_NAME + 1)
            end = head.find(b"\n")
            if not head.startswith(b"@") or end < 0:
                problems.append(f"{target}/{file}: does not start with @name and a newline")
            elif head[1:end].decode(errors="replace") not in names:
                problems.append(f"{target}/{file}: names {head[1:end]!r}, which `wirebench list` has not")
    if problems:
        print("seed_names_test: FAIL:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"seed_names_test: {seeds} seeds, each naming a protocol of the registry")
    return 0


if __name__ == "__main__":
    sys.exit(main())
