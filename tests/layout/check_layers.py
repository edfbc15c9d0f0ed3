#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the include directions of docs/architecture.md ("What may include what").

Reads every C++ file under sim/, models/, runtime/ and tools/ and reports each #include that
breaks a rule, with file, line and rule. Exit 0: none; 1: some (listed); 2: usage.

  check_layers.py [REPO_ROOT]
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
SOURCES = (".h", ".hpp", ".cpp", ".cc", ".in")
# The runtime's libraries: folders over the core. The core names none of them.
LIBRARIES = ["acl", "prof", "dump", "tdt", "hccl", "dvpp", "aclnn", "backend", "securec", "rtc"]
# What a library may include of another library, and why.
LIBRARY_USES = {
    ("aclnn", "dump"),  # an operator's inputs and outputs are dumped around its kernels
}
# The only runtime file that builds the simulated chip (SystemC and the hardware models).
SIM_BACKEND = "runtime/backend/sim_backend.cpp"


def files(root, top):
    for base, dirs, names in os.walk(os.path.join(root, top)):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(SOURCES):
                path = os.path.join(base, n)
                yield os.path.relpath(path, root).replace(os.sep, "/")


def includes(root, path):
    text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
    for m in INCLUDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)


def systemc_headers(root):
    """models/ headers that include SystemC or TLM, directly or through other headers."""
    direct, edges = set(), {}
    for path in files(root, "models"):
        if not path.endswith(".h"):
            continue
        edges[path] = []
        for _, kind, inc in includes(root, path):
            if kind == "<" and (inc.startswith("systemc") or inc.startswith("tlm")):
                direct.add(path)
            elif kind == '"' and inc.startswith(("models/", "sim/")):
                edges[path].append(inc)
    for path in files(root, "sim"):
        if path.endswith(".h") and any(k == "<" and i.startswith(("systemc", "tlm"))
                                       for _, k, i in includes(root, path)):
            direct.add(path)
    heavy, changed = set(direct), True
    while changed:
        changed = False
        for h, incs in edges.items():
            if h not in heavy and any(i in heavy for i in incs):
                heavy.add(h)
                changed = True
    return heavy


def folder(path):
    """runtime/<folder>/... -> <folder>; None outside runtime/ or for files directly in it."""
    parts = path.split("/")
    return parts[1] if parts[0] == "runtime" and len(parts) > 2 else None


def rule_for(path, kind, inc, heavy):
    """The rule `path` breaks by including `inc`, or None."""
    top = path.split("/")[0]
    if top == "sim" and inc.startswith(("models/", "runtime/", "tools/")):
        return "sim/ includes no layer above it"
    if top == "models" and inc.startswith(("runtime/", "tools/")):
        return "models/ includes neither runtime/ nor tools/"
    if top == "runtime" and inc.startswith("tools/"):
        return "runtime/ includes nothing of tools/"
    if top != "runtime" or path == SIM_BACKEND:
        return None
    if kind == "<" and (inc.startswith("systemc") or inc.startswith("tlm")):
        return "only " + SIM_BACKEND + " includes SystemC"
    if inc in heavy:
        return "only " + SIM_BACKEND + " includes a SystemC model header (" + inc + ")"
    mine, theirs = folder(path), folder(inc) if inc.startswith("runtime/") else None
    if theirs is None or theirs == mine or theirs not in LIBRARIES:
        return None
    if mine in ("core", "session", "ascendc"):
        return "runtime/" + mine + "/ names no library (runtime/core/library.h registers them)"
    if mine in LIBRARIES and (mine, theirs) not in LIBRARY_USES:
        return "library " + mine + " includes library " + theirs + " (not in LIBRARY_USES)"
    return None


def check(root):
    heavy = systemc_headers(root)
    broken = []
    for top in ("sim", "models", "runtime", "tools"):
        for path in files(root, top):
            for line, kind, inc in includes(root, path):
                why = rule_for(path, kind, inc, heavy)
                if why:
                    broken.append(f"{path}:{line}: #include {inc}: {why}")
    return broken


def main(argv):
    if len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    broken = check(root)
    for b in broken:
        print(b)
    print(f"layers: {len(broken)} include(s) against the rules")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
