#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""npusim report: one self-contained HTML page with plots for a run or a sweep directory.

    npusim_report.py DIR -o OUT.html

DIR is either
  - a run directory (the --out of `npusim run` / `npusim replay`): timeline.json (Chrome trace
    events), stats.json, op_summary.csv, config.yaml, replay_summary.json; any subset with at least
    one of timeline.json, stats.json, op_summary.csv;
  - a sweep directory (the output of `npusim sweep`): sweep.csv (columns: run, the swept
    parameters, status, exit_code, the metrics), sweep_meta.json ({"params": [...],
    "metrics": [...]}) and runs/<index>/.

The page has no external resource: plots are PNG images (matplotlib, Agg) embedded as base64 data
URIs, the style sheet and the one script are inline. The output is deterministic: the same
directory gives a byte-identical page (no timestamps, no Software metadata in the PNGs, every
iteration over names is sorted or in file order).

Exit status: 0 written; 2 bad directory / unreadable inputs / matplotlib missing (a message on
stderr says which).
"""
import argparse
import base64
import csv
import html
import io
import json
import math
import os
import re
import sys

PROG = "npusim report"


class ReportError(Exception):
    pass


def fail(msg):
    sys.stderr.write(f"{PROG}: {msg}\n")
    sys.exit(2)


def load_matplotlib():
    # matplotlib keeps a font cache in ~/.cache/matplotlib; where that cannot be written (a
    # read-only home in CI), a temporary one, removed at exit, instead of matplotlib's warning.
    if "MPLCONFIGDIR" not in os.environ and "XDG_CACHE_HOME" not in os.environ:
        path = os.path.join(os.path.expanduser("~"), ".cache", "matplotlib")
        while not os.path.exists(path) and os.path.dirname(path) != path:
            path = os.path.dirname(path)
        if not os.access(path, os.W_OK):
            import atexit
            import shutil
            import tempfile
            tmp = tempfile.mkdtemp(prefix="npusim-mpl-")
            atexit.register(shutil.rmtree, tmp, True)
            os.environ["MPLCONFIGDIR"] = tmp
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.patches  # noqa: F401  (used as matplotlib.patches.Patch)
        import matplotlib.ticker  # noqa: F401
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError as e:
        fail(f"needs matplotlib and numpy for {sys.executable} ({e}); on Debian: "
             "apt-get install python3-matplotlib (or set NPUSIM_PYTHON to a Python that has them)")
    matplotlib.rcParams.update({
        "figure.dpi": 100, "savefig.dpi": 100, "font.size": 9, "axes.titlesize": 10,
        "axes.grid": True, "grid.alpha": 0.3, "legend.fontsize": 8,
        "svg.hashsalt": "npusim", "path.simplify": True,
    })
    return matplotlib, plt, np


MPL = PLT = NP = None


# ---------------------------------------------------------------------------------------------
# Page assembly


class Page:
    def __init__(self, title, png_dir=None, title_given=False):
        self.title = title
        self.title_given = title_given
        self.parts = []
        self.plots = []  # ids, in order
        self.png_dir = png_dir  # also write each plot as <png_dir>/<id>.png

    def h2(self, text, anchor):
        self.parts.append(f'<h2 id="{anchor}">{html.escape(text)}</h2>')

    def p(self, text, cls=None):
        c = f' class="{cls}"' if cls else ""
        self.parts.append(f"<p{c}>{text}</p>")

    def raw(self, text):
        self.parts.append(text)

    def figure(self, fig, plot_id, kind, caption):
        buf = io.BytesIO()
        # metadata: no Software/date chunk, so the bytes depend only on the drawing.
        fig.savefig(buf, format="png", metadata={"Software": None})
        PLT.close(fig)
        if self.png_dir:
            with open(os.path.join(self.png_dir, plot_id + ".png"), "wb") as f:
                f.write(buf.getvalue())
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        self.plots.append(plot_id)
        self.parts.append(
            f'<figure><img class="plot" id="{html.escape(plot_id)}" data-plot="{html.escape(kind)}" '
            f'alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")

    def table(self, header, rows, cls="data", raw_cells=False):
        out = [f'<table class="{cls}"><thead><tr>']
        out += [f"<th>{html.escape(str(h))}</th>" for h in header]
        out.append("</tr></thead><tbody>")
        for r in rows:
            cells = []
            for c in r:
                text = c if raw_cells and isinstance(c, str) and c.startswith("<") else html.escape(str(c))
                cells.append(f"<td>{text}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</tbody></table>")
        self.parts.append("".join(out))

    def render(self):
        plots = " ".join(self.plots)
        return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(self.title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; max-width: 1200px; color: #222; }}
h1 {{ font-size: 1.4em; }} h2 {{ font-size: 1.15em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }}
table.data {{ border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }}
table.data th, table.data td {{ border: 1px solid #ccc; padding: 2px 6px; text-align: left; }}
table.data td {{ font-variant-numeric: tabular-nums; }}
figure {{ margin: 0.8em 0; }} figure img {{ max-width: 100%; border: 1px solid #eee; }}
figcaption {{ font-size: 0.85em; color: #555; }}
pre {{ background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }}
.note {{ color: #666; font-size: 0.9em; }}
.failed {{ color: #b00; }} .skipped {{ color: #888; }}
</style></head>
<body data-plots="{html.escape(plots)}">
<h1>{html.escape(self.title)}</h1>
{chr(10).join(self.parts)}
<script>
// Once the page has loaded, records on each plot whether it decoded and how much of it is drawn
// (for people, and for tests that read the DOM of a headless browser): data-natural-width and
// -height, data-decoded (1/0), data-ink (the fraction of its pixels that are not white, -1 when
// the browser will not say); and on the body, data-plots-decoded as decoded/total.
window.addEventListener("load", function () {{
  var imgs = document.querySelectorAll("img.plot"), ok = 0;
  for (var i = 0; i < imgs.length; i++) {{
    var im = imgs[i], good = im.complete && im.naturalWidth > 0 && im.naturalHeight > 0;
    im.setAttribute("data-natural-width", String(im.naturalWidth));
    im.setAttribute("data-natural-height", String(im.naturalHeight));
    im.setAttribute("data-decoded", good ? "1" : "0");
    var ink = -1;
    if (good) {{
      try {{
        var c = document.createElement("canvas");
        c.width = im.naturalWidth; c.height = im.naturalHeight;
        var g = c.getContext("2d");
        g.drawImage(im, 0, 0);
        var px = g.getImageData(0, 0, c.width, c.height).data, n = 0;
        for (var k = 0; k < px.length; k += 4) {{
          if (px[k] < 250 || px[k + 1] < 250 || px[k + 2] < 250) n++;
        }}
        ink = n / (c.width * c.height);
      }} catch (e) {{ ink = -1; }}
    }}
    im.setAttribute("data-ink", ink.toFixed(4));
    if (good) ok++;
  }}
  document.body.setAttribute("data-plots-decoded", ok + "/" + imgs.length);
}});
</script>
</body></html>
"""


