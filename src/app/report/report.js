// The page of `wirebench report`: draws the data that report_data.cpp wrote into the page
// (<script id="data">) with Chart.js (inlined before this script). Everything is built with DOM
// calls and textContent, never from markup, so no text from a results file can run as code.
// When it is done, <body> says how it went, for a browser test to read:
//   data-ready="yes", data-charts="N" (charts drawn with data), data-empty-charts="N",
//   data-errors="N" (script errors and console.error calls, also listed at the top of the page),
//   data-style-conflicts="N" (protocols drawn in more than one colour or marker, or alike).
"use strict";

const errors = [];
function noteError(text) {
  errors.push(text);
  const box = document.getElementById("errors");
  if (box) {
    box.hidden = false;
    box.append(el("div", {}, text));
  }
  document.body.dataset.errors = String(errors.length);
try {
  document.body.dataset.styleConflicts = String(styleConflicts());
} catch (e) {
  noteError("style check failed: " + e);
}
}
window.addEventListener("error", (e) => noteError("script error: " + e.message));
const consoleError = console.error.bind(console);
console.error = (...args) => {
  noteError("console.error: " + args.join(" "));
  consoleError(...args);
};

// --- DOM and number helpers -------------------------------------------------------------------

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function fmtNumber(x, digits = 3) {
  if (x === null || x === undefined || !isFinite(x)) return "-";
  const a = Math.abs(x);
  if (a >= 1e9) return (x / 1e9).toPrecision(digits) + "G";
  if (a >= 1e6) return (x / 1e6).toPrecision(digits) + "M";
  if (a >= 1e4) return (x / 1e3).toPrecision(digits) + "k";
  if (a >= 100) return x.toFixed(0);
  return x.toPrecision(digits).replace(/\.?0+$/, "");
}

// Microseconds as a person reads them: 850 us, 1.42 ms, 2.5 s.
function fmtLatency(us) {
  if (us === null || us === undefined || !isFinite(us)) return "-";
  if (us >= 1e6) return fmtNumber(us / 1e6) + " s";
  if (us >= 1e3) return fmtNumber(us / 1e3) + " ms";
  return fmtNumber(us) + " µs";
}

function fmtPercentile(p) {
  if (p >= 100) return "max";
  return String(Number(p.toPrecision(6))) + "%";
}

// Distinct colours in a fixed order. A protocol (a point's label) keeps one colour and one marker
// on every chart of the page: main() gives each label its style, in the order of the points,
// before anything is drawn; a colour repeats only with another marker. Other series (outcomes,
// benchmark variants) take colours of their own, never a protocol's place in the order.
const palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                 "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#ad494a", "#637939", "#843c39"];
const markers = ["circle", "rect", "triangle", "rectRot", "star", "crossRot", "cross", "rectRounded"];
const protocolStyles = new Map();
function protocolStyle(label) {
  if (!protocolStyles.has(label)) {
    const n = protocolStyles.size;
    protocolStyles.set(label, { colour: palette[n % palette.length],
                                marker: markers[Math.floor(n / palette.length) % markers.length] });
  }
  return protocolStyles.get(label);
}
// A dataset's look for a protocol's series: colour, marker and the label it stands for (what the
// page's own check reads, see main()).
function protocolLook(label) {
  const st = protocolStyle(label);
  return { borderColor: st.colour, backgroundColor: st.colour, pointStyle: st.marker, protocol: label };
}
const otherColours = new Map();
function colourOf(name) {
  if (!otherColours.has(name)) otherColours.set(name, palette[(palette.length - 1 - otherColours.size % palette.length)]);
  return otherColours.get(name);
}

// --- Charts -----------------------------------------------------------------------------------

let chartsDrawn = 0;
let chartsEmpty = 0;

// Shades the measured windows ([from, to] in x units) behind a chart's lines.
const windowShading = {
  id: "windowShading",
  beforeDatasetsDraw(chart, args, options) {
    const spans = options.spans || [];
    if (!spans.length) return;
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    ctx.fillStyle = "rgba(120, 160, 220, 0.12)";
    for (const [from, to] of spans) {
      const a = Math.max(scales.x.getPixelForValue(from), chartArea.left);
      const b = Math.min(scales.x.getPixelForValue(to), chartArea.right);
      if (b > a) ctx.fillRect(a, chartArea.top, b - a, chartArea.bottom - chartArea.top);
    }
    ctx.restore();
  },
};

function chartBox(parent, title, note) {
  const box = el("figure", { class: "chart" });
  box.append(el("figcaption", {}, title));
  const holder = el("div", { class: "canvas-holder" });
  const canvas = el("canvas", {});
  holder.append(canvas);
  box.append(holder);
  if (note) box.append(el("p", { class: "note" }, note));
  parent.append(box);
  return canvas;
}

function draw(canvas, config) {
  const hasData = config.data.datasets.some((d) => d.data.some((v) => v !== null && (v.y ?? v) !== null));
  if (!hasData) {
    chartsEmpty++;
    canvas.parentElement.replaceWith(el("p", { class: "empty" }, "nothing to draw: no call succeeded"));
    return null;
  }
  config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false,
                                   normalized: true }, config.options || {});
  const chart = new Chart(canvas, config);
  chartsDrawn++;
  canvas.closest("figure").dataset.drawn = "yes";
  return chart;
}

function axis(title, type, extra) {
  return Object.assign({ type: type || "linear", title: { display: true, text: title } }, extra || {});
}

