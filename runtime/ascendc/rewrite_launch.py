#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Rewrites an Ascend C kernel source so the host compiler accepts it (npusim toolchain step).

  Name<<<blockDim, l2ctrl, stream>>>(args...)
      -> ::npusim::ascendc::launch(Name, "Name", blockDim, l2ctrl, stream, args...)
  Name<T, 4><<<...>>>(args...)  ->  ::npusim::ascendc::launch(Name<T, 4>, "Name", ...)
  Name<<<blockDim, l2ctrl>>>(...) or Name<<<blockDim>>>(...)  ->  the omitted l2ctrl and stream
                                          are nullptr (the default stream)
  asm volatile(...) / __asm__ __volatile__(...)  ->  asm(...)   (kernel_operator.h maps asm)
  __global__ __vector__ (or __cube__) kernel bodies  ->  `::npusim::ascendc::kernel_core("AIV")`
                                          first (its printf lines name the core)
  __global__ __mix__(c, v) kernel bodies  ->  `::npusim::ascendc::kernel_mix(c, v)` first (the
                                          launch runs its AIC and AIV sub-blocks: mix_launch.h)
  a kernel parameter `__kfc_workspace__ ... name`  ->  `::AscendC::SetSysWorkspace(...name)` at
                                          the body's start (the system workspace, as CANN's
                                          compiler binds it: npusim/ascendc/sys_workspace.h)
  every __global__ kernel definition  ->  NPUSIM_REGISTER_KERNEL_AS(Name, ns::Name) appended
                                          at the end of the file (see npusim/ascendc/launch.h)

Line numbers are preserved: the output starts with `#line 1 "<source>"` and no rewrite adds or
removes a newline before the appended registrations, so diagnostics point at the original file.
Includes relative to the source's directory need `-I<source dir>` when compiling the output.

usage: rewrite_launch.py SOURCE OUTPUT
"""
import re
import sys

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)*")
_ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b(\s+(?:volatile|__volatile__|__volatile)\b)?(\s*)\(")
_NAMESPACE = re.compile(r"\bnamespace\s+([A-Za-z_][A-Za-z0-9_:\s]*?)?\s*\{")


def mask(text):
    """Returns text with comments and string/char literals replaced by spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if c == '"' and i > 0 and text[i - 1] == "R":  # raw strings: keep it simple
                end = text.find(')"', i)
                j = n if end < 0 else end + 2
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def matching(masked, start, open_ch, close_ch):
    """Index of the bracket closing the one at `start`, or -1."""
    depth = 0
    for i in range(start, len(masked)):
        if masked[i] == open_ch:
            depth += 1
        elif masked[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


def template_args_start(head):
    """Index of the `<` opening the template arguments `head` ends with, else len(head)."""
    if not head.endswith(">"):
        return len(head)
    depth = 0
    for i in range(len(head) - 1, -1, -1):
        if head[i] == ">":
            depth += 1
        elif head[i] == "<":
            depth -= 1
            if depth == 0:
                return i
    return len(head)


def find_launches(masked):
    """Yields (name_start, name, cfg_span, args_span, end) for each `Name<<<...>>>(...)`."""
    pos = 0
    while True:
        lt = masked.find("<<<", pos)
        if lt < 0:
            return
        pos = lt + 3
        head = masked[:lt].rstrip()
        targs = template_args_start(head)  # K<T, 4><<<...>>>: a template kernel
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)*)$",
                      head[:targs].rstrip())
        if not m:
            continue
        depth, gt = 0, -1
        for i in range(lt + 3, len(masked)):
            ch = masked[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif depth == 0 and masked.startswith(">>>", i):
                gt = i
                break
        if gt < 0:
            continue
        paren = gt + 3
        while paren < len(masked) and masked[paren].isspace():
            paren += 1
        if paren >= len(masked) or masked[paren] != "(":
            continue
        close = matching(masked, paren, "(", ")")
        if close < 0:
            continue
        callee = re.sub(r"\s+", "", m.group(1)) + re.sub(r"\s+", " ", head[targs:]).strip()
        yield m.start(1), callee, (lt + 3, gt), (paren + 1, close), close + 1
        pos = close + 1


def config_count(masked_cfg):
    """How many launch-configuration arguments `n, l2ctrl, stream` holds (top-level commas)."""
    depth, count = 0, 1
    for ch in masked_cfg:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count


def top_level_args(masked_args, text_args):
    """The call's argument expressions (split at commas outside brackets)."""
    depth, start, out = 0, 0, []
    for i, ch in enumerate(masked_args):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text_args[start:i].strip())
            start = i + 1
    if text_args[start:].strip():
        out.append(text_args[start:].strip())
    return out


