#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates, at build time, acl_unsupported.cpp (the stubs) and api_symbols_test.cpp (the test).

Every function declared in runtime/include/acl/*.h must be exported by libacl_rt.so. The ones
the runtime implements are defined in runtime/*/acl_*.cpp (the C skin and the libraries); this script gives every other one a
definition that logs "npusim: <name> is not supported yet" (once) and returns
ACL_ERROR_RT_FEATURE_NOT_SUPPORT (or NULL / 0xFFFFFFFF / 0 for non-aclError returns), and writes a
test that takes the address of every declared function so a missing one fails to link.

The build runs it (runtime/acl/CMakeLists.txt, tests/runtime/core/CMakeLists.txt) whenever a header
or a C API file changes:  gen_unsupported.py stubs|test OUTPUT.cpp
"""
import glob
import os
import sys
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADERS = sorted(glob.glob(os.path.join(ROOT, "runtime/include/acl/*.h")))
# The operator library's headers: no stubs (every operator declared must be implemented), but the
# symbols test covers them, so a declared operator that is missing fails to link. aclnnop/*.h are
# generated at build time (runtime/aclnn/gen_aclnnop.py): their text comes from the generator.
OP_HEADERS = sorted(glob.glob(os.path.join(ROOT, "runtime/include/aclnn/*.h")))
sys.path.insert(0, os.path.join(ROOT, "runtime/aclnn"))
import gen_aclnnop  # noqa: E402
OP_DECL = re.compile(r"ACL_FUNC_VISIBILITY\s+([^;{}()]*?)\b(acl\w+)\s*\(([^;{}]*?)\)\s*;", re.S)
# Every public ACL header (acl.h first), so each declared type is known to the generated files.
INCLUDES = ['#include "acl/acl.h"'] + [
    f'#include "acl/{os.path.basename(h)}"' for h in HEADERS if os.path.basename(h) != "acl.h"]
DECL = re.compile(r"ACL_FUNC_VISIBILITY\s+([^;{}()]*?)\b(acl\w+)\s*\(([^;{}]*?)\)\s*;", re.S)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declarations(headers=None, texts=()):
    found = {}
    for text in [open(path).read() for path in headers or HEADERS] + list(texts):
        for ret, name, params in DECL.findall(strip_comments(text)):
            found[name] = (" ".join(ret.split()), " ".join(params.split()))
    return found


def defined_in(paths, skip):
    """The acl* functions the files `paths` define; `skip` (the generated file) is not read."""
    names = set()
    for path in paths:
        if os.path.abspath(path) == os.path.abspath(skip):
            continue
        for m in re.finditer(r"^[A-Za-z_][\w\s\*]*?\b(acl\w+)\(", open(path).read(), re.M):
            names.add(m.group(1))
    return names


def implemented(skip):
    return defined_in(glob.glob(os.path.join(ROOT, "runtime/*/acl_*.cpp")), skip)


def signature(ret, name, params):
    """The definition's first line(s), wrapped at parameters to stay within 100 columns."""
    line = f"{ret} {name}({params}) {{"
    if len(line) <= 100:
        return [line]
    parts = [p.strip() for p in split_params(params)]
    return [f"{ret} {name}("] + [f"    {p}," for p in parts[:-1]] + [f"    {parts[-1]}) {{"]


def split_params(params):
    """Splits on top-level commas (function-pointer parameters contain nested ones)."""
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def stub_body(name, ret, code, returns=None):
    """A stub's body: log once and fail with `code`. A function returning neither aclError nor
    void then returns `returns`[its type], else nullptr (a pointer) or 0."""
    call = f'unsupported("{name}", {code})'
    if ret == "aclError":
        return f"  return {call};"
    if ret == "void":
        return f"  {call};"
    value = (returns or {}).get(ret) or ("nullptr" if ret.endswith("*") else "0")
    return f"  {call};\n  return {value};"


def body(name, ret):
    # Exception-info accessors (uint32_t): 0xFFFFFFFF means "no value".
    return stub_body(name, ret, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", {"uint32_t": "0xFFFFFFFFu"})


def write(path, lines):
    """Writes `lines` to `path` only when they changed (the build does not redo what depends on it)."""
    text = "\n".join(lines)
    if os.path.exists(path) and open(path).read() == text:
        return
    tmp = f"{path}.{os.getpid()}.tmp"  # renamed into place: a reader never sees half a file
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def mode_and_path(argv, script):
    """The command line of a generator: stubs|test OUTPUT.cpp."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] not in ("stubs", "test"):
        sys.exit(f"usage: {os.path.basename(script)} stubs|test OUTPUT.cpp")
    return argv


def stub_file(head, decls, stubs, body):
    """The stub file: `head` (comment and include lines), then a definition of every stub."""
    out = head + [
        '#include "runtime/core/api_call.h"',
        "",
        "using npusim::rt::unsupported;",
        "",
        'extern "C" {',
        "",
    ]
    for n in stubs:
        ret, params = decls[n]
        out += signature(ret, n, params) + [body(n, ret), "}", ""]
    return out + ['}  // extern "C"', ""]


def address_test(name, functions):
    """A test taking the address of every function in `functions` (each must link)."""
    return [f"TEST({name}) {{", "  const void* functions[] = {"] + [
        f"      reinterpret_cast<const void*>(&{n})," for n in functions
    ] + ["  };", "  for (const void* f : functions) EXPECT_NE(f, nullptr);",
         f"  EXPECT_EQ(sizeof functions / sizeof functions[0], {len(functions)}u);", "}", ""]


def main(argv=None):
    mode, path = mode_and_path(argv, __file__)
    decls = declarations()
    done = implemented(path)
    stubs = [n for n in sorted(decls) if n not in done]
    out = stub_file([
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by runtime/acl/gen_unsupported.py from runtime/include/acl/*.h: do not edit.",
        "// Every declared function the runtime does not implement yet: it logs once and fails with",
        "// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, so each declared symbol is exported (dlsym finds it).",
    ] + INCLUDES, decls, stubs, body)
    if mode == "stubs":
        write(path, out)
    test = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by runtime/acl/gen_unsupported.py: every function the public headers declare links.",
        "#include <gtest/gtest.h>",
        "",
    ] + INCLUDES
    test += [f'#include "{os.path.relpath(h, os.path.join(ROOT, "runtime/include"))}"'
             for h in OP_HEADERS]
    op_headers = gen_aclnnop.headers()
    test += [f'#include "aclnnop/{name}"' for name in sorted(op_headers)]
    test += [
        "",
        "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"",
        "",
    ]
    test += address_test("ApiSymbols, EveryDeclaredFunctionIsDefined", sorted(decls))
    ops = declarations(OP_HEADERS, op_headers.values())
    test += address_test("ApiSymbols, EveryDeclaredOperatorFunctionIsDefined", sorted(ops))
    if mode == "test":
        write(path, test)
    print(f"{mode}: {len(decls)} declared, {len(decls) - len(stubs)} implemented, {len(stubs)} stubs")


if __name__ == "__main__":
    main()