// Latency against 1/(1 - q), both on log axes: HdrHistogram's percentile spectrum, where p99.9
// and p99.99 get as much room as the median.
function spectrumChart(parent, title, series, note) {
  const canvas = chartBox(parent, title, note);
  const datasets = series.map(({ label, protocol, spectrum, dashed }) => {
    let last = 1;
    const data = spectrum.map(([p, us]) => {
      const x = p >= 100 ? last * 2 : 1 / (1 - p / 100);
      last = x;
      return { x, y: Math.max(us, 0.001), p };
    });
    return Object.assign({ label, data, borderDash: dashed ? [6, 4] : [], pointRadius: 1.5, borderWidth: 1.5,
                           stepped: false }, protocolLook(protocol));
  });
  draw(canvas, {
    type: "line",
    data: { datasets },
    options: {
      parsing: false,
      scales: {
        x: axis("percentile", "logarithmic", {
          min: 1,
          ticks: {
            callback: (v) => {
              const e = Math.log10(v);
              if (Math.abs(e - Math.round(e)) > 1e-9 && v !== 2) return "";
              return fmtPercentile(100 * (1 - 1 / v));
            },
          },
        }),
        y: axis("latency", "logarithmic", { ticks: { callback: (v) => tickLatency(v) } }),
      },
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${fmtPercentile(c.raw.p)} ${fmtLatency(c.raw.y)}` } },
      },
    },
  });
}

// Log-axis latency ticks: only 1, 2 and 5 of each decade, labelled.
function tickLatency(v) {
  const m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
  return [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6) ? fmtLatency(v) : "";
}

// One point's repeats on one time axis (seconds since its first repeat started): calls/s ok,
// an open loop's offered rate (calls due per second) and share of its sends that went out late,
// a closed loop's workers when they follow stages,
// p99 and the max latency, the measured
// windows shaded; below it, when any call failed or the client re-dialed, failures per second by
// outcome and the client's re-dials and failed dials.
function timelineCharts(parent, point) {
  const repeats = point.repeats.filter((r) => r.timeline);
  if (!repeats.length) {
    parent.append(el("p", { class: "empty" }, "no timeline (a results file from before timelines)"));
    return;
  }
  const zero = repeats[0].timeline.start_unix;
  const seconds = (ns) => ns / 1e9;
  const sets = { ok: [], p99: [], max: [], due: [], late: [], workers: [], redials: [] };
  const failures = new Map();  // outcome -> points
  const spans = [];
  let open = false;
  let ramped = false;  // a closed loop in worker stages: its workers, interval by interval
  let anyFailure = false;
  for (const r of repeats) {
    const t = r.timeline;
    const offset = t.start_unix - zero;
    const interval = seconds(t.interval_ns), span = seconds(t.span_ns);
    spans.push([r.window_start_unix - zero, r.window_start_unix - zero + r.window_seconds]);
    for (const name of Object.keys(t.failed)) if (!failures.has(name)) failures.set(name, []);
    for (let k = 0; k < t.ok.length; k++) {
      // The last interval ends with the run: a rate over it is over the part the run covered.
      const covered = Math.min(interval, Math.max(span - k * interval, interval / 100));
      const perSecond = 1 / covered;
      const x = offset + k * interval + covered / 2;
      const dials = t.reconnects[k] + t.connect_failures[k];
      sets.ok.push({ x, y: t.ok[k] * perSecond });
      sets.p99.push({ x, y: t.ok[k] > 0 ? t.p99_us[k] / 1000 : null });
      sets.max.push({ x, y: t.ok[k] > 0 ? t.max_ns[k] / 1e6 : null });
      sets.redials.push({ x, y: dials * perSecond });
      for (const [name, column] of Object.entries(t.failed)) {
        failures.get(name).push({ x, y: column[k] * perSecond });
        anyFailure = anyFailure || column[k] > 0;
      }
      anyFailure = anyFailure || dials > 0;
      if (t.due) {
        open = true;
        sets.due.push({ x, y: t.due[k] * perSecond });
        sets.late.push({ x, y: t.sent[k] > 0 ? (100 * t.late[k]) / t.sent[k] : null });
      }
      if (t.workers) {
        ramped = true;
        sets.workers.push({ x, y: t.workers[k] });
      }
    }
    // A gap between repeats, so that lines do not join them.
    const end = offset + t.ok.length * interval;
    for (const s of [sets.ok, sets.p99, sets.max, sets.due, sets.late, sets.workers]) s.push({ x: end, y: null });
  }
  const interval = seconds(repeats[0].timeline.interval_ns);
  const line = (label, data, colour, axisId, extra) =>
    Object.assign({ label, data, borderColor: colour, backgroundColor: colour, yAxisID: axisId,
                    pointRadius: 0, borderWidth: 1.5, spanGaps: false }, extra || {});
  const datasets = [
    line("ok calls/s", sets.ok, "#2b7bba", "y"),
    line("p99 ms", sets.p99, "#ff7f0e", "y2"),
    line("max ms", sets.max, "rgba(127,127,127,0.7)", "y2", { borderWidth: 1, borderDash: [3, 3] }),
  ];
  if (open) {
    datasets.push(line("offered calls/s (due)", sets.due, "#2ca02c", "y", { borderWidth: 1, borderDash: [6, 3] }));
    datasets.push(line("sent late, % of sent", sets.late, "#d62728", "late", { borderWidth: 1 }));
  }
  if (ramped)
    datasets.push(line("workers calling", sets.workers, "#9467bd", "workers", { borderWidth: 1, stepped: true }));
  const span = Math.max(...repeats.map((r) => r.timeline.start_unix - zero + seconds(r.timeline.span_ns)));
  const x = axis("seconds since the first repeat started", "linear", { min: 0, max: span });
  draw(chartBox(parent, `${point.label}: over time`,
                `per ${fmtNumber(interval * 1000)} ms interval; the measured windows shaded; ` +
                "warm-up and the last calls' drain around them"), {
    type: "line",
    data: { datasets },
    options: {
      parsing: false,
      scales: {
        x,
        y: axis("calls/s", "linear", { beginAtZero: true, position: "left" }),
        y2: axis("latency, ms", "linear", { beginAtZero: true, position: "right",
                                           grid: { drawOnChartArea: false } }),
        ...(open ? { late: axis("late, %", "linear", { min: 0, max: 100, position: "right",
                                                        grid: { drawOnChartArea: false } }) } : {}),
        ...(ramped ? { workers: axis("workers", "linear", { beginAtZero: true, position: "right",
                                                             grid: { drawOnChartArea: false } }) } : {}),
      },
      plugins: { legend: { position: "bottom" }, windowShading: { spans } },
    },
    plugins: [windowShading],
  });
  if (!anyFailure) {
    parent.append(el("p", { class: "note" }, "no call failed and the client never re-dialed"));
    return;
  }
  const failureSets = [...failures.entries()].map(([name, data]) => ({
    label: `${name}/s`, data, type: "bar", backgroundColor: colourOf("outcome " + name), stack: "failed",
    barPercentage: 1, categoryPercentage: 1,
  }));
  failureSets.push(line("re-dials and failed dials/s", sets.redials, "#9467bd", "dials",
                        { type: "scatter", showLine: false, pointRadius: 3 }));
  // The same x axis as the chart above (no offset for the bars), so that the two line up.
  draw(chartBox(parent, `${point.label}: failures over time`,
                "failed calls per second, stacked by outcome; the client's re-dials and failed dials (right)"), {
    type: "bar",
    data: { datasets: failureSets },
    options: {
      parsing: false,
      scales: {
        x: Object.assign({}, x, { stacked: true, offset: false }),
        y: axis("failed calls/s", "linear", { beginAtZero: true, stacked: true }),
        dials: axis("dials/s", "linear", { beginAtZero: true, position: "right", grid: { drawOnChartArea: false } }),
      },
      plugins: { legend: { position: "bottom" }, windowShading: { spans } },
    },
    plugins: [windowShading],
  });
}

// --- Page sections ----------------------------------------------------------------------------

function section(title, id) {
  const s = el("section", { id });
  s.append(el("h2", {}, title));
  document.getElementById("app").append(s);
  return s;
}

function table(parent, header, rows, cls) {
  const t = el("table", { class: cls || "" });
  const head = el("tr", {});
  for (const h of header) head.append(el("th", {}, h));
  t.append(el("thead", {}, head));
  const body = el("tbody", {});
  for (const r of rows) {
    const tr = el("tr", {});
    for (const c of r) tr.append(c instanceof Node && c.tagName === "TD" ? c : el("td", {}, c));
    body.append(tr);
  }
  t.append(body);
  parent.append(t);
  return t;
}

function okCalls(s) { return s.outcomes.ok || 0; }
function failedCalls(s) { return Object.values(s.outcomes).reduce((a, b) => a + b, 0) - okCalls(s); }

function failedText(s) {
  const failed = failedCalls(s);
  if (!failed) return "0";
  return `${failed} (${fmtNumber((100 * failed) / Math.max(failed + okCalls(s), 1), 2)}%)`;
}

// A latency cell: "-" where no call succeeded (there is no latency to show).
function latencyCell(s, key) { return okCalls(s) > 0 ? fmtLatency(s.latency_us[key]) : "-"; }

function summarySection(data) {
  const s = section("Summary: every point", "summary");
  s.append(el("p", { class: "note" },
              "Medians over each point's repeats, [min–max] of calls/s; latency from the intended " +
              "start (open loops: coordinated omission counted); CPU per call is user + system " +
              "time over the measured window, divided by the calls completed in it."));
  const rows = data.points.map((p) => {
    const x = p.summary;
    const rps = x.requests_per_second;
    const rate = `${fmtNumber(rps.median)} [${fmtNumber(rps.min)}–${fmtNumber(rps.max)}]`;
    const notes = [x.client_bound ? "generator-bound" : "", x.warning].filter(Boolean).join("; ");
    const link = el("a", { href: `#point-${p.id}` }, p.describe + (data.files.length > 1 ? ` [${p.file + 1}]` : ""));
    return [el("td", {}, link), p.parameters.transport, rate, latencyCell(x, "p50"), latencyCell(x, "p99"),
            latencyCell(x, "p99_9"), latencyCell(x, "max"), failedText(x),
            fmtNumber(x.client_cpu_us_per_call) + " µs",
            x.server_cpu_us_per_call === null ? "-" : fmtNumber(x.server_cpu_us_per_call) + " µs", notes];
  });
  table(s, ["point", "transport", "calls/s [spread]", "p50", "p99", "p99.9", "max", "failed",
            "client cpu/call", "server cpu/call", "notes"], rows, "summary");
}

function comparisonSection(data) {
  if (!data.comparison.length) return;
  const s = section(`Before and after: ${data.files[0].file} → ${data.files[1].file}`, "comparison");
  s.append(el("p", { class: "note" },
              "Each figure per repeat; a change is coloured only when neither run's median lies " +
              "within the other's spread [min–max] over its repeats."));
  for (const c of data.comparison) {
    s.append(el("h3", {}, c.point));
    const rows = c.figures.map((f) => {
      const spreadText = (x) => `${fmtNumber(x.median)} [${fmtNumber(x.min)}–${fmtNumber(x.max)}]`;
      const verdict = el("td", { class: `verdict ${f.verdict.split(" ")[0].replace(/\W/g, "")}` }, f.verdict);
      return [f.figure, spreadText(f.before), spreadText(f.after),
              f.ratio === null ? "-" : fmtNumber(f.ratio) + "x", verdict];
    });
    table(s, ["figure", "before", "after", "after / before", ""], rows, "comparison");
  }
}

function kneeSection(data) {
  if (!data.knees.length) return;
  const s = section("Knee searches: latency against the offered rate", "knees");
  for (const k of data.knees) {
    const steps = k.steps.slice().sort((a, b) => a.rate - b.rate);
    const quantiles = [["p50", "p50", "#1f77b4"], ["p99", "p99", "#ff7f0e"], ["p99.9", "p99_9", "#9467bd"]];
    const datasets = quantiles.map(([name, key, colour]) => ({
      label: `${name}`,
      data: steps.map((st) => {
        const x = data.points[st.point].summary;
        return { x: st.rate, y: okCalls(x) > 0 ? Math.max(x.latency_us[key], 0.001) : null };
      }),
      borderColor: colour, backgroundColor: colour, pointRadius: 3, borderWidth: 1.5,
    }));
    datasets.push({
      label: "met the target", type: "scatter", showLine: false, pointStyle: "circle", pointRadius: 6,
      borderColor: "#2ca02c", backgroundColor: "rgba(44,160,44,0.25)",
      data: steps.filter((st) => st.met).map((st) => ({ x: st.rate, y: data.points[st.point].summary.latency_us.p99 })),
    });
    datasets.push({
      label: "missed it", type: "scatter", showLine: false, pointStyle: "crossRot", pointRadius: 7,
      borderColor: "#d62728", backgroundColor: "#d62728",
      data: steps.filter((st) => !st.met).map((st) => ({ x: st.rate, y: data.points[st.point].summary.latency_us.p99 })),
    });
    const lo = steps.length ? steps[0].rate : 1, hi = steps.length ? steps[steps.length - 1].rate : 2;
    for (const l of k.limits) {
      datasets.push({ label: `target p${Number(l.percentile.toPrecision(6))} ≤ ${fmtLatency(l.at_most_us)}`,
                      data: [{ x: lo, y: l.at_most_us }, { x: hi, y: l.at_most_us }],
                      borderColor: "#555", backgroundColor: "#555", borderDash: [8, 4], pointRadius: 0,
                      borderWidth: 1 });
    }
    const verdict = k.max_rate_met > 0 ? `knee: ${fmtNumber(k.max_rate_met)} calls/s met ${k.slo}` :
                                         `no rate met ${k.slo}`;
    const why = [k.lowest_missed > 0 ? `${fmtNumber(k.lowest_missed)}/s missed: ${k.missed_because}` : "",
                 k.stopped_because].filter(Boolean).join("; ");
    const canvas = chartBox(s, `${k.protocol} ${k.load}, ${k.workers} in flight — ${verdict}`, why);
    draw(canvas, {
      type: "line",
      data: { datasets },
      options: {
        parsing: false,
        // Log only when the steps span more than a decade and a half.
        scales: { x: axis("offered calls/s", hi / lo > 30 ? "logarithmic" : "linear"),
                  y: axis("latency", "logarithmic", { ticks: { callback: (v) => tickLatency(v) } }) },
        plugins: { legend: { position: "bottom" } },
      },
    });
  }
}

// Article 003's table (run --scenario echo): a row per server, client and address, a column per
// Echo method; one caller's mean per call, then the closed loop's; the article's own figures
// beside, labelled as its machine's, and a chart of both for each method.
function echoSection(data) {
  if (!data.echo.length) return;
  const s = section("Article 003's Echo table: gRPC, Connect and gRPC-Web, ours and the references", "echo");
  const methods = ["Get", "Expand", "Collect", "Update"];
  s.append(el("p", { class: "note" },
              "Mean time per call as a caller sees it (median over repeats): one caller making one call " +
              "after another, as the article measured (its elapsed time over n calls), then a closed loop " +
              "of callers (workers × window / successful calls). n/a: the server does not speak the " +
              "client's protocol. connect-go/…: connect-go's own client, timing itself."));
  const byRow = (workers) => {
    const rows = new Map();
    for (const c of data.echo.filter((c) => c.workers === workers)) {
      const key = `${c.server}\u0000${c.client}\u0000${c.address}`;
      if (!rows.has(key)) rows.set(key, { server: c.server, client: c.client, address: c.address, cells: {} });
      rows.get(key).cells[c.method] = c;
    }
    return [...rows.values()];
  };
  const cellText = (c, rate) => {
    if (!c) return "-";
    if (c.mean_us === null) return c.skipped ? "n/a" : "-";
    let text = fmtLatency(c.mean_us);
    if (rate) text += ` (${fmtNumber(c.calls_per_second)}/s)`;
    if (c.failed) text += ` (${c.failed} failed)`;
    return text;
  };
  const one = byRow(1);
  s.append(el("h3", {}, "One caller"));
  table(s, ["server", "client", "address", ...methods],
        one.map((r) => [r.server, r.client, r.address, ...methods.map((m) => cellText(r.cells[m], false))]), "echo");
  const closed = [...new Set(data.echo.filter((c) => c.workers > 1).map((c) => c.workers))];
  for (const w of closed) {
    s.append(el("h3", {}, `A closed loop of ${w} callers`));
    table(s, ["server", "client", "address", ...methods],
          byRow(w).map((r) => [r.server, r.client, r.address, ...methods.map((m) => cellText(r.cells[m], true))]), "echo");
  }
  const article = data.echo_article;
  s.append(el("h3", {}, "The article's table"));
  s.append(el("p", { class: "note" }, article.machine));
  table(s, ["server", "client", "address", ...methods],
        article.rows.map((r) => [r.server, r.client, r.address, ...r.mean_us.map((v) => fmtLatency(v))]), "echo");
  // A bar per row, ours then the article's (hatched grey), a chart per method.
  const kindOf = (a) => (a.startsWith("unix:@") ? "abstract" : "tcp");
  for (const [i, m] of methods.entries()) {
    const ours = one.filter((r) => r.cells[m] && r.cells[m].mean_us !== null);
    const labels = [...ours.map((r) => `${r.server} · ${r.client} · ${kindOf(r.address)}`),
                    ...article.rows.map((r) => `article: ${r.server} · ${r.client} · ${r.kind}`)];
    const values = [...ours.map((r) => r.cells[m].mean_us), ...article.rows.map((r) => r.mean_us[i])];
    const colours = [...ours.map((r) => colourOf(r.server)), ...article.rows.map(() => "#bbbbbb")];
    const canvas = chartBox(s, `${m}: one caller, mean time per call`,
                            "ours on this machine in colour (a colour per server); the article's, on its machine, in grey");
    canvas.parentNode.style.height = `${Math.max(220, 16 * labels.length + 60)}px`;
    draw(canvas, {
      type: "bar",
      data: { labels, datasets: [{ label: "mean per call", data: values, backgroundColor: colours }] },
      options: {
        indexAxis: "y",
        scales: { x: axis("mean time per call", "linear", { ticks: { callback: (v) => tickLatency(v) } }) },
        plugins: { legend: { display: false } },
      },
    });
  }
}

// Closed-loop sweeps over workers: calls/s and p99 against workers, a line per protocol.
function sweepSection(data) {
  const byKey = new Map();
  for (const p of data.points) {
    if (p.parameters.load !== "closed") continue;
    const key = [p.file, p.parameters.transport, p.parameters.payload_bytes, requestOf(p)].join("|");
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(p);
  }
  const sweeps = [...byKey.values()].filter((ps) => new Set(ps.map((p) => p.parameters.workers)).size > 1);
  if (!sweeps.length) return;
  const s = section("Sweeps over workers (closed loop)", "sweeps");
  for (const ps of sweeps) {
    const labels = [...new Set(ps.map((p) => p.label))];
    const series = (get) => labels.map((label) => Object.assign({
      label, pointRadius: 4, borderWidth: 1.5,
      data: ps.filter((p) => p.label === label).sort((a, b) => a.parameters.workers - b.parameters.workers)
              .map((p) => ({ x: p.parameters.workers, y: get(p.summary) })),
    }, protocolLook(label)));
    // calls/s on a log axis when they span more than a decade: else the slow protocols lie on 0.
    const rates = ps.map((p) => p.summary.requests_per_second.median).filter((v) => v > 0);
    const logRate = rates.length > 1 && Math.max(...rates) / Math.min(...rates) > 10;
    const row = el("div", { class: "pair" });
    s.append(row);
    const common = { parsing: false, plugins: { legend: { position: "bottom" } } };
    draw(chartBox(row, "calls/s against workers (median of repeats)"), {
      type: "line", data: { datasets: series((x) => x.requests_per_second.median) },
      options: Object.assign({ scales: { x: axis("workers", "logarithmic"),
                                         y: logRate ? axis("calls/s (log)", "logarithmic")
                                                    : axis("calls/s", "linear", { beginAtZero: true }) } }, common),
    });
    draw(chartBox(row, "p99 latency against workers"), {
      type: "line", data: { datasets: series((x) => (okCalls(x) > 0 ? x.latency_us.p99 : null)) },
      options: Object.assign({ scales: { x: axis("workers", "logarithmic"),
                                         y: axis("p99", "logarithmic", { ticks: { callback: (v) => tickLatency(v) } }) } }, common),
    });
  }
}

function outcomesOf(parent, p) {
  const x = p.summary;
  const counted = Object.entries(x.outcomes).filter(([, n]) => n > 0);
  const facts = [`${x.repeats} repeat(s)`, `${okCalls(x)} ok`, `${failedCalls(x)} failed`];
  if (x.planned) facts.push(`${x.planned} planned`, `${x.late} sent late`);
  if (x.reconnects || x.connect_failures) facts.push(`${x.reconnects} re-dials`, `${x.connect_failures} failed dials`);
  parent.append(el("p", {}, facts.join(", ")));
  if (counted.length > 1 || failedCalls(x)) {
    table(parent, ["outcome", "calls"], counted.map(([k, n]) => [k, n]), "small");
    const errorsList = Object.entries(x.errors);
    if (errorsList.length) table(parent, ["error", "calls"], errorsList, "small");
    if (x.error_samples.length) {
      const list = el("ul", { class: "samples" });
      for (const e of x.error_samples) list.append(el("li", {}, el("code", {}, e.error), " ", e.text));
      parent.append(el("p", {}, "what came back with the first failures:"), list);
    }
  }
}

// What each call sent, as the results file words it (null: the greet call).
function requestOf(p) {
  const list = p.parameters.requests || [];
  if (list.length > 1) return `a mix of ${list.length}: ` + list.map((r) => r.name || r.text).join(" | ");
  return list.length ? list[0].text : null;
}

// A mix's requests, each with its weight, its share of the calls made and its own results.
function requestsOf(parent, p) {
  const list = p.parameters.requests || [];
  const results = p.summary.requests || [];
  if (list.length < 2 || results.length !== list.length) return;
  const weights = list.reduce((sum, r) => sum + r.weight, 0);
  const rows = list.map((r, i) => {
    const x = results[i];
    return [String(i), r.name || r.text, `${r.weight} (${fmtNumber((100 * r.weight) / weights)}%)`,
            `${fmtNumber(100 * x.share)}%`, fmtNumber(x.requests_per_second), latencyCell(x, "p50"),
            latencyCell(x, "p99"), String(failedCalls(x)), p.parameters.load === "closed" ? "-" : String(x.late)];
  });
  parent.append(el("p", {}, "requests of the mix:"));
  table(parent, ["#", "request", "weight", "calls", "calls/s", "p50", "p99", "failed", "late"], rows, "small");
}

function placementOf(p) {
  const q = p.parameters;
  // A remote server's threads and CPUs are not the run's to say.
  return [`${q.connections} connection(s), depth ${q.depth}`, q.server_local ? `server: ${q.server_threads} thread(s) on CPUs ${q.server_cpus}` +
          (q.server_engine ? `, ${q.server_engine} engine` : "") : "", `client: ${q.client_threads} thread(s) on CPUs ${q.client_cpus}`,
          q.server_local ? "server started by the run" : `remote server ${q.endpoint}`,
          q.generators > 1 ? `${q.generators} generators merged` : "",
          requestOf(p) ? `request: ${requestOf(p)}` : "greet call"].filter(Boolean).join("; ");
}

function groupSections(data) {
  const groups = new Map();
  for (const p of data.points) {
    if (!groups.has(p.group)) groups.set(p.group, []);
    groups.get(p.group).push(p);
  }
  for (const [i, [name, ps]] of [...groups].entries()) {
    const s = section(name, `group-${i}`);
    const series = [];
    for (const p of ps) {
      if (p.spectrum.length) series.push({ label: p.label, protocol: p.label, spectrum: p.spectrum });
      if (p.actual_spectrum && p.actual_spectrum.length)
        series.push({ label: p.label + " (from the send)", protocol: p.label, spectrum: p.actual_spectrum, dashed: true });
    }
    spectrumChart(s, "latency percentile spectrum", series,
                  "every repeat's calls together; an open loop's dashed line times calls from their " +
                  "actual send instead of their intended start");
    for (const p of ps) {
      // Folded: a point's timeline and outcomes are there when asked for (the summary links here).
      const box = el("details", { class: "point", id: `point-${p.id}` });
      box.append(el("summary", {}, p.describe + (data.files.length > 1 ? ` [${data.files[p.file].file}]` : "") +
                    ` — ${fmtNumber(p.summary.requests_per_second.median)} calls/s, p99 ${latencyCell(p.summary, "p99")}`));
      box.append(el("p", { class: "note" }, placementOf(p)));
      timelineCharts(box, p);
      outcomesOf(box, p);
      requestsOf(box, p);
      s.append(box);
    }
  }
}

// Google Benchmark cases (scripts/bench's micro, depth, http, grpc, floor files): a case named
// "family/variant.../param:N" is a point of a sweep over N; each family's variants are lines on
// one chart per figure (calls/s, p99, or the case's own rate or time). Cases without a swept
// number are listed in a table.
const benchFigures = [
  ["rps", "calls/s", false], ["p99_us", "p99 latency, µs", true], ["frames_per_s", "frames/s", false],
  ["items_per_second", "items/s", false], ["bytes_per_second", "bytes/s", false],
];

function benchmarkSection(data) {
  if (!data.benchmarks.length) return;
  const s = section("Google Benchmark cases", "benchmarks");
  s.append(el("p", { class: "note" }, "the median of each case's repetitions; a case named " +
              "family/variant/param:N is a point of a sweep over N"));
  for (const b of data.benchmarks) {
    const c = b.context;
    s.append(el("h3", {}, b.file));
    s.append(el("p", { class: "note" }, [c.host_name, c.num_cpus && `${c.num_cpus} CPUs`, c.date,
                                         c.server_threads && `server threads ${c.server_threads}`,
                                         c.client_threads && `client threads ${c.client_threads}`]
                                          .filter(Boolean).join("; ")));
    const sweeps = new Map();
    const others = [];
    for (const r of b.rows) {
      const parts = r.case.split("/");
      const last = parts[parts.length - 1].match(/^([A-Za-z_]+):(\d+(?:\.\d+)?)$/);
      if (!last || parts.length < 2) {
        others.push(r);
        continue;
      }
      const key = `${parts[0]} over ${last[1]}`;
      if (!sweeps.has(key)) sweeps.set(key, { param: last[1], rows: [] });
      sweeps.get(key).rows.push({ variant: parts.slice(1, -1).join("/") || parts[0], x: Number(last[2]), r });
    }
    // A "sweep" of one value is a single point: listed with the others, not drawn as a line.
    for (const [title, sweep] of [...sweeps]) {
      if (new Set(sweep.rows.map((p) => p.x)).size > 1) continue;
      for (const p of sweep.rows) others.push(p.r);
      sweeps.delete(title);
    }
    for (const [title, sweep] of sweeps) {
      const figures = benchFigures.filter(([key]) => sweep.rows.some((p) => typeof p.r[key] === "number"));
      if (!figures.length) figures.push(["real_time", `time per iteration, ${sweep.rows[0].r.time_unit || "ns"}`, true]);
      const row = el("div", { class: "pair" });
      s.append(row);
      for (const [key, label, logY] of figures.slice(0, 2)) {
        const variants = [...new Set(sweep.rows.map((p) => p.variant))];
        const datasets = variants.map((v) => ({
          label: v, borderColor: colourOf("bench " + v), backgroundColor: colourOf("bench " + v),
          pointRadius: 3, borderWidth: 1.5,
          data: sweep.rows.filter((p) => p.variant === v && typeof p.r[key] === "number")
                          .sort((a, b2) => a.x - b2.x).map((p) => ({ x: p.x, y: p.r[key] })),
        }));
        const xs = sweep.rows.map((p) => p.x);
        const logX = Math.min(...xs) > 0 && Math.max(...xs) / Math.min(...xs) > 30;
        draw(chartBox(row, `${title}: ${label}`), {
          type: "line", data: { datasets },
          options: { parsing: false, plugins: { legend: { position: "bottom" } },
                     scales: { x: axis(sweep.param, logX ? "logarithmic" : "linear"),
                               y: axis(label, logY ? "logarithmic" : "linear", logY ? {} : { beginAtZero: true }) } },
        });
      }
    }
    if (others.length) {
      const counters = [...new Set(others.flatMap((r) => benchFigures.map(([k]) => k).filter((k) => typeof r[k] === "number")))];
      table(s, ["case", "time", ...counters], others.map((r) => [
        r.case, r.error_message ? `error: ${r.error_message}` : `${fmtNumber(r.real_time)} ${r.time_unit || ""}`,
        ...counters.map((k) => fmtNumber(r[k]))]), "small");
    }
  }
}

// The answer first: per load shape (a group of points that differ only by protocol), the
// protocols ranked, each figure with its spread and the best of each column marked, and a line
// that reads the table. A closed loop ranks by calls/s (what the protocol made of the same
// callers); an open loop offers every protocol the same rate, so it ranks by p99 at that rate.
function rankingSection(data) {
  const groups = new Map();
  for (const p of data.points) {
    if (!groups.has(p.group)) groups.set(p.group, []);
    groups.get(p.group).push(p);
  }
  const ranked = [...groups.entries()].filter(([, ps]) => new Set(ps.map((p) => p.label)).size > 1);
  if (!ranked.length) return;
  // Closed loops first, the most callers first (where protocols differ most), then open loops.
  const workersOf = (ps) => Math.max(...ps.map((p) => p.parameters.workers));
  const closedOf = (ps) => ps[0].parameters.load === "closed";
  ranked.sort(([, a], [, b]) => (closedOf(b) - closedOf(a)) || (workersOf(b) - workersOf(a)));
  const s = section("Which protocol wins: a ranking per load", "ranking");
  s.append(el("p", { class: "note" },
              "Medians over repeats, [min–max] of calls/s across them; ★ marks the best of each column. " +
              "A closed loop is ranked by calls/s, an open loop (the same rate offered to all) by p99."));
  const p99Of = (p) => (okCalls(p.summary) > 0 ? p.summary.latency_us.p99 : Infinity);
  const rpsOf = (p) => p.summary.requests_per_second.median;
  for (const [name, ps] of ranked) {
    const closed = closedOf(ps);
    const order = [...ps].sort(closed ? (a, b) => rpsOf(b) - rpsOf(a) : (a, b) => p99Of(a) - p99Of(b));
    const best = (get, most) => {
      const values = order.map(get).filter((v) => v !== null && Number.isFinite(v));
      return values.length ? (most ? Math.max(...values) : Math.min(...values)) : null;
    };
    const cpu = (p, side) => p.summary[`${side}_cpu_us_per_call`];
    const bests = { rps: best(rpsOf, true), p99: best(p99Of, false), client: best((p) => cpu(p, "client"), false),
                    server: best((p) => cpu(p, "server"), false) };
    const marked = (text, value, bestValue) => {
      const winner = value !== null && bestValue !== null && value === bestValue;
      return el("td", { class: winner ? "best" : "" }, winner ? `★ ${text}` : text);
    };
    const rows = order.map((p, i) => {
      const x = p.summary, rps = x.requests_per_second;
      const versus = closed ? (i === 0 ? "best" : rpsOf(p) > 0 ? `${(rpsOf(order[0]) / rpsOf(p)).toFixed(2)}x fewer` : "none")
                            : (i === 0 ? "best" : Number.isFinite(p99Of(p)) ? `${(p99Of(p) / p99Of(order[0])).toFixed(2)}x slower` : "-");
      return [String(i + 1), el("td", {}, el("span", { class: "swatch", style: `background:${protocolStyle(p.label).colour}` }), " ", p.label),
              marked(`${fmtNumber(rps.median)} [${fmtNumber(rps.min)}–${fmtNumber(rps.max)}]`, rpsOf(p), closed ? bests.rps : null),
              versus, latencyCell(x, "p50"), marked(latencyCell(x, "p99"), p99Of(p), bests.p99), failedText(x),
              marked(fmtNumber(cpu(p, "client")) + " µs", cpu(p, "client"), bests.client),
              cpu(p, "server") === null ? "-" : marked(fmtNumber(cpu(p, "server")) + " µs", cpu(p, "server"), bests.server)];
    });
    s.append(el("h3", {}, name));
    s.append(el("p", { class: "reading" }, readingOf(order, closed, bests, cpu)));
    table(s, ["#", "protocol", "calls/s [spread]", closed ? "vs the first" : "p99 vs the first", "p50", "p99", "failed",
              "client cpu/call", "server cpu/call"], rows, "ranking");
  }
}

// One line that reads a ranking: who leads and by how much, and who is cheapest where that differs.
function readingOf(order, closed, bests, cpu) {
  const [first, second] = order;
  const parts = [];
  if (closed) {
    const r1 = first.summary.requests_per_second.median, r2 = second.summary.requests_per_second.median;
    // Within 2%: a tie on a machine this noisy, said as one.
    if (r2 > 0 && r1 / r2 < 1.02)
      parts.push(`${first.label} and ${second.label} are within 2% (${fmtNumber(r1)} and ${fmtNumber(r2)} calls/s)`);
    else
      parts.push(`${first.label} leads with ${fmtNumber(r1)} calls/s, ` +
                 (r2 > 0 ? `${(r1 / r2).toFixed(2)}x ${second.label}'s (${fmtNumber(r2)})` : `while ${second.label} completed none`));
  } else {
    const rate = fmtNumber(first.parameters.rate);
    parts.push(okCalls(first.summary) > 0
      ? `at ${rate} calls/s offered, ${first.label} answers with the lowest p99, ${latencyCell(first.summary, "p99")}` +
        (okCalls(second.summary) > 0 ? ` (${second.label}: ${latencyCell(second.summary, "p99")})` : "")
      : "no protocol completed a call");
  }
  const cheapest = (side) => order.find((p) => cpu(p, side) !== null && cpu(p, side) === bests[side]);
  for (const [side, words] of [["server", "least server CPU per call"], ["client", "least client CPU per call"]]) {
    const c = cheapest(side);
    if (c && c !== first) parts.push(`${words}: ${c.label} (${fmtNumber(cpu(c, side))} µs)`);
  }
  const failing = order.filter((p) => failedCalls(p.summary) > 0).map((p) => p.label);
  if (failing.length) parts.push(`calls failed on ${failing.join(", ")}`);
  return parts.join("; ") + ".";
}

// A table of contents of the sections the page has, under the header.
function contents() {
  const sections = [...document.querySelectorAll("#app > section[id]")];
  if (sections.length < 2) return;
  const nav = el("nav", { class: "contents" }, el("strong", {}, "Contents"));
  const list = el("ol", {});
  for (const s of sections) list.append(el("li", {}, el("a", { href: `#${s.id}` }, s.querySelector("h2").textContent)));
  nav.append(list);
  document.getElementById("app").insertBefore(nav, sections[0]);
}

// The page's own check, read by its test: each protocol has one colour and marker on every chart.
function styleConflicts() {
  const seen = new Map();
  let conflicts = 0;
  for (const chart of Object.values(Chart.instances)) {
    for (const d of chart.data.datasets) {
      if (!d.protocol) continue;
      const look = `${d.borderColor} ${d.pointStyle}`;
      if (seen.has(d.protocol) && seen.get(d.protocol) !== look) conflicts++;
      seen.set(d.protocol, look);
    }
  }
  const looks = [...seen.values()];
  return conflicts + (looks.length - new Set(looks).size);  // and no two protocols alike
}

// A link to a folded point opens it.
function openLinkedPoint() {
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target && target.tagName === "DETAILS") target.open = true;
}

