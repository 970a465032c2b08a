"""The table, ranking and plot of a scripts/bench-network run.

  bench_network.py OUT   reads OUT/rtt-<X>ms/<protocol>/gen-1.json (one generator: its file is the
                         whole result) and link.json beside it, OUT/skipped.txt; prints the table and
                         the ranking per round trip; writes OUT/network.csv and OUT/network.png/.svg.

Each figure is the point's summary over its repeats (median rate, median percentiles), as
`wirebench run` reports it. The ranking is by p50 (lower first); calls/s follows it in a closed loop."""
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot import in_family_order, style  # noqa: E402  (the colours every project plot uses)


def load(out):
    rows, links = [], {}
    for rtt_dir in os.listdir(out):
        m = re.fullmatch(r"rtt-([0-9.]+)ms", rtt_dir)
        if not m:
            continue
        for proto in os.listdir(os.path.join(out, rtt_dir)):
            path = os.path.join(out, rtt_dir, proto, "gen-1.json")
            if not os.path.isfile(path):
                continue
            with open(path) as f:
                summary = json.load(f)["points"][0]["summary"]
            with open(os.path.join(out, rtt_dir, proto, "link.json")) as f:
                link = json.load(f)
            links[link["emulator"], link.get("emulator_version"), link.get("handshake_delayed")] = True
            rows.append(dict(rtt=float(m.group(1)), protocol=proto,
                             p50_us=summary["latency_us"]["p50"], p99_us=summary["latency_us"]["p99"],
                             calls_per_second=summary["requests_per_second"]["median"],
                             failed=sum(v for k, v in summary["outcomes"].items() if k != "ok")))
    order = in_family_order({r["protocol"] for r in rows})
    return sorted(rows, key=lambda r: (r["rtt"], order.index(r["protocol"]))), list(links)


def ranking(rows):
    """{rtt: [protocol, ...]}, fastest p50 first."""
    ranks = {}
    for r in rows:
        ranks.setdefault(r["rtt"], []).append(r)
    return {rtt: [r["protocol"] for r in sorted(rs, key=lambda r: r["p50_us"])] for rtt, rs in ranks.items()}


def print_table(rows, links, skipped):
    ms = lambda us: f"{us / 1000:.3f}"  # noqa: E731
    print(f"{'rtt':>6}  {'protocol':<12} {'p50 ms':>8} {'p99 ms':>8} {'calls/s':>10} {'failed':>7}")
    for r in rows:
        print(f"{r['rtt']:>4g}ms  {r['protocol']:<12} {ms(r['p50_us']):>8} {ms(r['p99_us']):>8} "
              f"{r['calls_per_second']:>10.0f} {r['failed']:>7}")
    print()
    for rtt, order in ranking(rows).items():
        # How far apart the p50s are, so that a ranking inside the noise reads as one.
        p50s = [r["p50_us"] for r in rows if r["rtt"] == rtt]
        spread = (max(p50s) - min(p50s)) / min(p50s) * 100
        print(f"ranking at {rtt:g} ms (p50, fastest first): {' < '.join(order)}"
              f"   (slowest p50 {spread:.0f}% above the fastest)")
    for emulator, version, handshake in links:
        print(f"emulator: {emulator} {version or ''}".rstrip()
              + ("; TCP handshakes NOT delayed (a connection per call pays no extra round trip)"
                 if handshake is False else ""))
    for line in skipped:
        print(f"skipped: {line}")


def plot(rows, links, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench-network: no matplotlib (apt-get install python3-matplotlib): no plot", file=sys.stderr)
        return []
    ranks = ranking(rows)
    rtts = sorted(ranks)
    fig, (lat, rate, rank) = plt.subplots(1, 3, figsize=(15, 4.8))
    for proto in in_family_order({r["protocol"] for r in rows}):
        mine = [r for r in rows if r["protocol"] == proto]
        xs = [r["rtt"] for r in mine]
        lat.plot(xs, [r["p50_us"] / 1000 for r in mine], label=proto, **style(proto))
        rate.plot(xs, [r["calls_per_second"] for r in mine], label=proto, **style(proto))
        placed = [(rtt, ranks[rtt].index(proto) + 1) for rtt in rtts if proto in ranks[rtt]]
        rank.plot([p[0] for p in placed], [p[1] for p in placed], label=proto, **style(proto))
    for ax, title, unit in ((lat, "p50 latency", "ms"), (rate, "calls per second", "calls/s"),
                            (rank, "rank by p50 (1 = fastest)", "rank")):
        ax.set_xlabel("emulated round trip (ms)")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.set_xticks(rtts)
        ax.grid(True, alpha=0.3)
    rate.set_yscale("log")
    rank.invert_yaxis()
    rank.set_yticks(range(1, max(len(v) for v in ranks.values()) + 1))
    lat.legend(fontsize=8)
    emulators = ", ".join(f"{e} {v or ''}".strip() for e, v, _ in links)
    fig.suptitle(f"How the round trip reorders protocols (scripts/bench-network; delay by {emulators})",
                 fontsize=10)
    fig.tight_layout()
    written = []
    for ext in ("png", "svg"):
        written.append(os.path.join(out, f"network.{ext}"))
        fig.savefig(written[-1], dpi=110)
    return written


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: bench_network.py OUT_DIR")
    out = argv[1]
    rows, links = load(out)
    skipped_path = os.path.join(out, "skipped.txt")
    skipped = open(skipped_path).read().splitlines() if os.path.exists(skipped_path) else []
    if not rows:
        print("\n".join(f"skipped: {s}" for s in skipped))
        sys.exit("bench-network: no results to report")
    with open(os.path.join(out, "network.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print_table(rows, links, skipped)
    for path in plot(rows, links, out):
        print(path)


if __name__ == "__main__":
    main(sys.argv)