# ---------------------------------------------------------------------------------------------
# Helpers


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e15:
            return f"{int(v):,}"
        if abs(v) >= 1e6 or abs(v) < 1e-3:
            return f"{v:.4g}"
        return f"{v:,.4f}".rstrip("0").rstrip(".")
    return str(v)


def fmt_bytes(b):
    b = float(b)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(b) < 1024 or unit == "TiB":
            return f"{b:.0f} {unit}" if unit == "B" else f"{b:.2f} {unit}"
        b /= 1024


def read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: cannot read {what}: {e}")


def read_csv(path):
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:  # msprof's CSVs may start with a BOM
            return list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ReportError(f"{path}: cannot read: {e}")


def to_float(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def stat(stats, path):
    """The value of a stats.json leaf ({value, unit, desc}) by dotted path, or None."""
    node = stats
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    if isinstance(node, dict):
        node = node.get("value")
    return node if isinstance(node, (int, float)) and not isinstance(node, bool) else None


def natural_key(text):
    """'NPU 10' after 'NPU 9'."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text)]


def short_label(text, n=40):
    return text if len(text) <= n else text[: n - 1] + "…"


def palette(n):
    cmap = MPL.colormaps["tab20"] if n > 10 else MPL.colormaps["tab10"]
    return [cmap(i % cmap.N) for i in range(n)]


# ---------------------------------------------------------------------------------------------
# Timeline model


class Track:
    __slots__ = ("pid", "tid", "name", "sort", "starts", "durs", "names", "bytes")

    def __init__(self, pid, tid, name, sort):
        self.pid, self.tid, self.name, self.sort = pid, tid, name, sort
        self.starts, self.durs, self.names, self.bytes = [], [], [], []


class Timeline:
    def __init__(self, events):
        self.procs = {}       # pid -> name
        self.labels = {}      # pid -> label (NPU k)
        self.tracks = {}      # (pid, tid) -> Track
        thread_names, thread_sort = {}, {}
        for e in events:
            if not isinstance(e, dict):
                continue
            ph = e.get("ph")
            if ph != "M":
                continue
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            key = (e.get("pid"), e.get("tid"))
            if e.get("name") == "process_name":
                self.procs[e.get("pid")] = str(args.get("name", ""))
            elif e.get("name") == "process_labels":
                self.labels[e.get("pid")] = str(args.get("labels", ""))
            elif e.get("name") == "thread_name":
                thread_names[key] = str(args.get("name", ""))
            elif e.get("name") == "thread_sort_index":
                thread_sort[key] = args.get("sort_index", 0)
        for key, name in thread_names.items():
            self.tracks[key] = Track(key[0], key[1], name, thread_sort.get(key, key[1]))
        self.slices = 0
        self.t_end = 0.0
        for e in events:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            ts, dur = to_float(e.get("ts")), to_float(e.get("dur", 0))
            if ts is None or dur is None:
                continue
            key = (e.get("pid"), e.get("tid"))
            t = self.tracks.get(key)
            if t is None:
                t = self.tracks[key] = Track(key[0], key[1], f"tid {key[1]}", key[1])
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            t.starts.append(ts)
            t.durs.append(max(dur, 0.0))
            t.names.append(str(e.get("name", "")))
            t.bytes.append(to_float(args.get("size(B)")) or 0.0)
            self.slices += 1
            self.t_end = max(self.t_end, ts + dur)

    def tracks_of(self, pred):
        out = [t for t in self.tracks.values() if pred(self.procs.get(t.pid, ""), t)]
        return sorted(out, key=lambda t: (t.pid, t.sort, t.tid))


ENGINE_SUFFIX = re.compile(r"^(.*?)(?: ch| core)? \d+$")
PIPE_TRACK = re.compile(r"^(AIC|AIV|AI Core) \d+ ([A-Z][A-Z0-9]*)$")  # aicore.trace_pipes: 'AIV 3 MTE2'


def pipe_of(track_name):
    """'AIV 3 MTE2' -> 'AIV MTE2' for a per-pipe track, else None."""
    m = PIPE_TRACK.match(track_name)
    return f"{m.group(1)} {m.group(2)}" if m else None


def engine_of(track_name):
    """'AIC 3' -> 'AIC', 'PCIe H2D ch 0' -> 'PCIe H2D', 'AI CPU core 2' -> 'AI CPU'."""
    m = ENGINE_SUFFIX.match(track_name)
    return m.group(1) if m else track_name


def busy_per_bin(starts, durs, edges):
    """Busy time of a set of (possibly overlapping) slices in each bin [edges[i], edges[i+1])."""
    s = NP.sort(NP.asarray(starts, dtype=float))
    e = NP.sort(NP.asarray(starts, dtype=float) + NP.asarray(durs, dtype=float))
    cs = NP.concatenate([[0.0], NP.cumsum(s)])
    ce = NP.concatenate([[0.0], NP.cumsum(e)])
    ns = NP.searchsorted(s, edges, side="left")
    ne = NP.searchsorted(e, edges, side="left")
    # F(t) = sum over slices of min(max(t - s, 0), d) = sum_{s<t}(t - s) - sum_{e<t}(t - e)
    f = ns * edges - cs[ns] - (ne * edges - ce[ne])
    return NP.diff(f)


def bytes_per_bin(starts, durs, nbytes, edges):
    """Bytes of transfers spread evenly over each slice, per bin."""
    s = NP.asarray(starts, dtype=float)
    d = NP.asarray(durs, dtype=float)
    b = NP.asarray(nbytes, dtype=float)
    out = NP.zeros(len(edges) - 1)
    inst = d <= 0
    if inst.any():  # zero-length transfers: all their bytes in the bin they start in
        idx = NP.clip(NP.searchsorted(edges, s[inst], side="right") - 1, 0, len(out) - 1)
        NP.add.at(out, idx, b[inst])
    if (~inst).any():
        s, d, b = s[~inst], d[~inst], b[~inst]
        rate = b / d
        # Bytes up to t: sum rate * min(max(t - s, 0), d), as in busy_per_bin but weighted.
        order_s = NP.argsort(s, kind="stable")
        order_e = NP.argsort(s + d, kind="stable")
        ss, rs = s[order_s], rate[order_s]
        ee, re_ = (s + d)[order_e], rate[order_e]
        crs = NP.concatenate([[0.0], NP.cumsum(rs)])
        crss = NP.concatenate([[0.0], NP.cumsum(rs * ss)])
        cre = NP.concatenate([[0.0], NP.cumsum(re_)])
        cree = NP.concatenate([[0.0], NP.cumsum(re_ * ee)])
        ns = NP.searchsorted(ss, edges, side="left")
        ne = NP.searchsorted(ee, edges, side="left")
        f = crs[ns] * edges - crss[ns] - (cre[ne] * edges - cree[ne])
        out += NP.diff(f)
    return out


def time_axis(t0, t1, nbins=200):
    if t1 <= t0:
        t1 = t0 + 1.0
    return NP.linspace(t0, t1, nbins + 1)


def time_unit(span_us):
    if span_us >= 2e6:
        return 1e6, "s"
    if span_us >= 2e3:
        return 1e3, "ms"
    return 1.0, "µs"


# ---------------------------------------------------------------------------------------------
# Run report


HEADLINE = [
    ("replay:trace", "trace"),
    ("replay:ops_run", "ops run"),
    ("replay:simulated_us", "simulated end-to-end (µs)"),
    ("stats:sim_time", "simulated time"),
    ("stats:functional", "functional (1) / timing-only (0)"),
    ("stats:system.root_complex.h2d.bytes", "host → devices bytes"),
    ("stats:system.root_complex.d2h.bytes", "devices → host bytes"),
]

CHIP_HEADLINE = [
    ("scheduler.completed", "tasks completed"),
    ("aicore.kernels", "kernels"),
    ("aicore.blocks", "kernel blocks"),
    ("hbm.bytes", "HBM bytes"),
    ("hbm.utilization", "HBM utilisation"),
    ("l2.read_hit_rate", "L2 read hit rate"),
    ("pcie.h2d.bytes", "PCIe H2D bytes"),
    ("pcie.d2h.bytes", "PCIe D2H bytes"),
    ("pcie.h2d.link.utilization", "PCIe H2D link utilisation"),
    ("pcie.d2h.link.utilization", "PCIe D2H link utilisation"),
    ("sdma.bytes", "SDMA bytes"),
    ("hccs.bytes", "HCCS engine bytes"),
    ("aicpu.tasks", "AI CPU tasks"),
    ("dsa.tasks", "DSA tasks"),
]


def headline_section(page, d, stats, replay):
    page.h2("Headline", "headline")
    rows = []
    for key, label in HEADLINE:
        src, path = key.split(":", 1)
        if src == "replay":
            v = replay.get(path) if isinstance(replay, dict) else None
        else:
            v = stat(stats, path) if stats else None
        if v is None:
            continue
        if path.endswith("bytes"):
            v = f"{fmt(v)} ({fmt_bytes(v)})"
        elif path == "sim_time":  # µs ("time_unit": "us"); files before it held ps
            v = f"{v / 1e6 if stats['sim_time'].get('unit') == 'ps' else v:,.3f} µs"
        rows.append((label, fmt(v)))
    if stats:
        chips = [k for k in stats if re.fullmatch(r"chip\d+", k)]
        chips.sort(key=lambda k: int(k[4:]))
        for chip in chips:
            if not stat(stats, f"{chip}.scheduler.completed") and not stat(stats, f"{chip}.hbm.bytes"):
                continue  # an idle device
            for path, label in CHIP_HEADLINE:
                v = stat(stats, f"{chip}.{path}")
                if v is None:
                    continue
                if path.endswith("bytes"):
                    text = f"{fmt(v)} ({fmt_bytes(v)})"
                elif "utilization" in path or "rate" in path:
                    text = f"{100 * v:.2f} %"
                else:
                    text = fmt(v)
                rows.append((f"{chip}: {label}", text))
            cores = (stats[chip].get("aicore") or {}).get("cores") if isinstance(stats[chip], dict) else None
            if isinstance(cores, dict) and cores:
                util = [stat(c, "utilization") for c in cores.values() if isinstance(c, dict)]
                util = [u for u in util if u is not None]
                if util:
                    rows.append((f"{chip}: AI Core mean utilisation ({len(util)} cores)",
                                 f"{100 * sum(util) / len(util):.2f} %"))
    if rows:
        page.table(("metric", "value"), rows)
    else:
        page.p("No stats.json or replay_summary.json in this directory.", "note")


KERNEL_ENGINES = ("AIC", "AIV", "AI Core")


def engine_figure(title, engines, names, colours, edges, legend="engine (units)"):
    """Busy fraction per engine (busy time of its units / (units x bin width)) over the bins."""
    width = NP.diff(edges)
    scale, unit = time_unit(edges[-1] - edges[0])
    centers = (edges[:-1] + edges[1:]) / 2 / scale
    fig, ax = PLT.subplots(figsize=(11, 3.6))
    for n in names:
        ts = engines[n]
        busy = NP.zeros(len(width))
        for t in ts:
            if t.starts:
                busy += busy_per_bin(t.starts, t.durs, edges)
        frac = NP.clip(busy / (width * len(ts)), 0, 1)
        ax.plot(centers, 100 * frac, color=colours[n], lw=1.2, label=f"{n} ({len(ts)})")
    ax.set_ylim(0, 105)
    ax.set_xlim(edges[0] / scale, edges[-1] / scale)
    ax.set_xlabel(f"simulated time ({unit})")
    ax.set_ylabel("busy (% of the engine's units)")
    ax.set_title(f"{title} ({len(edges) - 1} bins of {fmt(width[0])} µs)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title=legend, ncol=1 + len(names) // 16)
    fig.tight_layout()
    return fig


def utilisation_section(page, tl):
    page.h2("Engine utilisation over time", "utilisation")
    every = tl.tracks_of(lambda pname, t: pname.endswith(" Units"))
    unit_tracks = [t for t in every if pipe_of(t.name) is None]
    pipe_tracks = [t for t in every if pipe_of(t.name) is not None]
    if not unit_tracks:
        page.p("The timeline has no unit tracks (no “NPU k Units” process).", "note")
        return
    active = [t for t in unit_tracks if t.starts]
    if not active:
        page.p("No unit was busy in this run.", "note")
        return
    t0 = min(min(t.starts) for t in active)
    t1 = max(max(s + d for s, d in zip(t.starts, t.durs)) for t in active)
    edges = time_axis(t0, t1)
    width = NP.diff(edges)
    scale, unit = time_unit(t1 - t0)
    # When the cores were busy during less than half the run (typically: a long upload of the
    # inputs first), a second plot zooms on the window in which kernels ran.
    kern = [t for t in active if engine_of(t.name) in KERNEL_ENGINES]
    kwin = None
    if kern:
        k0 = min(min(t.starts) for t in kern)
        k1 = max(max(s + d for s, d in zip(t.starts, t.durs)) for t in kern)
        if k1 > k0 and k1 - k0 < 0.5 * (t1 - t0):
            kwin = (k0, k1)
    by_pid = {}
    for t in unit_tracks:
        by_pid.setdefault(t.pid, []).append(t)
    for pid in sorted(by_pid):
        tracks = by_pid[pid]
        if not any(t.starts for t in tracks):
            continue
        pname = tl.procs.get(pid, f"pid {pid}")
        npu = pname[: -len(" Units")]
        # Per engine: busy fraction = busy time of its tracks / (tracks x bin width).
        engines = {}
        for t in tracks:
            engines.setdefault(engine_of(t.name), []).append(t)
        names = [n for n in engines if any(t.starts for t in engines[n])]
        names.sort(key=lambda n: -sum(sum(t.durs) for t in engines[n]))
        idle = sorted(n for n in engines if n not in names)
        colours = dict(zip(names, palette(len(names))))
        slug = re.sub(r"[^a-z0-9]+", "-", npu.lower()).strip("-")
        fig = engine_figure(f"{npu}: engine utilisation", engines, names, colours, edges)
        page.figure(fig, f"plot-utilisation-{slug}", "utilisation",
                    f"{npu}: per-engine busy fraction over time. Idle engines: "
                    + (", ".join(idle) if idle else "none") + ".")
        if kwin is not None and any(t.starts for n in KERNEL_ENGINES for t in engines.get(n, [])):
            fig = engine_figure(f"{npu}: engine utilisation while kernels ran", engines, names, colours,
                                time_axis(*kwin))
            page.figure(fig, f"plot-utilisation-kernels-{slug}", "utilisation-kernels",
                        f"{npu}: the same, from the first kernel block's start to the last one's end "
                        f"({kwin[0]:,.3f} to {kwin[1]:,.3f} µs; the run is {t1 - t0:,.3f} µs long).")
        pipes = {}
        for t in pipe_tracks:
            if t.pid == pid:
                pipes.setdefault(pipe_of(t.name), []).append(t)
        pnames = sorted((n for n in pipes if any(t.starts for t in pipes[n])), key=natural_key)
        if pnames:  # aicore.trace_pipes: the busy fraction of each pipe over the cores of a kind
            fig = engine_figure(f"{npu}: pipe utilisation", pipes, pnames,
                                dict(zip(pnames, palette(len(pnames)))), time_axis(*(kwin or (t0, t1))),
                                legend="pipe (cores)")
            page.figure(fig, f"plot-pipes-{slug}", "pipes",
                        f"{npu}: busy fraction of each pipe over all cores of its kind (per-pipe tracks "
                        "of aicore.trace_pipes=true)" + (", while kernels ran." if kwin else "."))
        # Per-unit heat map (units with any activity), the engine view broken down.
        act = [t for t in tracks if t.starts]
        grid = NP.zeros((len(act), len(width)))
        for i, t in enumerate(act):
            grid[i] = NP.clip(busy_per_bin(t.starts, t.durs, edges) / width, 0, 1)
        h = min(1.0 + 0.09 * len(act), 9)
        fig, ax = PLT.subplots(figsize=(11, h))
        im = ax.imshow(100 * grid, aspect="auto", interpolation="nearest", cmap="viridis",
                       vmin=0, vmax=100, extent=(edges[0] / scale, edges[-1] / scale, len(act) - 0.5, -0.5))
        step = max(1, len(act) // 40)
        ax.set_yticks(range(0, len(act), step))
        ax.set_yticklabels([act[i].name for i in range(0, len(act), step)], fontsize=7)
        ax.grid(False)
        ax.set_xlabel(f"simulated time ({unit})")
        ax.set_title(f"{npu}: busy % per unit")
        fig.colorbar(im, ax=ax, pad=0.01, label="busy %")
        fig.tight_layout()
        page.figure(fig, f"plot-unit-heatmap-{slug}", "unit-heatmap",
                    f"{npu}: busy fraction of each unit that ran something ({len(act)} of {len(tracks)} units).")


def bandwidth_section(page, tl):
    page.h2("Link bandwidth over time", "bandwidth")
    # Transfers are the slices with a size(B) argument on the unit tracks (PCIe H2D/D2H, SDMA,
    # HCCS engine channels, DSA...) and on the HCCS link tracks; the stream tracks of "Ascend
    # Hardware" repeat the same copies and are left out. One panel per kind of link, one curve per
    # device (engines) or per link direction (HCCS links).
    kinds = {}  # kind -> {curve label -> [tracks]}
    for t in tl.tracks_of(lambda pname, t: pname.endswith(" Units") or pname == "HCCS"):
        if not any(b > 0 for b in t.bytes):
            continue
        pname = tl.procs.get(t.pid, "")
        if pname.endswith(" Units"):
            kind, label = engine_of(t.name), pname[: -len(" Units")]
            if kind == "HCCS":
                kind = "HCCS (engine)"
        else:
            kind, label = "HCCS links", t.name
        kinds.setdefault(kind, {}).setdefault(label, []).append(t)
    if not kinds:
        page.p("No transfer (a slice with a size(B) argument) on the timeline.", "note")
        return
    order = ["PCIe H2D", "PCIe D2H", "SDMA", "HCCS links", "HCCS (engine)"]
    names = sorted(kinds, key=lambda k: (order.index(k) if k in order else len(order), k))
    every = [t for k in names for ts in kinds[k].values() for t in ts]
    t0 = min(min(t.starts) for t in every)
    t1 = max(max(s + d for s, d in zip(t.starts, t.durs)) for t in every)
    edges = time_axis(t0, t1)
    width = NP.diff(edges)
    scale, unit = time_unit(t1 - t0)
    centers = (edges[:-1] + edges[1:]) / 2 / scale
    # One colour per device / link direction, the same in every panel.
    colour = {}
    for group in ([k for k in names if k != "HCCS links"], [k for k in names if k == "HCCS links"]):
        labels = sorted({lab for k in group for lab in kinds[k]}, key=natural_key)
        colour.update(zip(labels, palette(len(labels))))
    fig, axes = PLT.subplots(len(names), 1, figsize=(11, 0.6 + 2.1 * len(names)), sharex=True,
                             squeeze=False)
    rows = []
    for ax, kind in zip(axes[:, 0], names):
        curves = []
        for label in kinds[kind]:
            s, d, b = [], [], []
            for t in kinds[kind][label]:
                for si, di, bi in zip(t.starts, t.durs, t.bytes):
                    if bi > 0:
                        s.append(si), d.append(di), b.append(bi)
            gbps = bytes_per_bin(s, d, b, edges) / (width * 1e3)  # bytes per µs / 1e3 = GB/s
            curves.append((label, gbps, len(s), sum(b), sum(d)))
        # The ten curves with the most bytes, the others summed into one.
        curves.sort(key=lambda c: (-c[3], c[0]))
        shown, rest = curves[:10], curves[10:]
        for label, gbps, _, _, _ in sorted(shown, key=lambda c: natural_key(c[0])):
            ax.plot(centers, gbps, color=colour[label], lw=1.2, label=label)
        if rest:
            ax.plot(centers, sum(c[1] for c in rest), color="0.5", lw=1.0, ls="--",
                    label=f"{len(rest)} others (sum)")
        for label, gbps, n, nbytes, busy in sorted(curves, key=lambda c: natural_key(c[0])):
            rows.append((kind, label, n, f"{fmt(nbytes)} ({fmt_bytes(nbytes)})", f"{max(gbps):.2f}",
                         f"{nbytes / busy / 1e3:.2f}" if busy > 0 else "-"))
        ax.set_ylim(bottom=0)
        ax.set_ylabel("GB/s")
        ax.set_title(kind, loc="left", fontsize=9)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes[-1, 0].set_xlim(edges[0] / scale, edges[-1] / scale)
    axes[-1, 0].set_xlabel(f"simulated time ({unit})")
    fig.suptitle(f"Transfer bandwidth ({len(edges) - 1} bins of {fmt(width[0])} µs)", fontsize=10)
    fig.tight_layout()
    page.figure(fig, "plot-bandwidth", "bandwidth",
                "Bytes moved per time bin by each kind of link engine, per device or link direction "
                "(a transfer's bytes spread evenly over its slice).")
    page.table(("link", "device / direction", "transfers", "bytes", "peak GB/s (binned)", "GB/s while busy"),
               rows)
    page.p("HBM and L2 traffic is not on the timeline; its totals are in the headline table "
           "(stats.json hbm.*, l2.*).", "note")


def gantt_section(page, tl):
    page.h2("Streams: task Gantt summary", "streams")
    tracks = [t for t in tl.tracks_of(lambda pname, t: pname == "Ascend Hardware") if t.starts]
    if not tracks:
        page.p("No stream track with tasks on the timeline.", "note")
        return
    multi = len({t.pid for t in tracks}) > 1
    label = {}
    for t in tracks:
        npu = tl.labels.get(t.pid, "")
        label[(t.pid, t.tid)] = f"{npu} {t.name}" if multi and npu else t.name
    # Colours by task name, the ten with the most time; the rest grey.
    total = {}
    for t in tracks:
        for n, d in zip(t.names, t.durs):
            total[n] = total.get(n, 0.0) + d
    top = sorted(total, key=lambda n: (-total[n], n))[:10]
    colors = dict(zip(top, palette(10)))
    t0 = min(min(t.starts) for t in tracks)
    t1 = max(max(s + d for s, d in zip(t.starts, t.durs)) for t in tracks)
    scale, unit = time_unit(t1 - t0)
    min_w = (t1 - t0) / 1500  # a task shorter than this is drawn this wide (still visible)
    fig, ax = PLT.subplots(figsize=(11, min(1.2 + 0.45 * len(tracks), 14)))
    for row, t in enumerate(tracks):
        by_color = {}
        for s, d, n in zip(t.starts, t.durs, t.names):
            by_color.setdefault(n if n in colors else "", []).append(((s - 0) / scale, max(d, min_w) / scale))
        for n in sorted(by_color, key=lambda n: (n not in colors, top.index(n) if n in colors else 0)):
            ax.broken_barh(by_color[n], (row - 0.4, 0.8), facecolors=colors.get(n, (0.6, 0.6, 0.6, 1)),
                           edgecolor="none")
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels([label[(t.pid, t.tid)] for t in tracks])
    ax.set_ylim(len(tracks) - 0.5, -0.5)
    ax.set_xlim(t0 / scale, t1 / scale)
    ax.set_xlabel(f"simulated time ({unit})")
    ax.set_title("Tasks per stream")
    handles = [MPL.patches.Patch(color=colors[n], label=short_label(n, 28)) for n in top]
    if len(total) > len(top):
        handles.append(MPL.patches.Patch(color=(0.6, 0.6, 0.6, 1), label=f"{len(total) - len(top)} other names"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="task")
    fig.tight_layout()
    page.figure(fig, "plot-stream-gantt", "stream-gantt",
                "Every task on every stream track (Ascend Hardware), coloured by task name.")
    rows = []
    for t in tracks:
        s = NP.asarray(t.starts)
        e = s + NP.asarray(t.durs)
        # Busy = union of the tasks' intervals.
        order = NP.argsort(s, kind="stable")
        busy, cur_s, cur_e = 0.0, None, None
        for i in order:
            if cur_e is None or s[i] > cur_e:
                if cur_e is not None:
                    busy += cur_e - cur_s
                cur_s, cur_e = s[i], e[i]
            else:
                cur_e = max(cur_e, e[i])
        busy += cur_e - cur_s
        span = e.max() - s.min()
        rows.append((label[(t.pid, t.tid)], len(t.starts), f"{s.min():,.3f}", f"{e.max():,.3f}",
                     f"{busy:,.3f}", f"{100 * busy / span:.1f} %" if span > 0 else "-"))
    page.table(("stream", "tasks", "first start (µs)", "last end (µs)", "busy (µs)", "busy / span"), rows)


def host_section(page, tl):
    """The host threads' API calls (the CANN process): time per API, the largest first."""
    tracks = [t for t in tl.tracks_of(lambda pname, t: pname == "CANN") if t.starts]
    if not tracks:
        return
    page.h2("Host API calls", "host")
    per = {}
    for t in tracks:
        for n, d in zip(t.names, t.durs):
            c, total, mx = per.get(n, (0, 0.0, 0.0))
            per[n] = (c + 1, total + d, max(mx, d))
    names = sorted(per, key=lambda n: (-per[n][1], n))
    page.table(("call", "count", "total (µs)", "max (µs)"),
               [(n, per[n][0], f"{per[n][1]:,.3f}", f"{per[n][2]:,.3f}") for n in names[:20]])
    page.p(f"{len(tracks)} host thread(s), {sum(len(t.starts) for t in tracks):,} spans, "
           f"{len(per)} distinct names" + ("; the 20 with the most time are shown." if len(per) > 20 else "."),
           "note")


def ops_section(page, path):
    page.h2("Operator time breakdown", "ops")
    if path is None:
        page.p("No op_summary.csv in this directory.", "note")
        return
    rows = read_csv(path)
    if not rows:
        raise ReportError(f"{path}: empty (no header)")
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    for need in ("OP Type", "Task Duration(us)"):
        if need not in col:
            raise ReportError(f"{path}: no column '{need}'")
    ops = []
    for r in rows[1:]:
        if len(r) != len(head):
            continue
        dur = to_float(r[col["Task Duration(us)"]])
        if dur is None:
            continue
        ops.append(r + [dur])
    if not ops:
        page.p("op_summary.csv has no kernel rows (the run launched no operators or kernels).", "note")
        return
    by_type = {}
    for r in ops:
        t = r[col["OP Type"]]
        c, s = by_type.get(t, (0, 0.0))
        by_type[t] = (c + 1, s + r[-1])
    types = sorted(by_type, key=lambda t: (-by_type[t][1], t))
    grand = sum(s for _, s in by_type.values())
    top = types[:15]
    rest = sum(by_type[t][1] for t in types[15:])
    labels = [short_label(t, 32) for t in top] + ([f"{len(types) - 15} other types"] if rest > 0 else [])
    vals = [by_type[t][1] for t in top] + ([rest] if rest > 0 else [])
    fig, ax = PLT.subplots(figsize=(11, 0.9 + 0.32 * len(vals)))
    ypos = NP.arange(len(vals))
    bars = ax.barh(ypos, vals, color=palette(len(vals)))
    ax.set_yticks(ypos)
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    for b, v in zip(bars, vals):
        ax.text(b.get_width(), b.get_y() + b.get_height() / 2, f" {v:,.2f} µs ({100 * v / grand:.1f} %)",
                va="center", fontsize=8)
    ax.set_xlim(0, max(vals) * 1.3)
    ax.set_xlabel("total Task Duration (µs)")
    ax.set_title(f"Kernel time by OP Type ({len(ops)} kernels, {grand:,.2f} µs)")
    fig.tight_layout()
    page.figure(fig, "plot-op-breakdown", "op-breakdown",
                "Sum of Task Duration per OP Type (op_summary.csv), the 15 largest.")
    page.table(("OP Type", "count", "total (µs)", "mean (µs)", "share"),
               [(t, by_type[t][0], f"{by_type[t][1]:,.3f}", f"{by_type[t][1] / by_type[t][0]:,.3f}",
                 f"{100 * by_type[t][1] / grand:.1f} %") for t in types])
    op_pipes_plot(page, ops, col, top)
    longest = sorted(range(len(ops)), key=lambda i: (-ops[i][-1], i))[:10]
    cols = [c for c in ("Op Name", "OP Type", "Stream ID", "Task ID", "Task Start Time(us)", "Block Num") if c in col]
    page.p("The ten longest kernels:")
    page.table(cols + ["Task Duration(us)"], [[ops[i][col[c]] for c in cols] + [f"{ops[i][-1]:,.3f}"] for i in longest])


OP_PIPES = [("aicore_time(us)", p) for p in ("mac", "scalar", "mte1", "mte2", "fixpipe")] + \
    [("aiv_time(us)", p) for p in ("vec", "scalar", "mte2", "mte3")]


def op_pipes_plot(page, ops, col, types):
    """Per OP Type and pipe: the pipe's busy time / the core time (op_summary's *_time(us)
    columns summed over the type's kernels), as a heat map."""
    cols, grid = [], []
    for base, pipe in OP_PIPES:
        side = "aic" if base.startswith("aicore") else "aiv"
        name = f"{side}_{pipe}_time(us)"
        if name not in col or base not in col:
            continue
        values = []
        for t in types:
            num = den = 0.0
            for r in ops:
                if r[col["OP Type"]] != t:
                    continue
                a, b = to_float(r[col[name]]), to_float(r[col[base]])
                if a is not None and b is not None and b > 0:
                    num, den = num + a, den + b
            values.append(num / den if den > 0 else NP.nan)
        if not all(NP.isnan(values)):
            cols.append(f"{side.upper()} {pipe}")
            grid.append(values)
    if not cols:
        return
    g = NP.array(grid).T  # rows: types, columns: pipes
    fig, ax = PLT.subplots(figsize=(11, 1.1 + 0.32 * len(types)))
    im = ax.imshow(NP.ma.masked_invalid(100 * g), aspect="auto", cmap="Blues", vmin=0, vmax=100)
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            if not NP.isnan(g[i, j]):
                ax.text(j, i, f"{100 * g[i, j]:.0f}", ha="center", va="center", fontsize=8,
                        color="white" if g[i, j] > 0.6 else "black")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols)
    ax.set_yticks(range(len(types)))
    ax.set_yticklabels([short_label(t, 32) for t in types])
    ax.grid(False)
    ax.set_title("Pipe busy time as % of the core time, per OP Type (the bound pipe is the darkest)")
    fig.colorbar(im, ax=ax, pad=0.01, label="%")
    fig.tight_layout()
    page.figure(fig, "plot-op-pipes", "op-pipes",
                "Sum of each pipe's time / sum of aicore_time (AIC pipes) or aiv_time (AIV pipes) over "
                "the kernels of each OP Type (op_summary.csv); blank: the type has no such core.")


