#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""LLaMA-7B-class decoder traces (fp16): hidden 4096, 32 heads of 128, FFN 11008, vocab 32000.

    python3 traces/gen/llama.py traces/

- llama7b_prefill: 512 prompt tokens; per layer the K and V of every position are written into
  the layer's KV cache and attention is causal (FlashAttentionScore with a 512x512 upper-
  triangular mask, 1 = masked); the logits of the last position only.
- llama7b_decode: one new token at position 511 with a KV cache of 512 entries (the 511 earlier
  ones filled at random); its K (after RoPE) and V are written straight into row 511 of the
  layer's caches (views), attention over all 512.

Per layer: RmsNorm, Q/K/V projections (Matmul, PyTorch-layout weights, transpose_b), RoPE
(rotate-half) on Q and K in BSND, FlashAttentionScore (BSH), output projection, residual Add,
RmsNorm, SiLU-gated MLP (gate and up Matmuls, Silu, Mul, down Matmul), residual Add. The
hidden state `h` is one buffer every layer reads and rewrites, so layer i+1 follows layer i.

Layers: `params: {layers: 32}` and a `repeat: layers` block; `npusim replay ... --param layers=2`
runs fewer. To bound memory, all layers share ONE layer's weight tensors (404 MB in fp16);
only the KV caches are per layer (`per_layer: true`: 4 MB each per K or V at 512 tokens). The
token embedding and the LM head (262 MB each) are real-size.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tracegen import Graph  # noqa: E402

H, N, D, F, V, CTX = 4096, 32, 128, 11008, 32000, 512
DT = "float16"


