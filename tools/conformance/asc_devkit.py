#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Conformance for CANN 9 Ascend C: runs the asc-devkit examples (mirror-cann/asc-devkit,
folder examples/) unmodified against an npusim install tree, each as its README says.

  asc_devkit.py --devkit <checkout or its examples/> --prefix <npusim install prefix>
                [--work DIR] [--only SUBSTRING] [--folders F1,F2,...] [--list] [--timeout S]

A project is a folder whose CMakeLists.txt calls project() (and whose parent's does not). For
each one:
  - not for dav-2201: its README's product table names no Atlas A2/A3 product -> "n/a";
  - data scripts that import torch, tensorflow or ml_dtypes (no Debian package) -> "skip" with
    the reason (numpy only here; when the first python3 on PATH lacks numpy, Debian's
    /usr/bin/python3 is put first);
  - otherwise the README's run block (the ```bash block with `cmake` and `./`) runs, its comments
    and the alternative run-mode lines (-DCMAKE_ASC_RUN_MODE=cpu/sim) left out when the block
    has a cmake line without a run mode (else they are the build), in a copy of the
    project, after `source <prefix>/set_env.sh`; it passes when the block exits 0 and every
    success line of the README's result block (lines with pass/success/Hello, else all its
    lines) is in the output;
  - the architecture: a run block that builds for another architecture
    (-DCMAKE_ASC_ARCHITECTURES=dav-3510) builds for dav-2201 instead when the README names
    dav-2201 (as the default or as supported) -- these projects reach here only when their
    product table lists Atlas A2/A3;
  - wildcards in the README's result lines: a placeholder in angle brackets (`<your_path>`,
    `<line>`: lower-case letters, digits and `_`) matches any text on the line, and a line that
    is only "..." (the README leaving lines out) is dropped: it only says that other lines come
    between. The other expected lines must still each appear in the output, in any order.
  - a run block that calls `msopprof` (not `msopprof simulator`) also needs an OPPROF_* folder
    holding msprof's per-kernel files (OpBasicInfo.csv ... ResourceConflictRatio.csv).
Prints one line per project and, per folder, "<folder>: P passed, F failed, S skipped, N n/a".
Exit status 0 when nothing failed, 1 otherwise, 2 for bad arguments. Fetches nothing.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEFAULT_FOLDERS = ["01_simd_cpp_api/00_introduction", "01_simd_cpp_api/01_utilities",
                   "01_simd_cpp_api/02_features", "01_simd_cpp_api/03_basic_api",
                   "01_simd_cpp_api/04_advanced_api", "02_simd_c_api", "04_aicpu"]
A2_A3 = re.compile(r"Atlas A[23]")
NEEDS = re.compile(r"^\s*(?:import|from)\s+(torch|tensorflow|ml_dtypes)\b", re.M)
SUCCESS = re.compile(r"pass|success|hello", re.I)
PLACEHOLDER = re.compile(r"<[a-z][a-z0-9_]*>")
RUN_MODE = re.compile(r"CMAKE_ASC_RUN_MODE=(cpu|sim)")
OTHER_ARCH = re.compile(r"(-DCMAKE_ASC_ARCHITECTURES=)(?!dav-2201\b)[\w-]+")


def projects(root):
    """Project folders below root, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if "CMakeLists.txt" not in filenames:
            continue
        if not re.search(r"^\s*project\s*\(", read(os.path.join(dirpath, "CMakeLists.txt")), re.M):
            continue
        parent = os.path.join(os.path.dirname(dirpath), "CMakeLists.txt")
        if os.path.exists(parent) and re.search(r"^\s*project\s*\(", read(parent), re.M):
            continue
        found.append(dirpath)
    return found


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def readme(project):
    for name in ("README_en.md", "README.md"):
        path = os.path.join(project, name)
        if os.path.exists(path):
            return read(path)
    return ""


def code_blocks(text):
    """The README's shell and plain-text code blocks (C++ and other languages left out)."""
    blocks = re.findall(r"```([A-Za-z+]*)[^\n]*\n(.*?)```", text, re.S)
    return [body for lang, body in blocks if lang.lower() in ("", "bash", "shell", "sh", "text",
                                                             "plain", "console")]


