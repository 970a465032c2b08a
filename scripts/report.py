"""Turns a scripts/bench results directory into a table (stdout and table.txt), results.csv and
plots of its Google Benchmark parts, and report.html, the page `wirebench report` makes of its
`wirebench run` results. Every figure is the median over the run's repetitions; ratios compare
cases measured in the same run, which on a small noisy machine is the only comparison worth making.

  scripts/report RESULTS_DIR     a scripts/bench output (or any folder of wirebench results)
  scripts/report RESULTS.json    one `wirebench run -o` file: its page, RESULTS.html
WIREBENCH=path/to/wirebench picks the program that writes the page (default: the Release build,
else the test build)."""
import csv
import glob
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GBENCH_FILES = ("micro.json", "depth.json", "http.json", "grpc.json", "floor-same-cpu.json",
                "floor-cross-cpu.json")


def wirebench_program():
    if os.environ.get("WIREBENCH"):
        return os.environ["WIREBENCH"]
    for build in ("build/release", "build/test"):
        path = os.path.join(ROOT, build, "src/app/wirebench")
        if os.access(path, os.X_OK):
            return path
    return None


def results_files(paths, benchmarks=False):
    """Those of `paths` that are wirebench results files, and with `benchmarks` Google Benchmark's
    JSON files too (`wirebench report` draws both)."""
    found = []
    for path in paths:
        try:
            with open(path) as f:
                doc = json.load(f)
            if str(doc.get("format", "")).startswith("wirebench-results-") or (
                    benchmarks and isinstance(doc.get("benchmarks"), list)):
                found.append(path)
        except (OSError, ValueError, AttributeError):
            pass
    return found


def write_page(results, page):
    """`wirebench report RESULTS... -o PAGE`; the page's path, or None (with the reason said)."""
    program = wirebench_program()
    if not program:
        print("scripts/report: no wirebench program built (scripts/bench builds one; or set "
              "WIREBENCH): no report.html", file=sys.stderr)
        return None
    done = subprocess.run([program, "report", *results, "-o", page], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"scripts/report: wirebench report failed: {done.stderr.strip()}", file=sys.stderr)
        return None
    return page


def load(path):
    """Median rows of a Google Benchmark JSON file, keyed by case name (without /real_time)."""
    if not os.path.exists(path):
        return {}, {}
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        name = re.sub(r"/real_time$", "", b["run_name"])
        if b.get("error_occurred"):
            rows[name] = {"error": b.get("error_message", "error")}
            continue
        kind = b.get("aggregate_name", "")
        if kind == "median" or b.get("run_type") == "iteration":
            rows[name] = b
    return rows, data.get("context", {})


def fmt(x, unit=""):
    if x is None:
        return "-"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}{unit}"
    return f"{x:.3g}{unit}"


def table(title, header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines) + "\n"


def main(out):
    page = None
    every = sorted(glob.glob(os.path.join(out, "*.json")))
    results = results_files(every)
    drawn = results_files(every, benchmarks=True)  # the page: wirebench results and benchmarks
    if drawn:
        page = write_page(drawn, os.path.join(out, "report.html"))
    if not any(os.path.exists(os.path.join(out, f)) for f in GBENCH_FILES):
        if not results:
            sys.exit(f"scripts/report: {out} holds no results: neither wirebench results files nor "
                     f"the Google Benchmark files of scripts/bench ({', '.join(GBENCH_FILES)})")
        if page:
            print(f"scripts/report: the page of {len(drawn)} results file(s): {page}")
        return
    benchmark_tables(out)
    if page:
        print(f"scripts/report: the page of {len(drawn)} results file(s): {page}")