def build(decode):
    s = 1 if decode else CTX
    kind = "decode" if decode else "prefill"
    desc = (f"LLaMA-7B-class decode step, 1 token, KV length {CTX}, fp16" if decode else
            f"LLaMA-7B-class prefill, {CTX} tokens, fp16")
    g = Graph(f"llama7b_{kind}", desc, seed=7, params={"layers": 32})
    w = lambda name, shape: g.tensor(name, shape, DT, role="weight", init={"low": -0.02, "high": 0.02})
    tokens = g.tensor("tokens", [s], "int64", role="input", init={"low": 0, "high": V})
    emb = w("tok_embeddings", [V, H])
    wq, wk, wv, wo = (w(f"w{p}", [H, H]) for p in "qkvo")
    w_gate, w_up, w_down = w("w_gate", [F, H]), w("w_up", [F, H]), w("w_down", [H, F])
    g_attn = g.tensor("attn_norm", [H], DT, role="weight", init={"low": 0.9, "high": 1.1})
    g_mlp = g.tensor("mlp_norm", [H], DT, role="weight", init={"low": 0.9, "high": 1.1})
    g_final = g.tensor("final_norm", [H], DT, role="weight", init={"low": 0.9, "high": 1.1})
    lm_head = w("lm_head", [V, H])
    cos = g.tensor("rope_cos", [1, s, 1, D], DT, role="input", init={"low": -1.0, "high": 1.0})
    sin = g.tensor("rope_sin", [1, s, 1, D], DT, role="input", init={"low": -1.0, "high": 1.0})
    cache_init = {"low": -1.0, "high": 1.0} if decode else "zeros"
    k_cache = g.tensor("k_cache", [1, CTX, H], DT, role="input", init=cache_init, per_layer=True)
    v_cache = g.tensor("v_cache", [1, CTX, H], DT, role="input", init=cache_init, per_layer=True)
    # Where this step's K and V go: every row (prefill) or row 511 (decode).
    row = (CTX - 1) * H if decode else 0
    k_slot = g.view("k_slot", k_cache, [1, s, N, D], offset=row, per_layer=True)
    v_slot = g.view("v_slot", v_cache, [s, H], offset=row, per_layer=True)
    mask = None
    if not decode:
        mask = g.tensor("causal_mask", [CTX, CTX], "uint8", role="input", init={"triu": 1})

    h = g.tensor("h", [s, H], DT)
    g.op("Embedding", [emb, tokens], h, name="embed")

    t = lambda name, shape, dtype=DT: g.tensor(name, shape, dtype)
    hn = t("attn_in", [s, H])
    rstd1 = t("attn_rstd", [s, 1], "float32")
    q, k_raw = t("q", [s, H]), t("k_raw", [s, H])
    q_rot = t("q_rot", [1, s, N, D])
    attn = t("attn", [1, s, H])
    smax, ssum = t("softmax_max", [1, N, s, 8], "float32"), t("softmax_sum", [1, N, s, 8], "float32")
    o, h2 = t("o", [s, H]), t("h2", [s, H])
    hn2, rstd2 = t("mlp_in", [s, H]), t("mlp_rstd", [s, 1], "float32")
    gate, up, gact, act = t("gate", [s, F]), t("up", [s, F]), t("gate_silu", [s, F]), t("act", [s, F])
    down = t("down", [s, H])
    q4, k4 = g.view("q4", q, [1, s, N, D]), g.view("k_raw4", k_raw, [1, s, N, D])
    q_bsh = g.view("q_bsh", q_rot, [1, s, H])
    attn2d = g.view("attn2d", attn, [s, H])

    g.begin_repeat("layers")
    g.op("RmsNorm", [h, g_attn], [hn, rstd1], name="attn_norm", eps=1e-6)
    g.op("Matmul", [hn, wq], q, name="q_proj", transpose_b=True)
    g.op("Matmul", [hn, wk], k_raw, name="k_proj", transpose_b=True)
    g.op("Matmul", [hn, wv], v_slot, name="v_proj", transpose_b=True)
    g.op("RotaryPositionEmbedding", [q4, cos, sin], q_rot, name="rope_q", mode=0)
    g.op("RotaryPositionEmbedding", [k4, cos, sin], k_slot, name="rope_k", mode=0)
    fa_in = [q_bsh, k_cache, v_cache] + ([None, None, None, mask] if mask else [])
    fa = dict(head_num=N, input_layout="BSH", scale=1 / math.sqrt(D))
    if mask:
        fa.update(pre_tokens=65536, next_tokens=0)
    g.op("FlashAttentionScore", fa_in, [attn, smax, ssum], name="attention", **fa)
    g.op("Matmul", [attn2d, wo], o, name="o_proj", transpose_b=True)
    g.op("Add", [h, o], h2, name="attn_residual")
    g.op("RmsNorm", [h2, g_mlp], [hn2, rstd2], name="mlp_norm", eps=1e-6)
    g.op("Matmul", [hn2, w_gate], gate, name="gate_proj", transpose_b=True)
    g.op("Matmul", [hn2, w_up], up, name="up_proj", transpose_b=True)
    g.op("Silu", [gate], gact, name="silu")
    g.op("Mul", [gact, up], act, name="gate_mul")
    g.op("Matmul", [act, w_down], down, name="down_proj", transpose_b=True)
    g.op("Add", [h2, down], h, name="mlp_residual")
    g.end_repeat()

    hf = g.tensor("final", [s, H], DT)
    g.op("RmsNorm", [h, g_final], [hf, g.tensor("final_rstd", [s, 1], "float32")], name="final_norm", eps=1e-6)
    last = g.view("last_token", hf, [1, H], offset=(s - 1) * H)
    g.op("Matmul", [last, lm_head], g.tensor("logits", [1, V], DT, role="output"), name="lm_head",
         transpose_b=True)
    return g


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    header = ("Generated by traces/gen/llama.py - edit the generator, not this file.\n"
              "All layers share one layer's weights (memory); the KV caches are per layer.\n"
              "Fewer layers: npusim replay traces/<this file> --param layers=2")
    for decode in (False, True):
        g = build(decode)
        g.write(os.path.join(out, g.name + ".yaml"), header)


if __name__ == "__main__":
    main()