function header(data) {
  const app = document.getElementById("app");
  app.append(el("h1", {}, "wirebench report"));
  for (const [i, f] of data.files.entries()) {
    const d = el("details", { class: "file" });
    const m = f.machine;
    d.append(el("summary", {}, `${data.files.length > 1 ? `[${i + 1}] ` : ""}${f.file}: ${f.command}`));
    const libs = Object.entries(f.libraries).map(([k, v]) => `${k} ${v}`).join(", ");
    table(d, ["", ""], [["started", f.started_at], ["machine", `${m.hostname}: ${m.cpu_model}, ` +
      `${m.available_cpus} of ${m.online_cpus} CPUs usable; ${m.os}; ${m.kernel}`],
      ["build", `${m.compiler}${m.optimized_build ? ", optimized" : ", NOT optimized (a debug build)"}`],
      ["libraries", libs], ["merged from", f.merged_from ? `${f.merged_from} generators` : "-"]], "facts");
    if (f.incomplete) d.append(el("p", { class: "warning" }, `incomplete: ${f.incomplete}`));
    app.append(d);
  }
}

function main() {
  const data = JSON.parse(document.getElementById("data").textContent);
  Chart.defaults.font.size = 11;
  for (const p of data.points) protocolStyle(p.label);  // the page's protocols, in order
  header(data);
  echoSection(data);
  // An echo table's points are its cells (their figures are in the results file): no summary,
  // sweep or timeline of its own.
  const echo = data.echo.length > 0;
  if (!echo) rankingSection(data);
  if (data.points.length && !echo) summarySection(data);
  comparisonSection(data);
  kneeSection(data);
  if (!echo) sweepSection(data);
  if (!echo) groupSections(data);
  benchmarkSection(data);
  contents();
  window.addEventListener("hashchange", openLinkedPoint);
  openLinkedPoint();
}

try {
  const started = performance.now();
  main();
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
} catch (e) {
  noteError("report failed: " + (e && e.stack ? e.stack : e));
}
document.body.dataset.charts = String(chartsDrawn);
document.body.dataset.emptyCharts = String(chartsEmpty);
document.body.dataset.errors = String(errors.length);
try {
  document.body.dataset.styleConflicts = String(styleConflicts());
} catch (e) {
  noteError("style check failed: " + e);
}
document.body.dataset.ready = "yes";