def markers_section(page, path):
    """mstx markers and ranges (msprof_tx.csv), when the program made any."""
    if path is None:
        return
    rows = read_csv(path)
    if len(rows) < 2:
        return
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    need = ("event_type", "domain", "message", "duration(us)")
    if any(n not in col for n in need):
        raise ReportError(f"{path}: expected the columns {', '.join(need)}")
    page.h2("Markers and ranges (mstx)", "markers")
    groups = {}
    for r in rows[1:]:
        if len(r) != len(head):
            continue
        key = (r[col["event_type"]], r[col["domain"]], r[col["message"]])
        n, total = groups.get(key, (0, 0.0))
        groups[key] = (n + 1, total + (to_float(r[col["duration(us)"]]) or 0.0))
    keys = sorted(groups, key=lambda k: (-groups[k][1], k))
    page.table(("kind", "domain", "message", "count", "total duration (µs)"),
               [(k[0], k[1], k[2], groups[k][0], f"{groups[k][1]:,.3f}") for k in keys[:50]])
    if len(keys) > 50:
        page.p(f"{len(keys) - 50} more (msprof_tx.csv).", "note")


def config_section(page, path):
    page.h2("Effective configuration", "config")
    if path is None:
        page.p("No config.yaml in this directory.", "note")
        return
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}: cannot read: {e}")
    source = next((ln[len("# source:"):].strip() for ln in text.splitlines() if ln.startswith("# source:")), None)
    if source:
        page.p(f"Source: <code>{html.escape(source)}</code>")
    page.raw(f"<details><summary>config.yaml ({len(text.splitlines())} lines)</summary>"
             f"<pre>{html.escape(text)}</pre></details>")


