#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""BERT-Large encoder layer traces: batch 1, sequence 512, hidden 1024, 16 heads, FFN 4096.

    python3 traces/gen/bert.py traces/     # writes the three variants

- unfused (fp16, fp32): Q/K/V projections (Matmul with PyTorch-layout weights, transpose_b, and
  a separate bias Add), heads split by Permute, scores by BatchMatMul, scaled by Mul, an
  additive attention mask by Add, Softmax, context by BatchMatMul, heads merged by Permute,
  output projection + bias + residual Add, LayerNorm without weights followed by separate
  elementwise Mul (gamma) and Add (beta); FFN Matmul + bias, Gelu, Matmul + bias, residual,
  LayerNorm the same way.
- fused (fp16): the projections, then one FlashAttentionScore (layout BSH, 16 heads, scale
  1/8) on the Q/K/V buffers as they are, and LayerNorm with its weight and bias inside.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracegen import Graph  # noqa: E402

S, H, N, D, F = 512, 1024, 16, 64, 4096


def layer(dtype, fused):
    kind = "fused" if fused else "unfused"
    g = Graph(f"bert_large_layer_{dtype}_{kind}",
              f"BERT-Large encoder layer, batch 1, seq {S}, {dtype}, {kind}", seed=2024)
    x = g.tensor("x", [S, H], dtype, role="input")
    w = {}
    for p in ("q", "k", "v", "o"):
        w[p] = g.tensor(f"w_{p}", [H, H], dtype, role="weight", init={"low": -0.05, "high": 0.05})
        w["b" + p] = g.tensor(f"b_{p}", [H], dtype, role="weight", init={"low": -0.05, "high": 0.05})
    w1 = g.tensor("w_1", [F, H], dtype, role="weight", init={"low": -0.05, "high": 0.05})
    b1 = g.tensor("b_1", [F], dtype, role="weight", init={"low": -0.05, "high": 0.05})
    w2 = g.tensor("w_2", [H, F], dtype, role="weight", init={"low": -0.05, "high": 0.05})
    b2 = g.tensor("b_2", [H], dtype, role="weight", init={"low": -0.05, "high": 0.05})
    ln = {}
    for i in (1, 2):
        ln[f"g{i}"] = g.tensor(f"ln{i}_gamma", [H], dtype, role="weight", init={"low": 0.9, "high": 1.1})
        ln[f"b{i}"] = g.tensor(f"ln{i}_beta", [H], dtype, role="weight", init={"low": -0.1, "high": 0.1})

    def linear(name, inp, weight, bias, rows, cols):
        mm = g.op("Matmul", [inp, weight], g.tensor(f"{name}_mm", [rows, cols], dtype),
                  name=f"{name}_matmul", transpose_b=True)
        return g.op("Add", [mm, bias], g.tensor(name, [rows, cols], dtype), name=f"{name}_bias")

    def layer_norm(name, inp, i, out_role="intermediate"):
        if fused:
            return g.op("LayerNorm", [inp, ln[f"g{i}"], ln[f"b{i}"]],
                        g.tensor(name, [S, H], dtype, role=out_role), name=name, eps=1e-12)
        n = g.op("LayerNorm", [inp], g.tensor(f"{name}_norm", [S, H], dtype), name=name, eps=1e-12)
        s = g.op("Mul", [n, ln[f"g{i}"]], g.tensor(f"{name}_scaled", [S, H], dtype), name=f"{name}_gamma")
        return g.op("Add", [s, ln[f"b{i}"]], g.tensor(name, [S, H], dtype, role=out_role), name=f"{name}_beta")

    q = linear("q", x, w["q"], w["bq"], S, H)
    k = linear("k", x, w["k"], w["bk"], S, H)
    v = linear("v", x, w["v"], w["bv"], S, H)
    if fused:
        q3, k3, v3 = (g.view(f"{t}_bsh", t, [1, S, H]) for t in (q, k, v))
        attn = g.tensor("attn", [1, S, H], dtype)
        smax = g.tensor("softmax_max", [1, N, S, 8], "float32")
        ssum = g.tensor("softmax_sum", [1, N, S, 8], "float32")
        g.op("FlashAttentionScore", [q3, k3, v3], [attn, smax, ssum], name="attention",
             head_num=N, input_layout="BSH", scale=0.125)
        ctx = g.view("ctx", attn, [S, H])
    else:
        mask = g.tensor("attn_mask", [1, 1, S], dtype, role="input", init="zeros")
        scale = g.tensor("scale", [1], dtype, role="weight", init={"value": 0.125})
        qh = g.op("Permute", [g.view("q4", q, [1, S, N, D])], g.tensor("q_heads", [1, N, S, D], dtype),
                  name="q_split_heads", dims=[0, 2, 1, 3])
        kt = g.op("Permute", [g.view("k4", k, [1, S, N, D])], g.tensor("k_heads_t", [1, N, D, S], dtype),
                  name="k_split_heads", dims=[0, 2, 3, 1])
        vh = g.op("Permute", [g.view("v4", v, [1, S, N, D])], g.tensor("v_heads", [1, N, S, D], dtype),
                  name="v_split_heads", dims=[0, 2, 1, 3])
        scores = g.op("BatchMatMul", [g.view("q_heads3", qh, [N, S, D]), g.view("k_heads_t3", kt, [N, D, S])],
                      g.tensor("scores", [N, S, S], dtype), name="qk")
        scaled = g.op("Mul", [scores, scale], g.tensor("scores_scaled", [N, S, S], dtype), name="scale")
        masked = g.op("Add", [scaled, mask], g.tensor("scores_masked", [N, S, S], dtype), name="mask")
        probs = g.op("Softmax", [masked], g.tensor("probs", [N, S, S], dtype), name="softmax", dim=-1)
        c3 = g.op("BatchMatMul", [probs, g.view("v_heads3", vh, [N, S, D])],
                  g.tensor("ctx_heads", [N, S, D], dtype), name="pv")
        merged = g.op("Permute", [g.view("ctx_heads4", c3, [1, N, S, D])],
                      g.tensor("ctx_merged", [1, S, N, D], dtype), name="merge_heads", dims=[0, 2, 1, 3])
        ctx = g.view("ctx", merged, [S, H])
    o = linear("attn_out", ctx, w["o"], w["bo"], S, H)
    r1 = g.op("Add", [o, x], g.tensor("residual1", [S, H], dtype), name="residual1")
    h1 = layer_norm("ln1", r1, 1)
    f1 = linear("ffn1", h1, w1, b1, S, F)
    act = g.op("Gelu", [f1], g.tensor("ffn_act", [S, F], dtype), name="gelu")
    f2 = linear("ffn2", act, w2, b2, S, H)
    r2 = g.op("Add", [f2, h1], g.tensor("residual2", [S, H], dtype), name="residual2")
    layer_norm("y", r2, 2, out_role="output")
    return g


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    header = "Generated by traces/gen/bert.py - edit the generator, not this file."
    for dtype, fused in (("float16", False), ("float16", True), ("float32", False)):
        g = layer(dtype, fused)
        short = {"float16": "fp16", "float32": "fp32"}[dtype]
        name = f"bert_large_layer_{short}" + ("_fused" if fused else ("_unfused" if dtype == "float16" else ""))
        g.name = name
        g.write(os.path.join(out, name + ".yaml"), header)


if __name__ == "__main__":
    main()
