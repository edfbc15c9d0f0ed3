#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks the DOM a headless browser dumped after loading an `npusim report` page (its inline script
# has run): every expected plot is there, decoded, non-empty and drawn, and the tables say what the
# run's files say.
#   report_dom.py DOM.html PLOT_ID... [--table CAPTION_COLUMN=VALUE:COLUMN=EXPECTED]...
#   report_dom.py DOM.html --screenshot SHOT.png   (a page screenshot: not blank)
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.body = {}
        self.imgs = {}
        self.tables = []  # each: list of rows (lists of cell texts); row 0 the header
        self._cell = None
        self._row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "img" and "plot" in (a.get("class") or "").split():
            self.imgs[a.get("id")] = a
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self._row = []
            self.tables[-1].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def fail(msg):
    sys.exit("report_dom: " + msg)


def main(argv):
    path, rest = argv[0], argv[1:]
    if rest and rest[0] == "--screenshot":
        from PIL import Image
        im = Image.open(rest[1]).convert("RGB")
        w, h = im.size
        px = im.load()
        ink = sum(1 for y in range(0, h, 2) for x in range(0, w, 2) if min(px[x, y]) < 250)
        frac = ink / ((w // 2 + w % 2) * (h // 2 + h % 2))
        colours = len(set(im.resize((w // 4, h // 4)).getdata()))
        print(f"screenshot {w}x{h}: {100 * frac:.1f} % ink, {colours} colours")
        if frac < 0.03 or colours < 20:
            fail(f"{rest[1]}: the page looks blank ({100 * frac:.2f} % ink, {colours} colours)")
        return
    dom = Dom()
    with open(path, encoding="utf-8") as f:
        dom.feed(f.read())
    plots, tables = [], []
    i = 0
    while i < len(rest):
        if rest[i] == "--table":
            tables.append(rest[i + 1])
            i += 2
        else:
            plots.append(rest[i])
            i += 1
    decoded = dom.body.get("data-plots-decoded")
    if decoded is None:
        fail("the page's script did not run (no data-plots-decoded on <body>)")
    n = len(dom.imgs)
    if decoded != f"{n}/{n}":
        fail(f"only {decoded} plots decoded")
    for pid in plots:
        im = dom.imgs.get(pid)
        if im is None:
            fail(f"no plot {pid} (plots: {', '.join(sorted(k for k in dom.imgs if k))})")
        w, h = int(im.get("data-natural-width", "0")), int(im.get("data-natural-height", "0"))
        ink = float(im.get("data-ink", "-1"))
        if im.get("data-decoded") != "1" or w < 200 or h < 100:
            fail(f"{pid}: not decoded or too small ({w}x{h})")
        if ink < 0.02:
            fail(f"{pid}: {w}x{h} but almost blank (ink {ink})")
        print(f"{pid}: {w}x{h}, ink {100 * ink:.1f} %")
    extra = sorted(set(dom.imgs) - set(plots))
    if extra:
        fail(f"plots not expected by the test: {', '.join(extra)}")
    # --table "OP Type=Add:count=2": a table with those columns has a row whose OP Type is Add and
    # whose count is 2.
    for spec in tables:
        key, want = spec.split(":", 1)
        kcol, kval = key.split("=", 1)
        wcol, wval = want.split("=", 1)
        found = None
        for t in dom.tables:
            if not t or kcol not in t[0] or wcol not in t[0]:
                continue
            ki, wi = t[0].index(kcol), t[0].index(wcol)
            for row in t[1:]:
                if len(row) > max(ki, wi) and row[ki] == kval:
                    found = row[wi]
        if found is None:
            fail(f"no table row with {kcol} = {kval} and a {wcol} column")
        if found != wval:
            fail(f"{kcol} = {kval}: {wcol} is {found!r}, expected {wval!r}")
        print(f"table: {kcol} = {kval}: {wcol} = {found}")


if __name__ == "__main__":
    main(sys.argv[1:])
