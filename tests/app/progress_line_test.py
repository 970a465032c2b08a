#!/usr/bin/python3
"""The live progress line as a terminal shows it: `wirebench run` with stderr on a pseudo-terminal
redraws, once a second, the last second's calls/s, p99 and failed calls and how much of the point
is done; with -n the ETA comes from the calls' pace, not the 600 s cap; -q and a stderr that is not
a terminal show no live figures. Usage: progress_line_test.py WIREBENCH"""
import os
import pty
import re
import subprocess
import sys
import time

wirebench = sys.argv[1]
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail[-2000:]))
    failures += 0 if ok else 1


def on_terminal(*args):
    """Runs wirebench with stderr on a pty (stdout to a pipe); what the terminal got."""
    leader, follower = pty.openpty()
    p = subprocess.Popen([wirebench, *args], stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the pty closed: the program ended
            break
        if not chunk:
            break
        seen += chunk
    p.wait(timeout=30)
    os.close(leader)
    return p.returncode, seen.decode(errors="replace")


# A 4 s point: at least two redraws with live figures.
status, seen = on_terminal("run", "-p", "line", "-w", "1", "--warmup", "0", "-D", "4", "-R", "1")
lines = [l for l in re.split(r"\r\x1b\[K", seen) if "calls/s" in l]
check("the run ends well", status == 0, seen)
check("the line shows the last second's calls/s, p99 and failed calls", len(lines) >= 2 and all(
    re.search(r"\[1/1\] line closed workers=1 repeat 1/1  \d+%  [\d.]+k? calls/s  p99 [\d.]+(ns|us|ms)  failed 0  "
              r"elapsed \d+s  ETA \d+s", l) for l in lines), seen)
check("and how much of the point is done, growing", len(lines) >= 2 and
      int(re.search(r"(\d+)%", lines[0]).group(1)) < int(re.search(r"(\d+)%", lines[-1]).group(1)), seen)

# -n in a closed loop: its duration is only a cap (600 s); the ETA comes from the pace.
status, seen = on_terminal("run", "-p", "line", "-w", "1", "--warmup", "0", "-n", "60000", "-R", "2", "--load", "closed")
etas = [int(m.group(1)) for m in re.finditer(r"ETA (\d+)s", seen)]
check("-n: the run ends well", status == 0, seen)
check("-n: no ETA counts down from the 600 s cap", "ETA 9m" not in seen and "ETA 10m" not in seen, seen)
check("-n: an ETA from the calls' pace", len(etas) >= 1 and max(etas) < 60, seen)

status, seen = on_terminal("run", "-p", "line", "-w", "1", "--warmup", "0", "-D", "4", "-R", "1", "-q")
check("-q: no progress", status == 0 and "calls/s" not in seen and "ETA" not in seen, seen)

print(f"progress_line_test: {failures} failure(s)")
sys.exit(1 if failures else 0)
