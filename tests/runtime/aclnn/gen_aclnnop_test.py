#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""runtime/aclnn/gen_aclnnop.py: the headers and run-phase definitions it writes from a spec, and
its error for a malformed spec (file:line and what it expected)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "..", "runtime", "aclnn", "gen_aclnnop.py")

SPEC = """# a test spec
header aclnn_demo.h stdbool
| aclnnDemo: a demonstration operator.
op aclnnDemo(const aclTensor* self, bool flag, const aclTensor* aVeryLongParameterNameNumberOne,
    const aclTensor* aVeryLongParameterNameNumberTwo, aclTensor* out)
"""


def run(spec_text, tmp):
    spec = os.path.join(tmp, "spec.txt")
    with open(spec, "w") as f:
        f.write(spec_text)
    return subprocess.run([sys.executable, GEN, spec, os.path.join(tmp, "aclnnop"),
                           os.path.join(tmp, "run.cpp")], capture_output=True, text=True)


def check(ok, what):
    if not ok:
        sys.exit("FAIL: " + what)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        r = run(SPEC, tmp)
        check(r.returncode == 0, "a valid spec is accepted: " + r.stderr)
        header = open(os.path.join(tmp, "aclnnop", "aclnn_demo.h")).read()
        flat = " ".join(header.split()).replace("( ", "(")
        check("#ifndef NPUSIM_ACLNNOP_ACLNN_DEMO_H_" in header, "include guard")
        check("#include <stdbool.h>" in header, "stdbool flag")
        check("/* aclnnDemo: a demonstration operator. */" in header, "users' comment")
        check("ACL_FUNC_VISIBILITY aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor* self, "
              "bool flag, const aclTensor* aVeryLongParameterNameNumberOne, const aclTensor* "
              "aVeryLongParameterNameNumberTwo, aclTensor* out, uint64_t* workspaceSize, "
              "aclOpExecutor** executor);" in flat, "first phase declaration")
        check("ACL_FUNC_VISIBILITY aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, "
              "aclOpExecutor* executor, aclrtStream stream);" in flat, "second phase declaration")
        check(all(len(line) <= 100 for line in header.splitlines()), "lines within 100 columns")
        run_cpp = " ".join(open(os.path.join(tmp, "run.cpp")).read().split()).replace("( ", "(")
        check('#include "aclnnop/aclnn_demo.h"' in run_cpp, "run.cpp includes the header")
        check('return npusim::aclnn::execute("aclnnDemo", workspace, workspaceSize, executor, '
              'stream);' in run_cpp, "run.cpp's second phase calls execute")
        bad = run("header aclnn_x.h\noperator aclnnX(int a)\n", tmp)
        check(bad.returncode != 0 and "spec.txt:2:" in bad.stderr and "expected" in bad.stderr,
              "a malformed line is refused with file:line: " + bad.stderr)
        unclosed = run("header aclnn_x.h\nop aclnnX(int a,\n", tmp)
        check(unclosed.returncode != 0 and "aclnn_x.h" in unclosed.stderr,
              "unclosed parameters are refused: " + unclosed.stderr)
    print("gen_aclnnop: ok")


if __name__ == "__main__":
    main()
