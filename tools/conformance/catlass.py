#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Conformance for CATLASS (CANN's matmul template library, hicann/catlass): builds and runs its
examples unmodified against an npusim install tree, each as its README says.

  catlass.py --catlass <checkout> --prefix <npusim install prefix> [--work DIR]
             [--only SUBSTRING] [--examples E1,E2,...] [--timeout S]

The checkout is copied once to DIR/catlass (it is never written). For each example (default: the
ones issue 26 tracks, in order):
  - data scripts that import torch, tensorflow or ml_dtypes -> "skip" with the reason;
  - a README whose run block defines shell functions (23_flash_attention_infer: build, gen_data,
    run_kernel) runs that block as written from the checkout's root;
  - otherwise the README's run lines from the root, after `bash scripts/build.sh <example>`
    (CATLASS's quick start) when they do not build it themselves;
  all after `source <prefix>/set_env.sh`. An example passes when the commands exit 0 and every
  success line of the README's result block ("Compare success.") is in the output; the first
  error line is the reason of a failure (the whole log is DIR/<example>.log).
Prints one line per example and "catlass: P passed, F failed, S skipped". Exit status 0 when
nothing failed, 1 otherwise, 2 for bad arguments. Fetches nothing.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import asc_devkit  # noqa: E402  (README parsing and judging helpers shared with it)

DEFAULT_EXAMPLES = ["00_basic_matmul", "06_optimized_matmul", "09_splitk_matmul", "15_gemm",
                    "20_matmul_bias", "23_flash_attention_infer"]


def run_commands(example, text):
    """(the shell commands that build and run the example, the expected success lines) or
    (None, None) when the README shows no way to run it."""
    blocks = asc_devkit.code_blocks(text)
    for i, block in enumerate(blocks):
        if not re.search(r"(^|\s)\./%s\b" % re.escape(example), block):
            continue
        expected = asc_devkit.expected_lines(blocks[i + 1:])
        if re.search(r"^\s*function\s+\w+|^\s*\w+\s*\(\)\s*\{", block, re.M):
            return block, expected  # a complete script: build, data and run
        lines = [re.sub(r"\s+#.*$", "", l).strip() for l in block.splitlines()]
        run = [l for l in lines if l and not l.startswith("#")]
        if not any("scripts/build.sh" in l for l in run):
            run.insert(0, "bash scripts/build.sh %s" % example)
        return "\n".join(run), expected
    return None, None


def judge(example, checkout, prefix, work, timeout):
    """('pass'|'fail'|'skip', detail)."""
    project = os.path.join(checkout, "examples", example)
    if not os.path.isdir(project):
        return "fail", "no examples/%s in the checkout" % example
    reason = asc_devkit.needs_frameworks(project)
    if reason:
        return "skip", reason
    commands, expected = run_commands(example, asc_devkit.readme(project))
    if not commands:
        return "fail", "README has no run block (./%s ...)" % example
    script = "set -e\nsource '%s/set_env.sh'\n%s%s\n" % (prefix, asc_devkit.numpy_path(work),
                                                        commands)
    try:
        p = subprocess.run(["bash", "-c", script], cwd=checkout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "fail", "timed out after %d s" % timeout
    with open(os.path.join(work, example + ".log"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        return "fail", "exit %d: %s" % (p.returncode, asc_devkit.first_error(p.stdout))
    missing = [l for l in expected if not asc_devkit.shown(l, p.stdout)]
    if missing:
        return "fail", "missing output line: %s" % missing[0][:120]
    return "pass", ""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--catlass", required=True)
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--work")
    ap.add_argument("--only", default="")
    ap.add_argument("--examples", default=",".join(DEFAULT_EXAMPLES))
    ap.add_argument("--timeout", type=int, default=1800)
    a = ap.parse_args(argv)
    if not os.path.isdir(os.path.join(a.catlass, "examples")) or \
            not os.path.exists(os.path.join(a.catlass, "scripts", "build.sh")):
        sys.stderr.write("catlass: %s is not a CATLASS checkout (examples/, scripts/build.sh)\n"
                         % a.catlass)
        return 2
    if not os.path.exists(os.path.join(a.prefix, "set_env.sh")):
        sys.stderr.write("catlass: --prefix must name an npusim install tree (set_env.sh)\n")
        return 2
    work = os.path.abspath(a.work or tempfile.mkdtemp(prefix="npusim-catlass."))
    os.makedirs(work, exist_ok=True)
    checkout = os.path.join(work, "catlass")
    if not os.path.isdir(checkout):
        shutil.copytree(a.catlass, checkout, symlinks=True,
                        ignore=shutil.ignore_patterns("build", "output"))
    counts = collections.Counter()
    for example in a.examples.split(","):
        if a.only not in example:
            continue
        status, detail = judge(example, checkout, os.path.abspath(a.prefix), work, a.timeout)
        counts[status] += 1
        print("%-6s %s%s" % (status, example, "  (" + detail + ")" if detail else ""), flush=True)
    print("catlass: %d passed, %d failed, %d skipped" %
          (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