def benchmark_tables(out):
    micro, micro_ctx = load(os.path.join(out, "micro.json"))
    floors = {p: load(os.path.join(out, f"floor-{p}.json"))[0] for p in ("same-cpu", "cross-cpu")}
    depth, _ = load(os.path.join(out, "depth.json"))
    http, http_ctx = load(os.path.join(out, "http.json"))
    grpc, grpc_ctx = load(os.path.join(out, "grpc.json"))
    ctx = http_ctx or micro_ctx  # the end-to-end cases record their placement in their context
    text = []
    machine = (f"{ctx['num_cpus']} CPUs at {ctx['mhz_per_cpu']} MHz, load "
               f"{', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}"
               if "num_cpus" in ctx and "mhz_per_cpu" in ctx else "not recorded")
    text.append(
        f"wirebench results {out} (the Google Benchmark parts)\nmachine: {machine}; "
        f"end-to-end cases: server threads {ctx.get('server_threads', '-')}, client threads "
        f"{ctx.get('client_threads', '-')}, the depth and worker sweeps unpinned; medians of "
        f"{repetitions(http or micro)} repetitions "
        f"(Debian's libbenchmark is a debug build: its warning is cosmetic, the timed loops are ours)\n")

    # Codec decode vs memchr. Bytes/s only where every byte is read: the length-prefix decoder
    # reads each header and skips the payload, so its bytes/s would only grow with the frame size.
    sizes = sorted({int(m.group(1)) for n in micro for m in [re.search(r"frame_bytes:(\d+)", n)] if m})
    rows = []
    for s in sizes:
        get = lambda k, field: micro.get(f"{k}/frame_bytes:{s}", {}).get(field)
        line, floor = get("line_decode", "bytes_per_second"), get("memchr_scan", "bytes_per_second")
        rows.append([s, fmt(line, "B/s"), fmt(floor, "B/s"),
                     f"{floor / line:.2f}x" if line and floor else "-",
                     fmt(get("line_decode", "frames_per_s")), fmt(get("length_prefix_decode", "frames_per_s"))])
    if rows:
        text.append(table("Decode: the newline decoder beside a memchr-only scan (bytes/s), and frames/s of "
                          "both decoders\n(the length-prefix decoder does not read the payload: frames/s is "
                          "its throughput, bytes/s would not be)",
                          ["frame_bytes", "line B/s", "memchr floor B/s", "floor/line", "line frames/s",
                           "length-prefix frames/s"], rows))

    # Matching calls to replies, no network.
    rows = []
    for name, b in sorted(micro.items()):
        m = re.match(r"(pending_table|fifo_matcher)_issue_complete/depth:(\d+)$", name)
        if m and "real_time" in b:
            rows.append([m.group(1), m.group(2), f"{b['real_time']:.1f}"])
    if rows:
        text.append(table("Issue one call and complete one, no network (ns per call)",
                          ["matcher", "calls in flight", "ns"], rows))

    # The user record in three encodings.
    rows = []
    for fmt_name in ("msgpack", "json", "protobuf"):
        enc = micro.get(f"record_codec/{fmt_name}/encode", {})
        dec = micro.get(f"record_codec/{fmt_name}/decode", {})
        if "items_per_second" in enc:
            rows.append([fmt_name, fmt(enc["items_per_second"], "/s"), fmt(dec.get("items_per_second"), "/s"),
                         int(enc.get("encoded_bytes", 0))])
    if rows:
        text.append(table("User record {first_name, last_name, email, last_login_at}",
                          ["format", "encode", "decode", "bytes"], rows))

    # One connection against the raw floor.
    rows = []
    for placement, rows_in in floors.items():
        for transport in ("tcp", "unix"):
            raw = rows_in.get(f"raw_pingpong/{transport}", {}).get("p50_us")
            for name, b in sorted(rows_in.items()):
                m = re.match(rf"greet/([^/]+)/{transport}/workers:1$", name)
                if m and raw and "p50_us" in b:
                    rows.append([placement, transport, m.group(1), f"{raw:.2f}", f"{b['p50_us']:.2f}",
                                 f"{b['p50_us'] / raw:.2f}x"])
    if rows:
        text.append(table("One connection, p50 round trip (µs) against a raw blocking-socket ping-pong",
                          ["placement", "transport", "protocol", "raw p50", "ours p50", "ours/raw"], rows))

    # Ordered (FIFO) against id-multiplexed pipelining on one connection.
    by_model = defaultdict(dict)
    for name, b in depth.items():
        m = re.match(r"mux_depth/(fifo|mux)/([^/]+)/depth:(\d+)$", name)
        if m and "rps" in b:
            by_model[m.group(2)][(m.group(1), int(m.group(3)))] = b
    rows = []
    for model in ("none", "fixed", "exp", "skewed"):
        cells = by_model.get(model, {})
        for d in sorted({k[1] for k in cells}):
            f, x = cells.get(("fifo", d)), cells.get(("mux", d))
            if f and x:
                rows.append([model, d, fmt(f["rps"]), fmt(x["rps"]), f"{x['rps'] / f['rps']:.2f}x",
                             f"{f['p99_us']:.0f}", f"{x['p99_us']:.0f}", f"{f['p99_us'] / x['p99_us']:.1f}x"])
    if rows:
        text.append(table("One connection, K calls in flight: ordered replies (fifo) vs ids (mux); p99 in µs",
                          ["model", "depth", "fifo req/s", "mux req/s", "mux/fifo", "fifo p99", "mux p99",
                           "fifo/mux p99"], rows))
        none = by_model.get("none", {})
        if ("mux", 1) in none and ("mux", 64) in none:
            text.append(f"mux, model none: depth 64 gives {none[('mux', 64)]['rps'] / none[('mux', 1)]['rps']:.1f}x "
                        f"the requests/s of depth 1\n")

    # HTTP/1.1 against HTTP/2 as the worker count grows.
    by_variant = defaultdict(dict)
    for name, b in list(http.items()) + list(grpc.items()):
        m = re.match(r"(?:http|grpc)_workers/([^/]+)/workers:(\d+)$", name)
        if m and "rps" in b:
            by_variant[m.group(1)][int(m.group(2))] = b
    def workers_table(title, names):
        present = [v for v in names if v in by_variant]
        if not present:
            return
        rows = []
        for w in sorted({w for v in present for w in by_variant[v]}):
            row = [w]
            for v in present:
                b = by_variant[v].get(w)
                if not b:
                    row += ["-", "-"]
                    continue
                errs = int(b.get("errors", 0))
                row += [f"{1e6 / b['rps'] * w:.1f}" if b["rps"] else "-",
                        fmt(b["rps"]) + (f" ({errs} failed)" if errs else "")]
            rows.append(row)
        text.append(table(title, ["workers"] + [f"{v} {col}" for v in present for col in ("µs", "req/s")], rows))

    workers_table("Workers against one server: µs per request per worker, and req/s "
                  "(http1: connection per worker; http1-new: connection per call; http2: one connection; "
                  "http2-tls: the same over TLS)", ["http1", "http1-new", "http2", "http2-tls"])
    grpc_names = ["grpc", "grpc-stream", "grpc-batch", "grpcpp", "grpcpp-stream", "grpcpp-batch"]
    workers_table("gRPC on one connection: ours on our HTTP/2 (grpc: unary calls; grpc-stream: a bidi "
                  "stream with one request per message, by id; grpc-batch: up to 10 per message) beside "
                  "grpc++ (grpcpp, grpcpp-stream, grpcpp-batch: the same three; its server a child process, "
                  f"{grpc_ctx.get('server_threads', '-')} thread(s))", grpc_names)
    g = {v: by_variant.get(v, {}).get(16) for v in grpc_names}
    if g["grpc"] and g["grpcpp"]:
        text.append(f"gRPC unary at 16 workers: ours/grpc++ {g['grpc']['rps'] / g['grpcpp']['rps']:.2f}x requests/s\n")
    for impl, unary in (("ours", "grpc"), ("grpc++", "grpcpp")):
        stream, batch = g[f"{unary}-stream"], g[f"{unary}-batch"]
        if g[unary] and stream and batch:
            text.append(f"{impl} at 16 workers on one connection: stream/unary {stream['rps'] / g[unary]['rps']:.2f}x, "
                        f"batch/unary {batch['rps'] / g[unary]['rps']:.2f}x requests/s\n")

    report = "\n".join(text)
    print(report)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(report)
    write_csv(out, micro, floors, depth, http, grpc)
    plot(out, micro, sizes, by_model, by_variant)


