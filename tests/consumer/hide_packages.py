#!/usr/bin/env python3
"""Writes an overlayfs upper directory that hides Debian packages' files under /usr.

  hide_packages.py UPPER_DIR

Hidden: every installed development package (name ending in -dev) and the harness's tools
(protoc and its gRPC plugin, llhttp's sources, Chart.js), except what the framing library may
use: libasio-dev, libssl-dev, and the toolchain (build-essential, cmake, pkg-config and their
dependencies, as apt-cache lists them). Mounted over /usr in a mount namespace of its own
(standalone_library.sh), the tree then looks like a machine where only those were installed.
Each hidden file becomes a whiteout (a 0:0 character device), as overlayfs defines them.
Prints the hidden packages, one line.
"""
import os
import subprocess
import sys

TOOLS = {"protobuf-compiler", "protobuf-compiler-grpc", "node-llhttp", "libjs-chart.js"}
KEPT_ROOTS = ["build-essential", "cmake", "pkg-config", "ninja-build", "libasio-dev", "libssl-dev"]


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def kept_packages():
    out = run("apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
              "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", *KEPT_ROOTS)
    return {line.strip().split(":")[0] for line in out.splitlines() if not line.startswith(" ")}


def main():
    upper = sys.argv[1]
    installed = [line.split("\t") for line in
                 run("dpkg-query", "-W", "-f=${Package}\t${db:Status-Status}\n").splitlines()]
    installed = {name for name, status in installed if status == "installed"}
    kept = kept_packages()
    hidden = sorted(p for p in installed
                    if (p.endswith("-dev") or p in TOOLS) and p not in kept)
    files = set()
    for package in hidden:
        for path in run("dpkg", "-L", package).splitlines():
            # usrmerge: /lib, /bin and /sbin are links into /usr.
            real = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
            if real.startswith("/usr/") and os.path.lexists(real) and \
                    (os.path.islink(real) or not os.path.isdir(real)):
                files.add(real[len("/usr/"):])
    for rel in sorted(files):
        target = os.path.join(upper, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.mknod(target, 0o600 | 0o020000, os.makedev(0, 0))  # S_IFCHR 0:0: a whiteout
    print(" ".join(hidden))


if __name__ == "__main__":
    main()
