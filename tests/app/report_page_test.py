#!/usr/bin/env python3
"""`wirebench report` checked in a real browser: results of real runs (a closed-loop sweep run
twice, for the before/after comparison; an open loop; a run whose server is killed half-way; a
knee search; a Google Benchmark file, fixtures/google_benchmark.json)
made into one page, which must hold everything it needs (nothing fetched), and which headless
Chromium must render with every chart drawn and no script or console error. It writes a
screenshot beside the page (in the build tree, report_page_test/) and prints how long the page
took to draw (measured, not asserted).

  report_page_test.py WIREBENCH

Exit 77 (a skip) when Chromium is missing, naming the package; under CI=true that fails instead.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77


def fail(message):
    print("report_page_test: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    message = "Chromium is missing (apt-get install chromium; scripts/setup installs it)"
    if os.environ.get("CI") == "true":
        fail(message)
    print("report_page_test: SKIPPED: " + message, file=sys.stderr)
    sys.exit(SKIP)


def run(argv, **kw):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, **kw)
    if done.returncode != 0:
        fail(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def port_had_a_connection(port):
    """Whether local TCP port `port` has had a connection: an entry in /proc/net/tcp in any state
    but LISTEN (0A), as tests/support/port_had_a_connection.hpp reads it."""
    with open("/proc/net/tcp") as table:
        next(table)
        for row in table:
            local, state = row.split()[1], row.split()[3]
            if state != "0A" and int(local.split(":")[1], 16) == port:
                return True
    return False


def killed_server_run(wb, out):
    """A closed loop against a mux server killed with SIGKILL half-way through the window."""
    server = subprocess.Popen([wb, "serve", "-p", "mux", "-l", "tcp://127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = server.stdout.readline()
    where = re.search(r"serving mux on (\S+)", line)
    if not where:
        server.kill()
        fail("serve said: " + line)
    client = subprocess.Popen([wb, "run", "-p", "mux", "--connect", where.group(1), "--workers", "4",
                               "--warmup", "0.1", "--duration", "1", "--timeout", "0.5", "-R", "1",
                               "-q", "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
    # Killed half a second into the run's window, counted from the client's first connection
    # rather than from its start: a sanitizer build's client under a loaded machine takes most of
    # a second just to start, and was once killed before it had connected.
    port = int(where.group(1).rsplit(":", 1)[1])
    deadline = time.monotonic() + 30
    while not port_had_a_connection(port):
        if time.monotonic() > deadline or client.poll() is not None:
            server.kill()
            client.kill()
            fail("the run never connected to the server it was to see killed")
        time.sleep(0.01)
    time.sleep(0.5)
    server.send_signal(signal.SIGKILL)
    server.wait()
    _, err = client.communicate(timeout=60)
    if client.returncode != 0:
        fail("the run against the killed server exited %d: %s" % (client.returncode, err))


def main():
    wb = os.path.abspath(sys.argv[1])
    browser = chromium()
    work = os.path.abspath("report_page_test")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    quick = ["--warmup", "0.05", "-R", "2", "-q"]
    sweep = [wb, "run", "-p", "line,mux", "--workers", "1,4", "--duration", "0.3"] + quick
    run(sweep + ["-o", f"{work}/before.json"])
    run(sweep + ["-o", f"{work}/after.json"])
    run([wb, "run", "-p", "line", "--rate", "2000", "--load", "uniform,bursty", "--duration", "0.5"]
        + quick + ["-o", f"{work}/open.json"])
    killed_server_run(wb, f"{work}/killed.json")
    run([wb, "run", "-p", "line", "--find-max-rate", "--slo", "p99<=1ms", "--rate", "2000",
         "--max-rate", "8000", "--duration", "0.2", "--warmup", "0.05", "-R", "1", "-q",
         "-o", f"{work}/knee.json"])
    run([wb, "run", "--scenario", "echo", "--servers", "ours", "-p", "grpc,connect", "-n", "5", "--workers", "2",
         "--duration", "0.05", "--warmup", "0", "-R", "1", "-q", "-o", f"{work}/echo.json"])

    pages = {
        "compare": [f"{work}/before.json", f"{work}/after.json"],
        "all": [f"{work}/before.json", f"{work}/open.json", f"{work}/killed.json", f"{work}/knee.json",
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures/google_benchmark.json")],
        "echo": [f"{work}/echo.json"],
    }
    for name, files in pages.items():
        page = f"{work}/{name}.html"
        run([wb, "report"] + files + ["-o", page])
        text = open(page, encoding="utf-8").read()
        # Self-contained: no element loads anything (Chart.js's banner names its site in a comment).
        fetched = re.findall(r"<(?:script|img|iframe)[^>]*\bsrc=|<link\b|url\(\s*['\"]?https?:", text)
        if fetched:
            fail(f"{name}.html fetches something: {fetched[:3]}")
        data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                    text, re.S).group(1))
        started = time.monotonic()
        shown = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--virtual-time-budget=10000", "--enable-logging=stderr", "--v=0", "--dump-dom",
             "file://" + page], capture_output=True, text=True, timeout=120)
        took = time.monotonic() - started
        body = re.search(r"<body([^>]*)>", shown.stdout)
        if not body:
            fail(f"{name}.html: Chromium printed no page (exit {shown.returncode}):\n{shown.stderr[-2000:]}")
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1)))
        if attrs.get("ready") != "yes":
            fail(f"{name}.html: the script never finished: {attrs}")
        console = [l for l in shown.stderr.splitlines() if "CONSOLE" in l and
                   re.search(r"error|uncaught", l, re.I)]
        if attrs.get("errors") != "0" or console:
            errors = re.search(r'<div id="errors"[^>]*>(.*?)</div>\s*<div id="app"', shown.stdout, re.S)
            fail(f"{name}.html: {attrs.get('errors')} error(s): "
                 f"{errors.group(1)[:2000] if errors else ''} {console[:5]}")
        figures = len(re.findall(r'<figure class="chart"', shown.stdout))
        drawn = len(re.findall(r'<figure class="chart"[^>]*data-drawn="yes"', shown.stdout))
        # A spectrum per group, a timeline per point, at the least; every figure drawn. An echo
        # table's page draws a chart per Echo method instead.
        groups = len({p["group"] for p in data["points"]})
        want = 4 if data["echo"] else groups + len(data["points"])
        if drawn != figures or int(attrs.get("charts", -1)) != figures or figures < want:
            fail(f"{name}.html: {figures} charts, {drawn} drawn, {attrs.get('charts')} counted, "
                 f"at least {want} wanted")
        if attrs.get("style-conflicts") != "0":
            fail(f"{name}.html: a protocol's colour or marker differs between charts, or two protocols "
                 f"look alike ({attrs.get('style-conflicts')})")
        # The answer first: a ranking per load, read in a line, before every other section.
        if name in ("compare", "all"):
            ranking = shown.stdout.find("Which protocol wins")
            if ranking < 0 or ranking > shown.stdout.find("Summary: every point"):
                fail(f"{name}.html does not open with the ranking")
            if not re.search(r'class="reading">(line|mux)[^<]* (leads with [\d.]+k? calls/s, [\d.]+x (line|mux)|'
                             r'and (line|mux)[^<]* are within 2%)', shown.stdout):
                fail(f"{name}.html: the ranking has no reading of who leads by how much")
            if '<nav class="contents">' not in shown.stdout:
                fail(f"{name}.html has no table of contents")
        if attrs.get("empty-charts") != "0":
            fail(f"{name}.html: {attrs.get('empty-charts')} chart(s) had nothing to draw")
        if name == "compare" and "Before and after" not in shown.stdout:
            fail("compare.html has no before/after section")
        if name == "all" and "Knee searches" not in shown.stdout:
            fail("all.html has no knee search")
        if name == "echo" and not all(t in shown.stdout for t in (
                "Article 003's Echo table", "A closed loop of 2 callers", "The article's table", "158 µs",
                "Update: one caller, mean time per call")):
            fail("echo.html lacks the echo table, the closed loop's, or the article's figures")
        if name == "all" and "http_workers over workers: calls/s" not in shown.stdout:
            fail("all.html does not draw the Google Benchmark sweep")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--virtual-time-budget=10000", "--window-size=1400,4000",
                        f"--screenshot={work}/{name}.png", "file://" + page],
                       capture_output=True, timeout=120)
        if not os.path.exists(f"{work}/{name}.png"):
            fail(f"no screenshot of {name}.html")
        print(f"report_page_test: {name}.html: {len(data['points'])} points, {figures} charts, "
              f"drawn in {attrs.get('render-ms')} ms by its script, {took:.2f} s for Chromium in all; "
              f"screenshot {work}/{name}.png")

    # The killed run's timeline shows the fall: calls succeed, then fail from the kill on.
    killed = json.load(open(f"{work}/killed.json"))["points"][0]["repeats"][0]["timeline"]
    failed = [sum(col[k] for col in killed["failed"].values()) for k in range(len(killed["ok"]))]
    first = next((k for k, n in enumerate(failed) if n), None)
    if first is None or sum(killed["ok"][:first]) == 0:
        fail(f"the killed run's timeline shows no fall: ok {killed['ok']}, failed {failed}")


if __name__ == "__main__":
    main()