def repetitions(rows):
    counts = {b.get("repetitions") for b in rows.values() if isinstance(b, dict) and "repetitions" in b}
    return "/".join(str(c) for c in sorted(counts)) or "?"


def write_csv(out, micro, floors, depth, http, grpc):
    fields = ["source", "name", "real_time", "time_unit", "rps", "p50_us", "p90_us", "p99_us",
              "max_us", "bytes_per_second", "frames_per_s", "error"]
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        sources = [("micro", micro), ("depth", depth), ("http", http), ("grpc", grpc)]
        for source, rows in sources + [(f"floor-{k}", v) for k, v in floors.items()]:
            for name, b in sorted(rows.items()):
                w.writerow({"source": source, "name": name, **b})


def plot(out, micro, sizes, by_model, by_variant):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scripts/report: no matplotlib (apt-get install python3-matplotlib): no plots", file=sys.stderr)
        return

    def save(fig, name):  # out/NAME.png and .svg
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=110)
        plt.close(fig)
        written.append(name)

    written = []
    if sizes:
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
        series = {"line_decode": ("newline decoder", "#1f77b4"),
                  "length_prefix_decode": ("length-prefix decoder", "#d62728"),
                  "memchr_scan": ("memchr floor", "#7f7f7f")}
        for ax, field, scale, unit, keys in (
                (left, "bytes_per_second", 1e9, "GB/s", ["line_decode", "memchr_scan"]),
                (right, "frames_per_s", 1e6, "million frames/s", list(series))):
            for key in keys:
                ys = [micro.get(f"{key}/frame_bytes:{s}", {}).get(field) for s in sizes]
                ax.plot(sizes, [y / scale if y else None for y in ys], marker="o", label=series[key][0],
                        color=series[key][1])
            ax.set_xscale("log", base=2)
            ax.set_xticks(sizes, [str(x) for x in sizes])
            ax.set_yscale("log")
            ax.set_xlabel("frame bytes")
            ax.set_ylabel(unit)
            ax.grid(True, alpha=0.3)
            ax.legend()
        left.set_title("Bytes/s (decoders that read every byte)")
        right.set_title("Frames/s (length-prefix skips the payload)")
        save(fig, "decode")
    if by_model:
        models = [m for m in ("none", "fixed", "exp", "skewed") if m in by_model]
        fig, axes = plt.subplots(1, len(models), figsize=(4.2 * len(models), 4.2), sharey=True)
        for ax, model in zip(axes if len(models) > 1 else [axes], models):
            for mode, style in (("fifo", "--"), ("mux", "-")):
                ds = sorted(d for (md, d) in by_model[model] if md == mode)
                ax.plot(ds, [by_model[model][(mode, d)]["p99_us"] for d in ds], style, marker="o",
                        label="ordered (fifo)" if mode == "fifo" else "by id (mux)")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xticks(ds, [str(d) for d in ds])
            ax.set_title(f"service time: {model}")
            ax.set_xlabel("calls in flight on one connection")
            ax.grid(True, alpha=0.3)
        (axes[0] if len(models) > 1 else axes).set_ylabel("p99 latency (µs)")
        (axes[0] if len(models) > 1 else axes).legend()
        fig.suptitle("Head-of-line blocking: ordered replies against replies matched by id")
        save(fig, "depth")
    if by_variant:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
        labels = {"http1": "HTTP/1.1, connection per worker", "http1-new": "HTTP/1.1, connection per call",
                  "http2": "HTTP/2, streams on one connection",
                  "http2-tls": "HTTP/2 over TLS, streams on one connection",
                  "grpc": "gRPC unary on our HTTP/2, one connection",
                  "grpc-stream": "gRPC bidi stream on our HTTP/2, by id",
                  "grpc-batch": "gRPC bidi stream on our HTTP/2, 10 per message",
                  "grpcpp": "grpc++ unary, one channel", "grpcpp-stream": "grpc++ bidi stream, by id",
                  "grpcpp-batch": "grpc++ bidi stream, 10 per message"}
        for v, by_w in sorted(by_variant.items()):
            ws = sorted(w for w in by_w if by_w[w]["rps"])
            axes[0].plot(ws, [1e6 / by_w[w]["rps"] for w in ws], marker="o", label=labels.get(v, v))
            axes[1].plot(ws, [by_w[w]["p99_us"] for w in ws], marker="o", label=labels.get(v, v))
        for ax, title in zip(axes, ["Time per request (µs, wall / requests)", "p99 latency (µs)"]):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            all_w = sorted({w for by_w in by_variant.values() for w in by_w})
            ax.set_xticks(all_w, [str(w) for w in all_w])
            ax.set_xlabel("workers")
            ax.set_title(title)
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=8)
        fig.suptitle("A job queue with N workers: HTTP/1.1 against HTTP/2")
        save(fig, "http")
    plots = f"plots ({', '.join(written)}, PNG and SVG)" if written else "no plots (nothing to draw)"
    print(f"scripts/report: wrote {out}/table.txt, results.csv and {plots}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/report RESULTS_DIR | RESULTS.json")
    target = sys.argv[1]
    if os.path.isdir(target):
        main(target)
    elif os.path.isfile(target):
        if not results_files([target]):
            sys.exit(f"scripts/report: {target} is not a wirebench results file (give a scripts/bench "
                     f"results directory, or a file written by `wirebench run -o`)")
        page = write_page([target], os.path.splitext(target)[0] + ".html")
        if not page:
            sys.exit(1)
        print(f"scripts/report: the page of {target}: {page}")
    else:
        sys.exit(f"scripts/report: {target}: no such file or directory")