def run_files(d):
    """The inputs of a run's page: npusim's names (timeline.json, op_summary.csv, msprof_tx.csv,
    ...), or msprof's layout (an aclprof session PROF_*/ or its mindstudio_profiler_output/:
    msprof[_<stamp>].json, op_summary[_<stamp>].csv, msprof_tx[_<stamp>].csv). None if absent."""
    sub = os.path.join(d, "mindstudio_profiler_output")
    if os.path.isdir(sub):
        d = sub

    def find(name, stem, ext):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
        if stem is None:
            return None
        try:
            names = sorted(os.listdir(d))
        except OSError:
            return None
        pat = re.compile(rf"^{stem}(_[0-9A-Za-z]+)?\.{ext}$")
        hits = [n for n in names if pat.match(n)]
        return os.path.join(d, hits[0]) if hits else None

    return {
        "timeline": find("timeline.json", "msprof", "json"),
        "stats": find("stats.json", None, None),
        "op_summary": find("op_summary.csv", "op_summary", "csv"),
        "tx": find("msprof_tx.csv", "msprof_tx", "csv"),
        "config": find("config.yaml", None, None),
        "replay": find("replay_summary.json", None, None),
    }


def run_report(d, page):
    files = run_files(d)
    stats = read_json(files["stats"], "the run's statistics") if files["stats"] else None
    if stats is not None and not isinstance(stats, dict):
        raise ReportError(f"{files['stats']}: not a JSON object of statistics")
    replay = read_json(files["replay"], "the replay summary") if files["replay"] else None
    tl = None
    if files["timeline"]:
        events = read_json(files["timeline"], "the timeline")
        if isinstance(events, dict):
            events = events.get("traceEvents")
        if not isinstance(events, list):
            raise ReportError(f"{files['timeline']}: not a list of trace events")
        tl = Timeline(events)
    page.p("Sections: " + " · ".join(f'<a href="#{a}">{t}</a>' for a, t in (
        ("headline", "headline"), ("utilisation", "engine utilisation"), ("bandwidth", "link bandwidth"),
        ("streams", "streams"), ("host", "host API"), ("ops", "operators"), ("config", "configuration"))))
    headline_section(page, d, stats, replay)
    if tl is not None:
        page.p(f"{os.path.basename(files['timeline'])}: {tl.slices:,} slices on {sum(1 for t in tl.tracks.values() if t.starts)} "
               f"tracks, last end at {tl.t_end:,.3f} µs.", "note")
        utilisation_section(page, tl)
        bandwidth_section(page, tl)
        gantt_section(page, tl)
        host_section(page, tl)
    else:
        page.h2("Timeline", "utilisation")
        page.p("No timeline.json in this directory: no utilisation, bandwidth or stream plots.", "note")
    ops_section(page, files["op_summary"])
    markers_section(page, files["tx"])
    config_section(page, files["config"])


