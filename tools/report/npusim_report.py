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
import os
import sys

from report_page import PROG, Page, Plotting, ReportError, fail, load_matplotlib
from report_run import run_files, run_report
from report_sweep import sweep_report

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
    Plotting.mpl, Plotting.plt, Plotting.np = load_matplotlib()
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