def run_block(text):
    """(the README's run commands, its expected success lines) or (None, None)."""
    blocks = code_blocks(text)
    for i, block in enumerate(blocks):
        if "cmake" in block and re.search(r"(^|[\s;])\./", block):
            lines = []
            # Run-mode lines are alternatives to a plain cmake line; a block with no other cmake
            # line (06_cpu_debug builds for the CPU only) keeps them.
            plain = [l for l in block.splitlines() if re.search(r"(^|[\s;])cmake\s", l)
                     and not RUN_MODE.search(l) and not l.strip().startswith("#")]
            for line in block.splitlines():
                line = re.sub(r"\s+#.*$", "", line).strip()
                if not line or line.startswith("#") or (plain and RUN_MODE.search(line)):
                    continue
                if "dav-2201" in text:
                    line = OTHER_ARCH.sub(r"\1dav-2201", line)
                lines.append(line)
            expected = expected_lines(blocks[i + 1:])
            return lines, expected
    return None, None


def expected_lines(later_blocks):
    """The README's result: the success lines (pass/success/hello) of the first block after the
    run block that has any, else every line of the first block that runs no command."""
    results = [b for b in later_blocks if "cmake" not in b and "source " not in b]
    for block in results:
        marked = [l.strip() for l in block.splitlines() if SUCCESS.search(l)]
        if marked:
            return marked
    return [l.strip() for l in results[0].splitlines() if l.strip() and l.strip() != "..."] \
        if results else []


def line_pattern(expected):
    """The regular expression an expected line matches: itself, with every placeholder
    (`<your_path>`, `<line>`) matching any text on the same line."""
    parts = PLACEHOLDER.split(expected)
    return re.compile(".*?".join(re.escape(p) for p in parts))


def found(expected, output):
    if not PLACEHOLDER.search(expected):
        return expected in output
    return line_pattern(expected).search(output) is not None


def needs_frameworks(project):
    for dirpath, _, filenames in os.walk(project):
        for name in filenames:
            if name.endswith(".py"):
                m = NEEDS.search(read(os.path.join(dirpath, name)))
                if m:
                    return "%s imports %s" % (os.path.relpath(os.path.join(dirpath, name), project),
                                              m.group(1))
    return None