def rewrite_launches(text, exact_templates=False, core_kinds=None):
    """exact_templates: a template kernel (`K<T><<<...>>>(a, b)`) is named as the specialization
    taking exactly the arguments' types (`kernel_taking<decltype(a), decltype(b)>(K<T>)`), which
    picks one of overloaded kernel templates (CATLASS's KernelAdapter).
    core_kinds: None, or (a source built once per core type) {kernel name: CorePassKind} of the
    kernels declared __mix__ / __cube__ / __vector__; every launch then becomes
    `::npusim::ascendc::launch_passes<&K>(::npusim::ascendc::pass_kind_..., "K", n, l2ctrl,
    stream, args...)` (core_pass.h; a kernel not in the map is kPassImplicit)."""
    masked = mask(text)
    out, last = [], 0
    for start, name, (c0, c1), (a0, a1), end in find_launches(masked):
        cfg = text[c0:c1]
        args = text[a0:a1]
        # Whitespace/newlines between the pieces that the new text drops: keep their newlines.
        dropped = text[start:c0] + text[c1:a0]
        newlines = "\n" * dropped.count("\n")
        base = name.split("<", 1)[0].split("::")[-1]
        cfg += ", nullptr" * max(0, 3 - config_count(masked[c0:c1]))  # default l2ctrl, stream
        kernel = name
        if exact_templates and "<" in name:
            types = ", ".join("decltype(%s)" % a for a in top_level_args(masked[a0:a1], args))
            kernel = "::npusim::ascendc::kernel_taking<%s>(%s)" % (types, name)
        if core_kinds is not None:
            call = "::npusim::ascendc::launch_passes<%s>(::npusim::ascendc::%s, \"%s\", %s" % (
                kernel if kernel != name else "&" + name,
                KIND_TAGS[core_kinds.get(base, KIND_IMPLICIT)], base, cfg)
        else:
            call = "::npusim::ascendc::launch(%s, \"%s\", %s" % (kernel, base, cfg)
        if args.strip():
            call += ", " + args
        out.append(text[last:start])
        out.append(call + newlines + ")")
        last = end
    out.append(text[last:])
    return "".join(out)


def rewrite_asm(text):
    masked = mask(text)
    out, last = [], 0
    for m in _ASM.finditer(masked):
        out.append(text[last:m.start()])
        out.append("asm" + "\n" * text[m.start():m.end()].count("\n") + "(")
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def namespace_at(masked, pos):
    """Namespace path enclosing `pos`, or None when inside a non-namespace brace (class, body)."""
    stack = []  # one entry per open brace: namespace name, "" (anonymous) or None (other)
    ns_braces = {}
    for m in _NAMESPACE.finditer(masked, 0, pos):
        ns_braces[m.end() - 1] = re.sub(r"\s+", "", m.group(1) or "")
    for i in range(pos):
        ch = masked[i]
        if ch == "{":
            stack.append(ns_braces.get(i))
        elif ch == "}" and stack:
            stack.pop()
    if any(s is None for s in stack):
        return None
    return [s for s in stack if s]


def global_functions(masked):
    """Yields (start, paren, close, brace) for each `__global__` function: the keyword's index,
    its parameter list's parentheses and the body's opening brace (-1 for a declaration)."""
    for m in re.finditer(r"\b__global__\b", masked):
        paren = masked.find("(", m.end())
        if paren >= 0 and re.search(r"\b__mix__\s*$", masked[m.end():paren]):
            mix_close = matching(masked, paren, "(", ")")  # __mix__(c, v) is not the parameters
            paren = masked.find("(", mix_close + 1) if mix_close >= 0 else -1
        close = matching(masked, paren, "(", ")") if paren >= 0 else -1
        if close < 0:
            continue
        brace = close + 1
        while brace < len(masked) and masked[brace] not in "{;":
            brace += 1
        yield m.start(), paren, close, brace if masked.startswith("{", brace) else -1


def find_kernels(text):
    """Qualified names of the __global__ kernels defined (not just declared) in the source."""
    masked = mask(text)
    kernels = []
    for start, paren, close, brace in global_functions(masked):
        head = masked[start + len("__global__"):paren]
        if "<" in head or re.search(r"\btemplate\b", masked[max(0, start - 200):start]):
            continue  # template kernels cannot be registered by name
        name = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", head)
        if not name or brace < 0 or masked[close + 1:brace].strip():
            continue  # a declaration
        path = namespace_at(masked, start)
        if path is None:
            continue
        kernels.append((name.group(1), "::".join(path + [name.group(1)])))
    return kernels


_CORE_QUALIFIERS = (("__vector__", "AIV"), ("__cube__", "AIC"))
_KFC = re.compile(r"\b__kfc_workspace__\b[^,]*?([A-Za-z_][A-Za-z0-9_]*)\s*$")


def kfc_workspace(params):
    """The name of the parameter declared __kfc_workspace__ in a parameter list, or None."""
    for param in params.split(","):
        m = _KFC.search(param.strip())
        if m:
            return m.group(1)
    return None
_MIX = re.compile(r"\b__mix__\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)")


