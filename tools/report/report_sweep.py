#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""npusim report: the report of a sweep directory (metrics against the swept parameters)."""
import html
import json
import math
import os
import re

from report_page import (
    Plotting, ReportError, axis_label, fmt, palette, read_csv, read_json, readable_unit,
    short_label, to_float)

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
    # npusim sweep heads a metric's column with its unit ("latency (us)") and says which in
    # metric_columns / metric_units; older tables have the bare name and no unit.
    columns = meta.get("metric_columns") if isinstance(meta.get("metric_columns"), dict) else {}
    units = meta.get("metric_units") if isinstance(meta.get("metric_units"), dict) else {}
    munit = {m: str(units.get(m, "")) for m in metrics}
    rows = read_csv(csv_path)
    if not rows:
        raise ReportError(f"{csv_path}: empty (no header)")
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    for need in ["run", "status"] + params + [str(columns.get(m, m)) for m in metrics]:
        if need not in col:
            raise ReportError(f"{csv_path}: no column '{need}' (sweep_meta.json names it)")
    for m in metrics:
        col[m] = col[str(columns.get(m, m))]
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
            fig, ax = Plotting.plt.subplots(figsize=(10.5, 4.4))
            shown = keys[:20]
            scale, yunit = readable_unit(munit[m], max(abs(v) for _, v in pts))
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
                ax.plot([a for a, _ in xy], [b * scale for _, b in xy], color=colours[rest_values.index(rest_of(k))],
                        ls=("-", "--", ":", "-.")[ci % 4], marker="osD^v<>"[ci % 7], ms=4, lw=1.3,
                        label=short_label(lab, 60))
            unit = kinds[p][1]
            xs = sorted({a for k in shown for a, _ in curves[k]})
            if xs and xs[0] > 0 and xs[-1] / xs[0] >= 16:  # e.g. 1, 2, 4 ... 64 cores: log scale
                pow2 = all(math.log2(x).is_integer() for x in xs)
                ax.set_xscale("log", base=2 if pow2 else 10)
                if len(xs) <= 12:  # the swept values themselves as the ticks
                    ax.xaxis.set_minor_locator(Plotting.mpl.ticker.NullLocator())
                    ax.set_xticks(xs)
                    ax.set_xticklabels([fmt(x) for x in xs])
            ax.set_xlabel(f"{p} ({unit})" if unit else p)
            ax.set_ylabel(axis_label(m, yunit))
            ax.set_title(f"{m} vs {p}")
            near = near_constant(ax, [v for _, v in pts])
            if len(shown) > 1 or others:
                ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="other parameters" if others else None)
            fig.tight_layout()
            pslug = re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-").lower()
            extra = f" ({len(keys) - len(shown)} more curves not drawn)" if len(keys) > len(shown) else ""
            page.figure(fig, f"plot-sweep-{mslug}-vs-{pslug}", "sweep-curve",
                        f"{m} against {p}, one curve per combination of the other parameters{extra}.{near}")
            drawn += 1
        if not num_params:
            # Only categorical parameters: one bar per run, grouped by the first parameter.
            labels, vals = [], []
            srt = sorted(pts, key=lambda rv: tuple(_sort_key(kinds[q], rv[0][col[q]]) for q in varied))
            for r, v in srt:
                labels.append(short_label(", ".join(r[col[q]] for q in varied) or r[col["run"]], 40))
                vals.append(v)
            fig, ax = Plotting.plt.subplots(figsize=(8, 0.9 + 0.3 * len(vals)))
            ypos = Plotting.np.arange(len(vals))
            scale, xunit = readable_unit(munit[m], max(abs(v) for v in vals))
            vals = [v * scale for v in vals]
            first = [r[col[varied[0]]] if varied else "" for r, _ in srt]
            groups = sorted(set(first), key=lambda s: _sort_key(kinds[varied[0]], s) if varied else s)
            cmap = dict(zip(groups, palette(len(groups))))
            ax.barh(ypos, vals, color=[cmap[g] for g in first])
            ax.set_yticks(ypos)
            ax.set_yticklabels(labels)
            ax.invert_yaxis()
            ax.set_xlabel(axis_label(m, xunit))
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
        summary.append((m, munit[m], str(sources.get(m, "")), len(pts), fmt(lo[1]), where(lo[0]),
                        fmt(hi[1]), where(hi[0])))
    if summary:
        page.h2("Extremes", "extremes")
        xhead = ("metric", "unit", "source", "runs with a value", "min", "min at", "max", "max at")
        if not any(row[2] for row in summary):
            xhead, summary = xhead[:2] + xhead[3:], [row[:2] + row[3:] for row in summary]
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


def near_constant(ax, values):
    """A metric that varies by less than 1 % of its size is drawn from 0, so that a tiny gap does
    not fill the plot; the caption says by how much it varies."""
    lo, hi = min(values), max(values)
    if lo < 0 or hi <= 0 or hi - lo > 0.01 * hi:
        return ""
    ax.set_ylim(bottom=0, top=ax.get_ylim()[1] * 1.05)
    return f" It varies by {100 * (hi - lo) / hi:.3g} % over the runs: the axis starts at 0."


def _sort_key(kind, s):
    if kind[0] == "num":
        m = NUM_UNIT.match(s)
        return (0, float(m.group(1)), "") if m else (1, 0.0, s)
    return (0, 0.0, s)
