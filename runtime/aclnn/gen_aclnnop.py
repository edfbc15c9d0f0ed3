#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the public operator headers (include/aclnnop/aclnn_*.h) from aclnnop_spec.txt.

Every aclnn operator has the same two-phase C interface: <op>GetWorkspaceSize(<op's parameters>,
uint64_t* workspaceSize, aclOpExecutor** executor) checks the arguments and plans a single-use
executor; <op>(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream
stream) launches it. So the spec lists only what differs per header (its users' comment, the
operators and their own parameters) and this script writes the rest, as CANN generates its
operator headers from the operator definitions.

The build runs it (runtime/aclnn/CMakeLists.txt):  gen_aclnnop.py SPEC OUTPUT_DIR
gen_unsupported.py imports it (headers()) for the test that every declared operator links.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "aclnnop_spec.txt")
WORKSPACE = ["uint64_t* workspaceSize", "aclOpExecutor** executor"]
RUN = ["void* workspace", "uint64_t workspaceSize", "aclOpExecutor* executor", "aclrtStream stream"]


def parse(path=SPEC):
    """[(file name, flags, comment lines, [(operator, [parameters])])] in the spec's order."""
    headers, op = [], None
    for number, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if op is not None and line.startswith("    "):  # an operator's continued parameters
            op[1] += " " + line.strip()
            continue
        op = None
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "header":
            name, *flags = rest.split()
            headers.append((name, set(flags), [], []))
        elif word == "|" or line == "|":
            headers[-1][2].append(rest)
        elif word == "op" and "(" in rest:
            op = [rest[:rest.index("(")], rest[rest.index("(") + 1:]]
            headers[-1][3].append(op)
        else:
            sys.exit(f"{path}:{number}: expected 'header', '|' or 'op NAME(PARAMS)': {line}")
    for name, _, _, ops in headers:
        if not all(p.endswith(")") for _, p in ops):
            sys.exit(f"{path}: {name}: an operator's parameters do not end with ')'")
    return [(n, f, c, [(o, split_params(p[:-1])) for o, p in ops]) for n, f, c, ops in headers]


def split_params(text):
    return [p.strip() for p in text.split(",") if p.strip()]


def declaration(name, params):
    """One declaration, wrapped at parameters to stay within 100 columns."""
    head = f"ACL_FUNC_VISIBILITY aclnnStatus {name}("
    line = head + ", ".join(params) + ");"
    if len(line) <= 100:
        return [line]
    aligned = pack(params, " " * len(head), head)
    if all(len(l) <= 100 for l in aligned):
        return aligned
    return [head] + pack(params, "    ", "    ")


def pack(params, indent, first):
    """Parameters filled into lines of at most 100 columns; `first` begins the first line."""
    lines, cur = [], first
    for i, p in enumerate(params):
        word = p + (");" if i == len(params) - 1 else ",")
        if cur == first:
            cur += word
        elif len(cur) + 1 + len(word) > 100:
            lines.append(cur)
            cur = indent + word
        else:
            cur += " " + word
    return lines + [cur]


def render(name, flags, comment, ops):
    guard = "NPUSIM_ACLNNOP_" + name.upper().replace(".", "_") + "_"
    text = ["/* SPDX-License-Identifier: Apache-2.0 */",
            "/* " + comment[0]] + [(" * " + l).rstrip() for l in comment[1:]]
    text[-1] += " */"
    text += [f"/* Generated from runtime/aclnn/aclnnop_spec.txt by gen_aclnnop.py. */",
             f"#ifndef {guard}", f"#define {guard}", ""]
    text += ["#include <stdbool.h>", ""] if "stdbool" in flags else []
    text += ['#include "aclnn/acl_meta.h"', "", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for op, params in ops:
        text += declaration(op + "GetWorkspaceSize", params + WORKSPACE)
        text += declaration(op, RUN)
    text += ["", "#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
    return "\n".join(text)


def headers(path=SPEC):
    """{file name: text} of every header the spec describes."""
    return {h[0]: render(*h) for h in parse(path)}


def write(path, text):
    """Writes only a changed file (what includes it is not rebuilt), renamed into place."""
    if os.path.exists(path) and open(path).read() == text:
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: gen_aclnnop.py SPEC OUTPUT_DIR")
    os.makedirs(argv[1], exist_ok=True)
    for name, text in headers(argv[0]).items():
        write(os.path.join(argv[1], name), text)


if __name__ == "__main__":
    main(sys.argv[1:])
