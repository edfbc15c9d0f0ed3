# SPDX-License-Identifier: Apache-2.0
"""A small builder for npusim replay traces (format: traces/README.md).

    g = Graph("name", "description", seed=1)
    x = g.tensor("x", [512, 1024], "float16", role="input")
    y = g.op("Gelu", [x], g.tensor("y", [512, 1024], "float16"))
    g.write("traces/x.yaml")

Tensors are written one per line in YAML flow style, ops likewise, so the generated files stay
readable and diff well. No dependency beyond the Python standard library.
"""
import json


def _scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if v is None:
        return "~"
    s = str(v)
    if s and (s[0].isalnum() or s[0] in "_") and all(c.isalnum() or c in "_.-@" for c in s):
        return s
    return json.dumps(s)


def _flow(v):
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return _scalar(v)


class Graph:
    def __init__(self, name, description, seed=1, params=None):
        self.name, self.description, self.seed = name, description, seed
        self.params = params or {}
        self.tensors = []       # dicts, in declaration order
        self.names = set()
        self.items = []         # op dicts, or ("repeat", count, [op dicts])
        self._block = None

    def tensor(self, name, shape, dtype, role="intermediate", **extra):
        if name in self.names:
            raise ValueError("duplicate tensor " + name)
        self.names.add(name)
        t = {"name": name, "shape": list(shape), "dtype": dtype}
        if role != "intermediate":
            t["role"] = role
        t.update(extra)
        self.tensors.append(t)
        return name

    def view(self, name, base, shape, offset=0, per_layer=False):
        base_t = next(t for t in self.tensors if t["name"] == base)
        extra = {"view_of": base}
        if offset:
            extra["offset"] = offset
        if per_layer:
            extra["per_layer"] = True
        return self.tensor(name, shape, base_t["dtype"], **extra)

    def op(self, type_, inputs, outputs, name=None, **attrs):
        o = {"type": type_}
        if name:
            o["name"] = name
        o["inputs"] = list(inputs)
        o["outputs"] = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        o.update(attrs)
        (self._block if self._block is not None else self.items).append(o)
        return o["outputs"][0]

    def begin_repeat(self, count):
        self._block = []
        self.items.append(("repeat", count, self._block))

    def end_repeat(self):
        self._block = None

    def text(self, header):
        lines = [f"# {line}" if line else "#" for line in header.splitlines()]
        lines += [f"name: {_scalar(self.name)}", f"description: {_scalar(self.description)}",
                  f"seed: {self.seed}"]
        if self.params:
            lines.append("params: " + _flow(self.params))
        lines.append("tensors:")
        lines += ["  - " + _flow(t) for t in self.tensors]
        lines.append("ops:")
        for item in self.items:
            if isinstance(item, tuple):
                _, count, ops = item
                lines.append(f"  - repeat: {_scalar(count)}")
                lines.append("    ops:")
                lines += ["      - " + _flow(o) for o in ops]
            else:
                lines.append("  - " + _flow(item))
        return "\n".join(lines) + "\n"

    def write(self, path, header):
        with open(path, "w") as f:
            f.write(self.text(header))
