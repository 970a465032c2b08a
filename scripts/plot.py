"""Plots of a `wirebench run` or `wirebench merge` results file (format wirebench-results-1 or
-2), as PNG and SVG:

  <name>-quantiles.*  open-loop points: one bar chart per quantile (min, p50, p90, max) across protocols,
               a bar per arrival schedule: the comparison's four charts, with the schedule beside
               the protocol so the two sources of spread can be told apart (log axes: a bursty
               schedule's latency is a hundred times a uniform one's)
  <name>-workers.*    closed-loop points: time per request (1 / throughput) and p99 latency against the
               worker count, one line per protocol (a fixed colour and marker per protocol, a line
               style per family: framed, HTTP, gRPC, RESP)
  <name>-knee.*       a --find-max-rate search: p50 and p99 latency against the offered rate, a line
               per protocol, the target's limits dashed and each knee (highest rate met) starred

Every figure is the median over the point's repeats (the error bars span min..max of the rate)."""
import json
import os
import re
import sys
from collections import defaultdict

PREFIX = ""

# One colour, marker and line style per protocol, the same in every plot; a family shares a hue
# range and a line style, and the legend lists the families in this order. Unknown names (a
# protocol added later) fall back to grey with a marker of their own, never to a reused colour.
FAMILIES = [
    ("framed", "-", [("line", "#1f77b4", "o"), ("length-prefixed", "#17becf", "s"),
                     ("mux", "#393b79", "^"), ("msgpack-rpc", "#9467bd", "D")]),
    ("HTTP", "--", [("http1", "#2ca02c", "o"), ("http1-close", "#98df8a", "v"), ("http2", "#8c9f1b", "s")]),
    ("gRPC", "-.", [("grpc", "#ff7f0e", "o"), ("grpc-stream", "#ffbb78", "s"),
                    ("grpc-batch", "#637939", "^"), ("grpcpp", "#c45a00", "v"),
                    ("grpcpp-stream", "#8c564b", "s"), ("grpcpp-batch", "#d4a017", "^")]),
    ("Connect and gRPC-Web", (0, (3, 1, 1, 1)),
     [("connect", "#17a589", "o"), ("connect-h1", "#17a589", "v"), ("connect-json", "#5dade2", "o"),
      ("connect-json-h1", "#5dade2", "v"), ("connect-stream", "#0e6655", "s"), ("grpc-web", "#af7ac5", "o"),
      ("grpc-web-h1", "#af7ac5", "v"), ("grpc-web-text", "#6c3483", "o"), ("grpc-web-text-h1", "#6c3483", "v")]),
    ("RESP", ":", [("resp", "#d62728", "o"), ("resp-sync", "#e377c2", "s"),
                   ("redis-server", "#7f2020", "^")]),
]
STYLE = {name: dict(color=color, marker=marker, linestyle=dashes)
         for _, dashes, members in FAMILIES for name, color, marker in members}
ORDER = [name for _, _, members in FAMILIES for name, _, _ in members]


def style(protocol):
    return STYLE.get(protocol, dict(color="#7f7f7f", marker="x", linestyle="-"))


def in_family_order(protocols):
    return sorted(protocols, key=lambda p: (ORDER.index(p) if p in ORDER else len(ORDER), p))


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("format") not in ("wirebench-results-1", "wirebench-results-2", "wirebench-results-3"):
        sys.exit(f"scripts/plot: {path} is not a wirebench run results file")
    return doc


def subtitle(doc):
    m = doc["machine"]
    p = doc["points"][0]["parameters"] if doc["points"] else {}
    return (f"{m['cpu_model']}, {m['available_cpus']} CPUs, {m['kernel']}; server cpus "
            f"{p.get('server_cpus', '?')}, client cpus {p.get('client_cpus', '?')}; "
            f"{doc['started_at']}")


def save(fig, out, name):
    written = []
    for ext in ("png", "svg"):
        path = os.path.join(out, f"{PREFIX}{name}.{ext}")
        fig.savefig(path, dpi=110)
        written.append(path)
    return written


def knee_points(doc):
    return {step["point"] for knee in doc.get("knees", []) for step in knee["steps"]}


def quantile_charts(plt, doc, out):
    searched = knee_points(doc)  # a search's steps have their own chart
    points = [p for i, p in enumerate(doc["points"])
              if p["parameters"]["load"] != "closed" and i not in searched]
    if not points:
        return []
    protocols = in_family_order(dict.fromkeys(p["parameters"]["protocol"] for p in points))
    loads = list(dict.fromkeys(
        f"{p['parameters']['load']} {p['parameters']['rate']:g}/s" for p in points))
    value = {}
    for p in points:
        key = (p["parameters"]["protocol"], f"{p['parameters']['load']} {p['parameters']['rate']:g}/s")
        value[key] = p["summary"]["latency_us"]
    quantiles = [("min", "min"), ("p50", "p50 (median)"), ("p90", "p90"), ("max", "max")]
    fig, axes = plt.subplots(2, 2, figsize=(max(8, 1.1 * len(protocols) * len(loads) + 3), 8))
    width = 0.8 / len(loads)
    for ax, (field, title) in zip(axes.flat, quantiles):
        for i, load in enumerate(loads):
            xs = [k + (i - (len(loads) - 1) / 2) * width for k in range(len(protocols))]
            # No bar where no call succeeded: its latencies are 0, which is no latency.
            ys = [value.get((proto, load), {}).get(field, 0) / 1000 or float("nan") for proto in protocols]
            ax.bar(xs, ys, width, label=load)
        # Log: a bursty schedule's tens of ms would flatten a uniform one's tenths of a ms to nothing.
        ax.set_yscale("log")
        ax.set_title(f"{title} latency")
        ax.set_ylabel("ms (from the intended start, log scale)")
        ax.set_xticks(range(len(protocols)))
        ax.set_xticklabels(protocols, rotation=30, ha="right")
        ax.grid(axis="y", alpha=0.3)
    axes.flat[0].legend(title="schedule")
    fig.suptitle("Latency quantiles per protocol, open loop\n" + subtitle(doc), fontsize=9)
    fig.tight_layout()
    return save(fig, out, "quantiles")


