#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""npusim report: the page (HTML assembly, plots embedded as PNG) and small shared helpers."""
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
        # Plain tick labels: no "+2.878e9" offset and no "1e8" multiplier above an axis (a tiny
        # relative gap must not look large; a value must read as it is, in the axis's unit).
        "axes.formatter.useoffset": False, "axes.formatter.limits": (-99, 99),
    })
    return matplotlib, plt, np


class Plotting:
    """matplotlib, pyplot and numpy: loaded once by main() (load_matplotlib), used by every plot."""
    mpl = plt = np = None


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
        plain_ticks(fig)
        # metadata: no Software/date chunk, so the bytes depend only on the drawing.
        fig.savefig(buf, format="png", metadata={"Software": None})
        axes = axes_record(fig)  # after drawing: the offset texts exist only then
        Plotting.plt.close(fig)
        if self.png_dir:
            with open(os.path.join(self.png_dir, plot_id + ".png"), "wb") as f:
                f.write(buf.getvalue())
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        self.plots.append(plot_id)
        self.parts.append(
            f'<figure><img class="plot" id="{html.escape(plot_id)}" data-plot="{html.escape(kind)}" '
            f'data-axes="{html.escape(json.dumps(axes, ensure_ascii=False))}" '
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


def plain_ticks(fig):
    """Every linear axis of the figure with plain numbers: no offset, no scientific notation."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            f = axis.get_major_formatter()
            if isinstance(f, Plotting.mpl.ticker.ScalarFormatter):
                f.set_useOffset(False)
                f.set_scientific(False)


def axes_record(fig):
    """What a reader sees of each axes: its labels and any offset text (always empty), for the
    page's data-axes attribute (tests read it)."""
    return [{"x": ax.get_xlabel(), "y": ax.get_ylabel(),
             "offset": ax.xaxis.get_offset_text().get_text() + ax.yaxis.get_offset_text().get_text()}
            for ax in fig.axes if ax.get_visible()]


UNIT_SCALES = {  # unit -> (kind, factor to the kind's base); the units npusim check writes
    "ps": ("time", 1e-12), "ns": ("time", 1e-9), "us": ("time", 1e-6), "ms": ("time", 1e-3),
    "s": ("time", 1.0), "B": ("size", 1.0), "KB": ("size", 1e3), "MB": ("size", 1e6),
    "GB": ("size", 1e9), "TB": ("size", 1e12),
}


def readable_unit(unit, magnitude):
    """(factor, unit) that shows values around `magnitude` (in `unit`) with few digits: 2.878e9 ps
    is drawn as 2.878 ms. Other units stay as they are."""
    if unit not in UNIT_SCALES or not magnitude:
        return 1.0, unit
    kind, base = UNIT_SCALES[unit]
    best = unit
    for u, (k, f) in UNIT_SCALES.items():  # ascending within a kind
        if k == kind and abs(magnitude) * base / f >= 1:
            best = u
    return base / UNIT_SCALES[best][1], best


def axis_label(name, unit):
    """'latency (µs)'; a count or an unknown unit adds nothing."""
    shown = {"us": "µs", "count": "", "": ""}.get(unit, unit)
    return f"{name} ({shown})" if shown else name


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


def stat_factor(stats, path, to):
    """The factor that turns the stats.json leaf's value (in its stated unit; picoseconds when it
    states none, as npusim's times were) into `to`."""
    node = stats
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    unit = node.get("unit") if isinstance(node, dict) else None
    unit = {"µs": "us", "μs": "us"}.get(unit, unit) if unit else "ps"
    if unit not in UNIT_SCALES or UNIT_SCALES[unit][0] != UNIT_SCALES[to][0]:
        return 1.0
    return UNIT_SCALES[unit][1] / UNIT_SCALES[to][1]


def natural_key(text):
    """'NPU 10' after 'NPU 9'."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text)]


def short_label(text, n=40):
    return text if len(text) <= n else text[: n - 1] + "…"


def palette(n):
    cmap = Plotting.mpl.colormaps["tab20"] if n > 10 else Plotting.mpl.colormaps["tab10"]
    return [cmap(i % cmap.N) for i in range(n)]