# ---------------------------------------------------------------------------------------------
# Sweep report

NUM_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/%]*)\s*$")


def numeric_column(values):
    """(numbers, unit) when every non-empty value is a number with the same (maybe empty) unit."""
    nums, units = [], set()
    for v in values:
        m = NUM_UNIT.match(v)
        if not m:
            return None
        nums.append(float(m.group(1)))
        units.add(m.group(2))
    if not nums or len(units) != 1:
        return None
    return nums, units.pop()


def sweep_report(d, page):
    meta_path = os.path.join(d, "sweep_meta.json")
    csv_path = os.path.join(d, "sweep.csv")
    if not os.path.exists(meta_path):
        raise ReportError(f"{d}: has sweep.csv but no sweep_meta.json (the swept parameters and metrics)")
    meta = read_json(meta_path, "the sweep's parameter and metric names")
    if not isinstance(meta, dict) or not isinstance(meta.get("params"), list) \
            or not isinstance(meta.get("metrics"), list):
        raise ReportError(f"{meta_path}: expected {{\"params\": [...], \"metrics\": [...]}}")
    params = [str(p) for p in meta["params"]]
    metrics = [str(m) for m in meta["metrics"]]
    rows = read_csv(csv_path)
    if not rows:
        raise ReportError(f"{csv_path}: empty (no header)")
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    for need in ["run", "status"] + params + metrics:
        if need not in col:
            raise ReportError(f"{csv_path}: no column '{need}' (sweep_meta.json names it)")
    runs = [r for r in rows[1:] if len(r) == len(head)]
    if len(runs) != len(rows) - 1:
        raise ReportError(f"{csv_path}: {len(rows) - 1 - len(runs)} rows do not have {len(head)} fields")
    ok = [r for r in runs if r[col["status"]] == "ok"]
    counts = {}
    for r in runs:
        counts[r[col["status"]]] = counts.get(r[col["status"]], 0) + 1
    page.p(f"{len(runs)} runs: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
           + f". Swept: {', '.join(params) or '(nothing)'}. Metrics: {', '.join(metrics) or '(none)'}.")
    if isinstance(meta.get("name"), str) and meta["name"] and not page.title_given:
        page.title = f"npusim sweep report: {meta['name']}"
    if isinstance(meta.get("description"), str) and meta["description"]:
        page.p(html.escape(meta["description"]))
    sources = meta.get("metric_sources") if isinstance(meta.get("metric_sources"), dict) else {}
    extra = [(k, v if isinstance(v, str) else json.dumps(v, sort_keys=True))
             for k, v in meta.items() if k not in ("params", "metrics", "name", "description", "metric_sources")]
    if extra:  # whatever else npusim sweep recorded (the sweep file, the program...)
        page.table(("sweep_meta.json", "value"), [(k, short_label(v, 200)) for k, v in extra])
    page.p("Sections: <a href=\"#curves\">curves</a> · <a href=\"#extremes\">extremes</a> · "
           "<a href=\"#table\">table</a>")

    # Parameter kinds, over the runs that finished (the points that can be drawn).
    kinds = {}
    for p in params:
        vals = [r[col[p]] for r in ok if r[col[p]] != ""]
        nu = numeric_column(vals)
        kinds[p] = ("num", nu[1]) if nu else ("cat", "")

    # A parameter with one value over the finished runs (a grid axis of one value) is no axis:
    # it is named once here and left out of the plots and their labels.
    varied = [p for p in params if len({r[col[p]] for r in ok}) > 1] if ok else list(params)
    fixed = [p for p in params if p not in varied]
    if fixed:
        page.p("Same in every finished run: " + ", ".join(f"{html.escape(p)}={html.escape(ok[0][col[p]])}"
                                                          for p in fixed) + ".")

    def pval(r, p):
        v = r[col[p]]
        if kinds[p][0] == "num":
            m = NUM_UNIT.match(v)
            return float(m.group(1)) if m else None
        return v

    page.h2("Metrics versus parameters", "curves")
    if not ok:
        page.p("No run finished (status ok): nothing to plot.", "note")
    num_params = [p for p in varied if kinds[p][0] == "num"]
    drawn = 0
    for m in metrics:
        pts = [(r, to_float(r[col[m]])) for r in ok]
        pts = [(r, v) for r, v in pts if v is not None]
        if not pts:
            if ok:
                page.p(f"{html.escape(m)}: no numeric value in any finished run.", "note")
            continue
        mslug = re.sub(r"[^A-Za-z0-9]+", "-", m).strip("-").lower()
        for p in num_params:
            others = [q for q in varied if q != p]
            curves = {}
            for r, v in pts:
                x = pval(r, p)
                if x is None:
                    continue
                key = tuple(r[col[q]] for q in others)
                curves.setdefault(key, []).append((x, v))
            keys = sorted(curves, key=lambda k: tuple(_sort_key(kinds[q], s) for q, s in zip(others, k)))
            fig, ax = PLT.subplots(figsize=(10.5, 4.4))
            shown = keys[:20]
            # The first categorical parameter (a preset) sets the line style and marker, the
            # other parameters the colour; without one, each curve its own colour.
            cat = next((i for i, q in enumerate(others) if kinds[q][0] == "cat"), None)
            rest_of = (lambda k: k[:cat] + k[cat + 1:]) if cat is not None else (lambda k: k)
            cat_values = sorted({k[cat] for k in shown}) if cat is not None else []
            rest_values = list(dict.fromkeys(rest_of(k) for k in shown))
            if len(rest_values) == 1 and cat is not None:  # the preset is the only other one
                rest_of, rest_values = (lambda k: k[cat]), cat_values
            colours = palette(len(rest_values))
            for k in shown:
                xy = sorted(curves[k])
                lab = ", ".join(f"{q}={s}" for q, s in zip(others, k)) or m
                ci = cat_values.index(k[cat]) if cat is not None else 0
                ax.plot([a for a, _ in xy], [b for _, b in xy], color=colours[rest_values.index(rest_of(k))],
                        ls=("-", "--", ":", "-.")[ci % 4], marker="osD^v<>"[ci % 7], ms=4, lw=1.3,
                        label=short_label(lab, 60))
            unit = kinds[p][1]
            xs = sorted({a for k in shown for a, _ in curves[k]})
            if xs and xs[0] > 0 and xs[-1] / xs[0] >= 16:  # e.g. 1, 2, 4 ... 64 cores: log scale
                pow2 = all(math.log2(x).is_integer() for x in xs)
                ax.set_xscale("log", base=2 if pow2 else 10)
                if len(xs) <= 12:  # the swept values themselves as the ticks
                    ax.xaxis.set_minor_locator(MPL.ticker.NullLocator())
                    ax.set_xticks(xs)
                    ax.set_xticklabels([fmt(x) for x in xs])
            ax.set_xlabel(f"{p} ({unit})" if unit else p)
            ax.set_ylabel(m)
            ax.set_title(f"{m} vs {p}")
            if len(shown) > 1 or others:
                ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="other parameters" if others else None)
            fig.tight_layout()
            pslug = re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-").lower()
            extra = f" ({len(keys) - len(shown)} more curves not drawn)" if len(keys) > len(shown) else ""
            page.figure(fig, f"plot-sweep-{mslug}-vs-{pslug}", "sweep-curve",
                        f"{m} against {p}, one curve per combination of the other parameters{extra}.")
            drawn += 1
        if not num_params:
            # Only categorical parameters: one bar per run, grouped by the first parameter.
            labels, vals = [], []
            srt = sorted(pts, key=lambda rv: tuple(_sort_key(kinds[q], rv[0][col[q]]) for q in varied))
            for r, v in srt:
                labels.append(short_label(", ".join(r[col[q]] for q in varied) or r[col["run"]], 40))
                vals.append(v)
            fig, ax = PLT.subplots(figsize=(8, 0.9 + 0.3 * len(vals)))
            ypos = NP.arange(len(vals))
            first = [r[col[varied[0]]] if varied else "" for r, _ in srt]
            groups = sorted(set(first), key=lambda s: _sort_key(kinds[varied[0]], s) if varied else s)
            cmap = dict(zip(groups, palette(len(groups))))
            ax.barh(ypos, vals, color=[cmap[g] for g in first])
            ax.set_yticks(ypos)
            ax.set_yticklabels(labels)
            ax.invert_yaxis()
            ax.set_xlabel(m)
            ax.set_title(f"{m} per run" + (f" ({', '.join(varied)})" if varied else ""))
            fig.tight_layout()
            page.figure(fig, f"plot-sweep-{mslug}-bars", "sweep-bars",
                        f"{m} for each finished run (bars coloured by {varied[0] if varied else 'run'}).")
            drawn += 1
    if ok and drawn == 0:
        page.p("No metric with numeric values to plot.", "note")

    # Per metric: the extreme runs, with their parameters.
    summary = []
    for m in metrics:
        pts = [(r, to_float(r[col[m]])) for r in ok]
        pts = [(r, v) for r, v in pts if v is not None]
        if not pts:
            continue
        lo = min(pts, key=lambda rv: (rv[1], int(rv[0][col["run"]]) if rv[0][col["run"]].isdigit() else 0))
        hi = max(pts, key=lambda rv: (rv[1], -int(rv[0][col["run"]]) if rv[0][col["run"]].isdigit() else 0))
        where = lambda r: f"run {r[col['run']]}" + ("".join(f", {q}={r[col[q]]}" for q in varied))
        summary.append((m, str(sources.get(m, "")), len(pts), fmt(lo[1]), where(lo[0]), fmt(hi[1]), where(hi[0])))
    if summary:
        page.h2("Extremes", "extremes")
        xhead = ("metric", "source", "runs with a value", "min", "min at", "max", "max at")
        if not any(row[1] for row in summary):
            xhead, summary = xhead[:1] + xhead[2:], [row[:1] + row[2:] for row in summary]
        page.table(xhead, summary)

    page.h2("Runs", "table")
    body = []
    for r in runs:
        status = r[col["status"]]
        cls = "" if status == "ok" else f' class="{html.escape(status)}"'
        run_dir = os.path.join("runs", r[col["run"]])
        link = r[col["run"]]
        if os.path.isdir(os.path.join(d, run_dir)):
            target = run_dir + ("/report.html" if os.path.exists(os.path.join(d, run_dir, "report.html")) else "/")
            link = f'<a href="{html.escape(target)}">{html.escape(r[col["run"]])}</a>'
        else:
            link = html.escape(link)
        cells = [link] + [html.escape(c) for c in r[1:]]
        body.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    page.raw('<table class="data"><thead><tr>' + "".join(f"<th>{html.escape(h)}</th>" for h in head)
             + "</tr></thead><tbody>" + "".join(body) + "</tbody></table>")


