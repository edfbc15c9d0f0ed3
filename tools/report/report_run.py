#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""npusim report: the report of one run directory (headline, utilisation, bandwidth, Gantt, ops)."""
import html
import os
import re

from report_page import (
    Plotting, ReportError, fmt, fmt_bytes, natural_key, palette, read_csv, read_json, short_label,
    stat, stat_factor, to_float)
from report_timeline import (
    Timeline, busy_per_bin, bytes_per_bin, engine_of, pipe_of, time_axis, time_unit)

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
        elif path == "sim_time":
            v = f"{v * stat_factor(stats, path, 'us'):,.3f} µs"
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
    width = Plotting.np.diff(edges)
    scale, unit = time_unit(edges[-1] - edges[0])
    centers = (edges[:-1] + edges[1:]) / 2 / scale
    fig, ax = Plotting.plt.subplots(figsize=(11, 3.6))
    for n in names:
        ts = engines[n]
        busy = Plotting.np.zeros(len(width))
        for t in ts:
            if t.starts:
                busy += busy_per_bin(t.starts, t.durs, edges)
        frac = Plotting.np.clip(busy / (width * len(ts)), 0, 1)
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
    width = Plotting.np.diff(edges)
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
        grid = Plotting.np.zeros((len(act), len(width)))
        for i, t in enumerate(act):
            grid[i] = Plotting.np.clip(busy_per_bin(t.starts, t.durs, edges) / width, 0, 1)
        h = min(1.0 + 0.09 * len(act), 9)
        fig, ax = Plotting.plt.subplots(figsize=(11, h))
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
    width = Plotting.np.diff(edges)
    scale, unit = time_unit(t1 - t0)
    centers = (edges[:-1] + edges[1:]) / 2 / scale
    # One colour per device / link direction, the same in every panel.
    colour = {}
    for group in ([k for k in names if k != "HCCS links"], [k for k in names if k == "HCCS links"]):
        labels = sorted({lab for k in group for lab in kinds[k]}, key=natural_key)
        colour.update(zip(labels, palette(len(labels))))
    fig, axes = Plotting.plt.subplots(len(names), 1, figsize=(11, 0.6 + 2.1 * len(names)), sharex=True,
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
    fig, ax = Plotting.plt.subplots(figsize=(11, min(1.2 + 0.45 * len(tracks), 14)))
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
    handles = [Plotting.mpl.patches.Patch(color=colors[n], label=short_label(n, 28)) for n in top]
    if len(total) > len(top):
        handles.append(Plotting.mpl.patches.Patch(color=(0.6, 0.6, 0.6, 1), label=f"{len(total) - len(top)} other names"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="task")
    fig.tight_layout()
    page.figure(fig, "plot-stream-gantt", "stream-gantt",
                "Every task on every stream track (Ascend Hardware), coloured by task name.")
    rows = []
    for t in tracks:
        s = Plotting.np.asarray(t.starts)
        e = s + Plotting.np.asarray(t.durs)
        # Busy = union of the tasks' intervals.
        order = Plotting.np.argsort(s, kind="stable")
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
    fig, ax = Plotting.plt.subplots(figsize=(11, 0.9 + 0.32 * len(vals)))
    ypos = Plotting.np.arange(len(vals))
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
            values.append(num / den if den > 0 else Plotting.np.nan)
        if not all(Plotting.np.isnan(values)):
            cols.append(f"{side.upper()} {pipe}")
            grid.append(values)
    if not cols:
        return
    g = Plotting.np.array(grid).T  # rows: types, columns: pipes
    fig, ax = Plotting.plt.subplots(figsize=(11, 1.1 + 0.32 * len(types)))
    im = ax.imshow(Plotting.np.ma.masked_invalid(100 * g), aspect="auto", cmap="Blues", vmin=0, vmax=100)
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            if not Plotting.np.isnan(g[i, j]):
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