def numpy_path(work):
    """A PATH line putting a python3 that has numpy first (the data scripts need it), or ""."""
    def has_numpy(python):
        return subprocess.run([python, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    if has_numpy("python3") or not os.path.exists("/usr/bin/python3") or \
            not has_numpy("/usr/bin/python3"):
        return ""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    link = os.path.join(bin_dir, "python3")
    if not os.path.exists(link):
        os.symlink("/usr/bin/python3", link)
    return "export PATH='%s':\"$PATH\"\n" % bin_dir


def first_error(output):
    for line in output.splitlines():
        if re.search(r"error|Error|FAIL|fail", line):
            return line.strip()[:200]
    tail = [l for l in output.splitlines() if l.strip()]
    return tail[-1][:200] if tail else "no output"


def shown(line, output):
    """The README's line is in the output (placeholders as in found()); a line ending in "..."
    (the README eliding the rest, e.g. the first values of a matrix) matches any line starting
    with what comes before it."""
    if line.endswith("...") and line[:-3].strip():
        return found(line[:-3].rstrip(), output)
    return found(line, output)


def judge(project, prefix, work, timeout):
    """('pass'|'fail'|'skip'|'n/a', detail)."""
    text = readme(project)
    if not A2_A3.search(text):
        return "n/a", "no Atlas A2/A3 product in its README"
    reason = needs_frameworks(project)
    if reason:
        return "skip", reason
    commands, expected = run_block(text)
    if not commands:
        return "fail", "README has no run block (cmake ... ./demo)"
    copy = os.path.join(work, os.path.basename(project))
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(project, copy)
    script = "source '%s/set_env.sh'\n%s%s\n" % (prefix, numpy_path(work), "\n".join(commands))
    try:
        p = subprocess.run(["bash", "-c", script], cwd=copy, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "fail", "timed out after %d s" % timeout
    with open(os.path.join(copy, "conformance.log"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    missing = [l for l in expected if not shown(l, p.stdout)]
    if p.returncode != 0:
        return "fail", "exit %d: %s" % (p.returncode, first_error(p.stdout))
    if missing:
        return "fail", "missing output line: %s" % missing[0][:120]
    incomplete = opprof_missing(copy, commands)
    if incomplete:
        return "fail", incomplete
    return "pass", ""


OPPROF_FILES = ["OpBasicInfo.csv", "PipeUtilization.csv", "ArithmeticUtilization.csv",
                "L2Cache.csv", "Memory.csv", "MemoryL0.csv", "MemoryUB.csv",
                "ResourceConflictRatio.csv"]


def opprof_missing(copy, commands):
    """A run block that calls `msopprof` (not its simulator) must leave an OPPROF_* folder with
    msprof's per-kernel files: "" when it does (or does not call it), else what is missing."""
    if not any(re.search(r"\bmsopprof\b(?!\s+simulator)", c) for c in commands):
        return ""
    for dirpath, dirnames, _ in os.walk(copy):
        for d in dirnames:
            if not d.startswith("OPPROF_"):
                continue
            lacking = [f for f in OPPROF_FILES if not os.path.exists(os.path.join(dirpath, d, f))]
            return "%s lacks %s" % (d, ", ".join(lacking)) if lacking else ""
    return "msopprof left no OPPROF_* folder"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devkit", required=True)
    ap.add_argument("--prefix")
    ap.add_argument("--work")
    ap.add_argument("--only", default="")
    ap.add_argument("--folders", default=",".join(DEFAULT_FOLDERS))
    ap.add_argument("--list", action="store_true", help="list the projects and their status only")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    root = a.devkit if os.path.basename(a.devkit.rstrip("/")) == "examples" else \
        os.path.join(a.devkit, "examples")
    if not os.path.isdir(root):
        sys.stderr.write("asc_devkit: %s has no examples/ folder\n" % a.devkit)
        return 2
    if not a.list and (not a.prefix or not os.path.exists(os.path.join(a.prefix, "set_env.sh"))):
        sys.stderr.write("asc_devkit: --prefix must name an npusim install tree (set_env.sh)\n")
        return 2
    work = a.work or tempfile.mkdtemp(prefix="npusim-asc-conformance.")
    os.makedirs(work, exist_ok=True)
    counts = collections.OrderedDict()
    failed = 0
    for folder in a.folders.split(","):
        c = counts.setdefault(folder, collections.Counter())
        for project in projects(os.path.join(root, folder)):
            rel = os.path.relpath(project, root)
            if a.only not in rel:
                continue
            if a.list:
                status, detail = ("n/a", "") if not A2_A3.search(readme(project)) else ("listed", "")
            else:
                status, detail = judge(project, os.path.abspath(a.prefix), work, a.timeout)
            c[status] += 1
            failed += status == "fail"
            print("%-6s %s%s" % (status, rel, "  (" + detail + ")" if detail else ""), flush=True)
    for folder, c in counts.items():
        print("%s: %d passed, %d failed, %d skipped, %d n/a" %
              (folder, c["pass"], c["fail"], c["skip"], c["n/a"]) if not a.list else
              "%s: %d for dav-2201, %d n/a" % (folder, c["listed"], c["n/a"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
