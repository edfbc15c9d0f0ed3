#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Shadow copies of a source's own headers that use the Ascend C language (npusim-asc step).

CANN's kernel compiler reads every header of an .asc source in its language; npusim's host
compiler does not. rewrite_launch.py rewrites the source itself; a library of headers (CATLASS
launches its kernels from catlass/gemm/device/*.hpp and marks functions
`__forceinline__[host, aicore]`) needs the same rewrite in its headers. This module:

  1. walks the source's #include lines (quoted: the including file's directory, then -iquote,
     then -I directories; angled: -I directories), conditionals ignored (an over-approximation),
     never entering npusim's own or the system's directories;
  2. rewrites each header that contains a `<<<...>>>` launch or a CCE function-space list
     (`[host, aicore]`, `[aicore]`, `[host]` after a qualifier) with rewrite_launch's launch and
     asm rewrites, the space list dropped;
  3. writes the rewritten copies under SHADOW/<path relative to the include directory it was
     found in> (a `#line` first: diagnostics name the original), their quoted includes that
     resolve next to the original made absolute; the caller puts `-I SHADOW` first.

usage: rewrite_headers.py SOURCE SHADOW [-I DIR | -iquote DIR]...   (prints the headers written)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rewrite_launch  # noqa: E402

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
# A CCE function-space list after a function qualifier: `__forceinline__[host, aicore]`.
_SPACES = re.compile(r"(\b(?:__forceinline__|inline|__aicore__)\s*)\[\s*(?:host|aicore)"
                     r"(?:\s*,\s*(?:host|aicore))*\s*\]")


def rewrite_text(text, kinds=None):
    """The header's text with launches, asm statements and function-space lists rewritten
    (kinds: as rewrite_launch.rewrite_launches' core_kinds)."""
    launches = rewrite_launch.rewrite_launches(_SPACES.sub(r"\1", text), exact_templates=True,
                                               core_kinds=kinds)
    return rewrite_launch.rewrite_asm(launches)


def needs_rewrite(text):
    masked = rewrite_launch.mask(text)
    return "<<<" in masked or _SPACES.search(masked) is not None


def resolve(name, quoted, including_dir, quote_dirs, dirs):
    """(path, include directory it was found in) or (None, None)."""
    candidates = ([including_dir] + quote_dirs if quoted else []) + dirs
    for d in candidates:
        path = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(path):
            return path, d
    return None, None


def walk(source, quote_dirs, dirs):
    """{header path: the include directory it was found in} for every header reachable from
    source through the given directories."""
    found, todo = {}, [source]
    while todo:
        path = todo.pop()
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for kind, name in _INCLUDE.findall(text):
            header, root = resolve(name, kind == '"', os.path.dirname(path), quote_dirs, dirs)
            if header and header not in found:
                found[header] = root
                todo.append(header)
    return found


def header_texts(source, quote_dirs, dirs):
    """{header path: its text} of every header reachable from source (as walk())."""
    texts = {}
    for path in walk(source, quote_dirs, dirs):
        with open(path, encoding="utf-8", errors="replace") as f:
            texts[path] = f.read()
    return texts


def write_shadow(source, shadow, quote_dirs, dirs, kinds=None):
    """Writes the rewritten headers under shadow; returns their original paths. kinds: None, or
    the CorePassKind map of a source built once per core type (rewrite_launch.rewrite)."""
    headers = walk(source, quote_dirs, dirs)
    texts = {}
    for path in headers:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if needs_rewrite(text):
            texts[path] = text
    shadowed = {p: os.path.join(shadow, os.path.relpath(p, headers[p])) for p in texts}
    for path, text in texts.items():
        here = os.path.dirname(path)

        def absolute(m, here=here):
            if m.group(1) != '"':
                return m.group(0)
            near = os.path.normpath(os.path.join(here, m.group(2)))
            if not os.path.isfile(near):
                return m.group(0)
            return m.group(0).replace(m.group(2), shadowed.get(near, near))
        body = _INCLUDE.sub(absolute, rewrite_text(text, kinds))
        os.makedirs(os.path.dirname(shadowed[path]), exist_ok=True)
        out = '#line 1 "%s"\n%s' % (path.replace("\\", "\\\\").replace('"', '\\"'), body)
        old = None
        if os.path.exists(shadowed[path]):
            with open(shadowed[path], encoding="utf-8") as f:
                old = f.read()
        if old != out:  # unchanged copies keep their time stamps (make's dependencies)
            with open(shadowed[path], "w", encoding="utf-8") as f:
                f.write(out)
    return sorted(texts)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    quote_dirs, dirs, i = [], [], 3
    while i + 1 < len(argv):
        (quote_dirs if argv[i] == "-iquote" else dirs).append(argv[i + 1])
        i += 2
    for path in write_shadow(argv[1], argv[2], quote_dirs, dirs):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
