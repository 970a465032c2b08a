#!/usr/bin/python3
"""scripts/plot's open-loop quantile chart on a log axis, so that bursty bars (tens of ms) do not
flatten uniform ones (a tenth of a ms) to nothing, and no bar where no call succeeded; and every
protocol the program registers has a look of its own (colour and marker), none the grey of an
unknown one.

  plot_test.py SOURCE_DIR WIREBENCH     (Debian's python3, where python3-matplotlib is)"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_test: SKIPPED: no matplotlib (apt-get install python3-matplotlib)")
    sys.exit(77)
import plot  # noqa: E402


def point(protocol, load, min_us, p50, p90, mx):
    return {"parameters": {"protocol": protocol, "load": load, "rate": 100},
            "summary": {"latency_us": {"min": min_us, "p50": p50, "p90": p90, "max": mx}}}


doc = {"machine": {"cpu_model": "test", "available_cpus": 2, "kernel": "linux"}, "started_at": "now",
       "points": [point("line", "bursty", 35000, 60000, 90000, 107000),
                  point("line", "uniform", 80, 100, 120, 150),
                  point("mux", "uniform", 0, 0, 0, 0)]}  # no call succeeded
with tempfile.TemporaryDirectory() as out:
    written = plot.quantile_charts(plt, doc, out)
    assert any(p.endswith("quantiles.png") for p in written), written
    axes = plt.gcf().axes
    assert len(axes) == 4, axes
    for ax in axes:
        assert ax.get_yscale() == "log", ax.get_title()
        heights = [bar.get_height() for bar in ax.patches]
        assert len(heights) == 4, heights  # 2 protocols x 2 schedules
        # mux's bars, and line's with no such schedule, are not drawn (NaN): no bar at 0.
        assert sum(1 for h in heights if h == h) == 2, heights
print("plot_test: ok")

registered = [line.split()[0] for line in
              subprocess.run([sys.argv[2], "list"], capture_output=True, text=True, check=True).stdout.splitlines()
              if line.strip()]
looks = {p: (plot.style(p)["color"], plot.style(p)["marker"]) for p in registered}
assert all(p in plot.STYLE for p in registered), [p for p in registered if p not in plot.STYLE]
assert len(set(looks.values())) == len(looks), looks