def insert_kernel_cores(text):
    """After the opening brace of every __global__ kernel declared __vector__, __cube__ or
    __mix__(c, v) (CANN 9), inserts a call naming its core (kernel printf lines say
    "[AIV Block ...]") or its sub-blocks, on the same line.
    Kernels without the qualifier are left exactly as written."""
    masked = mask(text)
    inserts = []
    for start, paren, close, brace in global_functions(masked):
        head = masked[max(masked.rfind(c, 0, start) for c in ";{}>") + 1:paren]
        core = next((name for q, name in _CORE_QUALIFIERS if re.search(r"\b%s\b" % q, head)), None)
        mix = _MIX.search(head)
        if mix is not None and brace >= 0:
            inserts.append((brace + 1, " ::npusim::ascendc::kernel_mix(%s, %s);" % mix.groups()))
        elif core is not None and brace >= 0:
            inserts.append((brace + 1, ' ::npusim::ascendc::kernel_core("%s");' % core))
        kfc = kfc_workspace(masked[paren + 1:close])
        if kfc is not None and brace >= 0:
            inserts.append((brace + 1, " ::AscendC::SetSysWorkspace("
                            "reinterpret_cast<GM_ADDR>(%s));" % kfc))
    for pos, code in reversed(inserts):
        text = text[:pos] + code + text[pos:]
    return text


# core_pass.h's CorePassKind.
KIND_MIX, KIND_IMPLICIT, KIND_AIC, KIND_AIV = 0, 1, 2, 3
KIND_TAGS = ("pass_kind_mix", "pass_kind_implicit", "pass_kind_aic", "pass_kind_aiv")


def core_kinds(text):
    """{kernel name: CorePassKind} of the __global__ kernels in text declared __mix__(c, v),
    __cube__ or __vector__ (a per-core build's launches say which build a block runs)."""
    masked = mask(text)
    kinds = {}
    for start, paren, close, brace in global_functions(masked):
        head = masked[max(masked.rfind(c, 0, start) for c in ";{}>") + 1:paren]
        name = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", masked[start:paren])
        if name is None:
            continue
        if _MIX.search(head):
            kinds[name.group(1)] = KIND_MIX
        elif re.search(r"\b__cube__\b", head):
            kinds[name.group(1)] = KIND_AIC
        elif re.search(r"\b__vector__\b", head):
            kinds[name.group(1)] = KIND_AIV
    return kinds


# g_coreType where only a constant will do: `if constexpr (... g_coreType ...)`,
# `static_assert(... g_coreType ...)`, a template argument `<g_coreType` / `g_coreType>`.
_CONSTANT_CORE = re.compile(r"\bconstexpr\s*\([^;{}]*\bg_coreType\b|\bstatic_assert\s*\([^;{}]*"
                            r"\bg_coreType\b|<\s*g_coreType\b|\bg_coreType\s*>(?!=)")


def constant_core_type(text):
    """The first line (1-based) of text using g_coreType as a compile-time constant, or 0."""
    masked = mask(text)
    m = _CONSTANT_CORE.search(masked)
    return masked.count("\n", 0, m.start()) + 1 if m else 0


def class_scope_specialization(text):
    """The first line (1-based) of text with an explicit specialization in class scope
    (`template <>` inside a class body: g++ rejects it, CWG 727), or 0."""
    masked = mask(text)
    if not re.search(r"\btemplate\s*<\s*>", masked):
        return 0
    opens = {m.end() - 1 for m in _NAMESPACE.finditer(masked)}
    opens |= {m.end() - 1 for m in re.finditer(r"\bextern\s*\{", masked)}  # extern "C" {
    specs = [m.start() for m in re.finditer(r"\btemplate\s*<\s*>", masked)]
    stack, k = [], 0
    for i, ch in enumerate(masked):
        while k < len(specs) and specs[k] == i:
            if not all(stack):
                return masked.count("\n", 0, i) + 1
            k += 1
        if ch == "{":
            stack.append(i in opens)
        elif ch == "}" and stack:
            stack.pop()
    return 0


def rewrite(text, source_path, kinds=None):
    """kinds: None, or the CorePassKind map of a source built once per core type (see
    rewrite_launches)."""
    body = rewrite_asm(rewrite_launches(insert_kernel_cores(text), core_kinds=kinds))
    lines = ['#line 1 "%s"\n' % source_path.replace("\\", "\\\\").replace('"', '\\"'), body]
    if not body.endswith("\n"):
        lines.append("\n")
    kernels = find_kernels(text)
    if kernels:
        lines.append("// npusim: kernel registrations for the binary path\n")
        for name, qualified in kernels:
            if kinds is None:
                lines.append("NPUSIM_REGISTER_KERNEL_AS(%s, %s)\n" % (name, qualified))
            else:  # a per-core build (npusim/ascendc/core_pass.h)
                lines.append("NPUSIM_REGISTER_KERNEL_PASSES(%s, %s, %d)\n" %
                             (name, qualified, kinds.get(name, KIND_IMPLICIT)))
    return "".join(lines)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(rewrite(text, argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