def workers_charts(plt, doc, out):
    series = defaultdict(list)
    for p in doc["points"]:
        par = p["parameters"]
        if par["load"] != "closed":
            continue
        s = p["summary"]
        series[par["protocol"]].append((par["workers"], s["requests_per_second"], s["latency_us"]["p99"]))
    series = {k: sorted(v) for k, v in series.items() if v}
    if not series or max(len(v) for v in series.values()) < 2:
        return []
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    for proto in in_family_order(series):
        rows = series[proto]
        workers = [r[0] for r in rows]
        per_call = [1e6 / r[1]["median"] if r[1]["median"] else float("nan") for r in rows]
        # Error bars from the repeats' spread of the rate (a slower repeat = a longer time).
        low = [pc - 1e6 / r[1]["max"] if r[1]["max"] else 0 for pc, r in zip(per_call, rows)]
        high = [1e6 / r[1]["min"] - pc if r[1]["min"] else 0 for pc, r in zip(per_call, rows)]
        left.errorbar(workers, per_call, yerr=[low, high], capsize=3, label=proto, **style(proto))
        right.plot(workers, [r[2] for r in rows], label=proto, **style(proto))
    for ax, title, unit in ((left, "Time per request (1 / throughput)", "µs"),
                            (right, "p99 latency", "µs")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("workers (closed loop)")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8)
    fig.suptitle("Closed loop against worker count\n" + subtitle(doc), fontsize=9)
    fig.tight_layout()
    return save(fig, out, "workers")


UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def knee_chart(plt, doc, out):
    knees = doc.get("knees", [])
    if not knees:
        return []
    fig, ax = plt.subplots(figsize=(10, 6))
    limits = set()
    for knee in knees:
        steps = sorted(knee["steps"], key=lambda st: st["rate"])
        rates = [st["rate"] for st in steps]
        summaries = [doc["points"][st["point"]]["summary"]["latency_us"] for st in steps]
        label = f"{knee['protocol']} {knee['load']} workers={knee['workers']}"
        look = style(knee["protocol"])
        ax.plot(rates, [q["p99"] / 1000 for q in summaries], label=label + " p99", **look)
        ax.plot(rates, [q["p50"] / 1000 for q in summaries], color=look["color"],
                marker=look["marker"], linestyle=":", alpha=0.6, label=label + " p50")
        if knee["max_rate_met"] > 0:
            at = rates.index(knee["max_rate_met"]) if knee["max_rate_met"] in rates else None
            y = summaries[at]["p99"] / 1000 if at is not None else None
            ax.axvline(knee["max_rate_met"], color=look["color"], linestyle="--", alpha=0.4)
            if y is not None:
                ax.plot([knee["max_rate_met"]], [y], marker="*", markersize=16, color=look["color"],
                        linestyle="none")
            ax.annotate(f"knee {knee['max_rate_met']:,.0f}/s", (knee["max_rate_met"], y or 0),
                        textcoords="offset points", xytext=(6, 10), fontsize=8, color=look["color"])
        for name, value, unit in re.findall(r"(p[\d.]+|max)<=(\d+)(ns|us|ms|s)\b", knee["slo"]):
            limits.add((name, int(value) * UNIT_MS[unit]))
    for name, ms in sorted(limits):
        ax.axhline(ms, color="black", linestyle="--", linewidth=0.8)
        ax.annotate(f"target {name} <= {ms:g} ms", (0, ms), xycoords=("axes fraction", "data"),
                    textcoords="offset points", xytext=(4, 3), fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("offered rate (calls/s, open loop)")
    ax.set_ylabel("latency, ms (from the intended start)")
    ax.set_title("Latency against offered rate: the knee is the highest rate meeting "
                 + ", ".join(sorted({k["slo"] for k in knees})))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle(subtitle(doc), fontsize=9)
    fig.tight_layout()
    return save(fig, out, "knee")


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        sys.exit("usage: scripts/plot RESULTS.json [OUT_DIR]")
    doc = load(argv[1])
    out = argv[2] if len(argv) == 3 else os.path.dirname(os.path.abspath(argv[1]))
    global PREFIX  # plots are named after their results file: sweep.json -> sweep-workers.png
    PREFIX = os.path.splitext(os.path.basename(argv[1]))[0] + "-"
    os.makedirs(out, exist_ok=True)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("scripts/plot: no matplotlib (apt-get install python3-matplotlib, or scripts/setup)")
    written = (quantile_charts(plt, doc, out) + workers_charts(plt, doc, out) +
               knee_chart(plt, doc, out))
    if not written:
        print("scripts/plot: nothing to plot (no open-loop points, no closed-loop sweep over workers)",
              file=sys.stderr)
    for path in written:
        print(path)


if __name__ == "__main__":
    main(sys.argv)