def _sort_key(kind, s):
    if kind[0] == "num":
        m = NUM_UNIT.match(s)
        return (0, float(m.group(1)), "") if m else (1, 0.0, s)
    return (0, 0.0, s)


# ---------------------------------------------------------------------------------------------


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="self-contained HTML report of a run or sweep directory")
    ap.add_argument("dir", help="the --out directory of npusim run / replay, or a sweep directory")
    ap.add_argument("-o", "--output", help="the HTML file to write (default: DIR/report.html)")
    ap.add_argument("--title", help="page title (default: from the directory name)")
    ap.add_argument("--png-dir", help="also write every plot as PNG_DIR/<plot id>.png (for documents)")
    a = ap.parse_args(argv)
    d = a.dir
    if not os.path.exists(d):
        fail(f"{d}: no such directory")
    if not os.path.isdir(d):
        fail(f"{d}: not a directory (give the --out directory of npusim run / replay, or a sweep directory)")
    is_sweep = os.path.exists(os.path.join(d, "sweep.csv"))
    found = run_files(d)
    if not is_sweep and not (found["timeline"] or found["stats"] or found["op_summary"]):
        fail(f"{d}: not a run directory (no timeline.json, stats.json or op_summary.csv, nor msprof's "
             "mindstudio_profiler_output) nor a sweep directory (no sweep.csv)")
    out = a.output or os.path.join(d, "report.html")
    global MPL, PLT, NP
    MPL, PLT, NP = load_matplotlib()
    name = os.path.basename(os.path.normpath(os.path.abspath(d)))
    title = a.title or (f"npusim sweep report: {name}" if is_sweep else f"npusim run report: {name}")
    if a.png_dir:
        try:
            os.makedirs(a.png_dir, exist_ok=True)
        except OSError as e:
            fail(f"cannot create {a.png_dir}: {e}")
    page = Page(title, a.png_dir, title_given=bool(a.title))
    try:
        (sweep_report if is_sweep else run_report)(d, page)
    except ReportError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write a plot: {e}")
    except Exception as e:  # a bug or an input nobody foresaw: still exit 2, with the trace
        import traceback
        traceback.print_exc()
        fail(f"internal error while reading {d}: {type(e).__name__}: {e}")
    text = page.render()
    try:
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        fail(f"cannot write {out}: {e}")
    n = len(page.plots)
    print(f"{PROG}: wrote {out} ({n} plot{'' if n == 1 else 's'}, {len(text.encode('utf-8')):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
