#!/usr/bin/python3
"""The toy protocol's user call through wirebench itself (a wirebench linked with tests/protocols/toy/).

No code outside toy/ names the toy's call: its flags, its request lines, its workload section and
its kind in results all come from its form (toy/toy_call_form.cpp). This runs them end to end:
  toy_cli_test.py WIREBENCH_WITH_TOY
Every server is the one `run` starts on 127.0.0.1; every run is bounded (--duration, -n).
"""
import json
import os
import subprocess
import sys
import tempfile

wb = sys.argv[1]
quick = ["--duration", "0.2", "--warmup", "0.05", "--repeats", "1", "--quiet"]
failures = []


def wirebench(*args):
    return subprocess.run([wb, *args], capture_output=True, text=True, timeout=60)


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def points(path):
    with open(path) as f:
        return json.load(f)["points"]


with tempfile.TemporaryDirectory() as work:
    help_text = wirebench("run", "--help").stdout
    check("run --help lists the toy's flags under its heading",
          "User call (toy-netstring)" in help_text and "--expect-netstring" in help_text, help_text[-400:])
    check("... and its request line among the mix's words", "a payload (toy-netstring)" in help_text)

    # One user call: every reply judged by the toy's codec; the results name the form's kind.
    out = os.path.join(work, "one.json")
    r = wirebench("run", "-p", "toy-netstring", "--netstring", "alice", "--expect-netstring",
                  "hello, alice", "--workers", "2", *quick, "--out", out)
    check("a run of the toy's user call exits 0", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        p = points(out)[0]
        request = p["parameters"]["requests"][0]
        check("its results name the toy's kind and fields",
              request["kind"] == "netstring" and request["payload"] == "alice" and
              request["expect_reply"] == "hello, alice", json.dumps(request))
        check("every call succeeded", p["summary"]["outcomes"]["ok"] > 0 and not p["summary"]["errors"],
              json.dumps(p["summary"]["outcomes"]))
        page = os.path.join(work, "one.html")
        r = wirebench("report", out, "-o", page)
        check("report reads the toy's kind back", r.returncode == 0 and os.path.getsize(page) > 0, r.stderr)

    # A wrong expectation fails every call as a wrong reply, counted, not crashed.
    out = os.path.join(work, "wrong.json")
    r = wirebench("run", "-p", "toy-netstring", "--netstring", "bob", "--expect-netstring", "nope",
                  "--workers", "1", *quick, "--out", out)
    if r.returncode == 3:  # no call succeeded: the run failed, its results written
        outcomes = points(out)[0]["summary"]["outcomes"]
        check("a reply other than the expected one is a wrong reply",
              outcomes["ok"] == 0 and outcomes.get("wrong_reply", 0) > 0, json.dumps(outcomes))
    else:
        check("a run whose replies are all wrong ends", False, r.stderr)

    # A mix: request lines in the toy's words, weights, each request with its own results.
    out = os.path.join(work, "mix.json")
    r = wirebench("run", "-p", "toy-netstring", "--request", "a", "--request", "k:__rand_int__",
                  "--weights", "1,3", "--workers", "2", *quick, "--out", out)
    check("a mix of the toy's requests exits 0", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        p = points(out)[0]
        check("the mix's requests are recorded with their weights",
              [q["payload"] for q in p["parameters"]["requests"]] == ["a", "k:__rand_int__"] and
              [q["weight"] for q in p["parameters"]["requests"]] == [1, 3], json.dumps(p["parameters"]))
        check("each request has results of its own", len(p["summary"]["requests"]) == 2)

    # A workload file with the toy's section beside another protocol's.
    workload = os.path.join(work, "mix.yaml")
    with open(workload, "w") as f:
        f.write("netstring:\n  requests:\n    - {payload: x, expect_reply: 'hello, x', weight: 2}\n"
                "    - {payload: y, name: the-y}\nresp:\n  requests:\n    - {command: PING}\n")
    out = os.path.join(work, "workload.json")
    r = wirebench("run", "-p", "toy-netstring", "--workload", workload, "--workers", "2", *quick, "--out", out)
    check("a workload file's netstring section runs", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        requests = points(out)[0]["parameters"]["requests"]
        check("... with its weights and names", [(q["payload"], q["weight"], q["name"]) for q in requests] ==
              [("x", 2, ""), ("y", 1, "the-y")], json.dumps(requests))
    with open(workload, "w") as f:
        f.write("netstring:\n  requests:\n    - {payload: x, expect: y}\n")
    r = wirebench("run", "-p", "toy-netstring", "--workload", workload, *quick)
    check("a field the toy's form does not know is refused by name",
          r.returncode == 2 and "requests[0].expect: unknown field for a netstring (known: expect_reply, "
          "name, payload, weight)" in r.stderr, r.stderr)

    # Flags that do not fit: in the words of each form.
    r = wirebench("run", "-p", "toy-netstring", "--command", "PING", *quick)
    check("a RESP command on the toy says what the toy sends",
          r.returncode == 2 and "protocol 'toy-netstring' sends a netstring (--netstring), not a RESP command"
          in r.stderr, r.stderr)
    r = wirebench("run", "-p", "line", "--netstring", "x", *quick)
    check("the toy's call on line says line sends only its greet call",
          r.returncode == 2 and "protocol 'line' sends only its greet call, not a netstring" in r.stderr, r.stderr)
    r = wirebench("run", "-p", "toy-netstring", "--expect-netstring", "x", *quick)
    check("an expectation without its call is refused",
          r.returncode == 2 and "--expect-netstring is part of a netstring: give its --netstring too" in r.stderr,
          r.stderr)

print("toy_cli_test: %d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
