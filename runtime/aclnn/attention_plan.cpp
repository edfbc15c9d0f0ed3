// SPDX-License-Identifier: Apache-2.0
// The shared plan of the attention operators (attention_plan.h): checks, layouts, GQA, masks,
// the band, tiling and the launch.
//
// Tiling: key tiles of 128 keys; query tiles of the largest mt in {128, 64, 32, 16} (at most Sq
// rounded up to 16) whose buffers fit the core's UB, L1, L0A/B/C (config aicore.*); work items
// (batch, head, query tile) spread over min(items, cube cores) MIX blocks, balanced by the key
// tiles each processes (balance()). The workspace holds, per block, two S tiles (fp32; the cube
// fills one while the vector side reads the other), one P tile and one P V tile (fp32).
#include "runtime/aclnn/attention_plan.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/attention_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn::attn {
namespace {

constexpr std::uint32_t kKeyTile = 128;

std::int64_t clamp_tokens(std::int64_t v) { return v > kFar ? kFar : (v < -kFar ? -kFar : v); }

// UB bytes of the kernel's buffers for query tiles of mt rows (attention_kernels.cpp Init): the
// S / P V input, P / output, softmax statistics out, accumulator, 5 row vectors, Brcb blocks,
// with a mask its bytes and their float copy; 32 bytes of alignment per buffer.
std::uint64_t attention_ub_bytes(std::uint64_t mt, std::uint64_t nt, std::uint64_t d, bool mask,
                                 bool pse) {
  const std::uint64_t wide = nt > d ? nt : d;
  std::uint64_t bytes =
      mt * wide * 4 + mt * wide * 2 + mt * 8 * 4 + mt * d * 4 + 5 * mt * 4 + mt * 8 * 4 + 8 * 32;
  if (mask) bytes += mt * nt;
  if (pse) bytes += mt * nt * 2;
  if (mask || pse) bytes += mt * nt * 4;
  return bytes;
}

// The query-tile rows whose buffers fit the core (0 when none does).
std::uint32_t query_tile(const Plan& p, std::uint32_t d, std::uint32_t sq, bool mask, bool pse) {
  const std::uint64_t nt = kKeyTile, wide = nt > d ? nt : d;
  for (std::uint32_t mt = 128; mt >= 16; mt /= 2) {
    const std::uint64_t l1 = mt * d * 2 + nt * d * 2 * 2 + mt * nt * 2;
    if (attention_ub_bytes(mt, nt, d, mask, pse) <= p.ub_bytes() && l1 <= p.l1_bytes() &&
        mt * wide * 2 <= p.l0a_bytes() && nt * d * 2 <= p.l0b_bytes() &&
        mt * wide * 4 <= p.l0c_bytes()) {
      const std::uint32_t rows = (sq + 15) / 16 * 16;
      return rows < mt ? rows : mt;
    }
  }
  return 0;
}

// A tensor's batch, heads, sequence and head dimension in layout `form`.
Layout sizes_of(const Plan& p, const aclTensor& t, const std::string& form, std::int64_t heads,
                std::int64_t d, const char* what) {
  Layout l;
  const auto& x = t.dims;
  if (form == "BNSD" || form == "BSND") {
    p.require(x.size() == 4, std::string(what) + " must have 4 dimensions for layout " + form);
    const bool bnsd = form == "BNSD";
    l.b = x[0];
    l.n = bnsd ? x[1] : x[2];
    l.s = bnsd ? x[2] : x[1];
    l.d = x[3];
  } else {  // BSH, SBH
    p.require(x.size() == 3, std::string(what) + " must have 3 dimensions for layout " + form);
    const bool bsh = form == "BSH";
    l.b = bsh ? x[0] : x[1];
    l.s = bsh ? x[1] : x[0];
    const std::int64_t h = x[2];
    l.d = d > 0 ? d : (heads > 0 && h % heads == 0 ? h / heads : 0);
    p.require(l.d > 0 && h % l.d == 0, std::string(what) + "'s hidden size " + std::to_string(h) +
                                           " is not a multiple of the head dimension");
    l.n = h / l.d;
  }
  return l;
}

// attenMask's strides: [Sq, Skv], [B|1, Sq, Skv], [B|1, N|1, Sq, Skv]; with Sq = 1 also [B, Skv].
void mask_layout(const Plan& p, const aclTensor& mask, const Layout& lq, std::int64_t skv,
                 AttentionTiling& t) {
  p.require_dtype(mask, {ACL_BOOL, ACL_UINT8, ACL_INT8}, "attenMask");
  p.require_contiguous(mask, "attenMask");
  const auto& m = mask.dims;
  const std::int64_t plane = lq.s * skv;
  bool ok = false;
  if (m.size() == 2 && m[0] == lq.s && m[1] == skv) {
    ok = true;
  } else if (m.size() == 2 && lq.s == 1 && m[0] == lq.b && m[1] == skv) {
    ok = true;
    t.mask_sb = skv;
  } else if (m.size() == 3 && (m[0] == lq.b || m[0] == 1) && m[1] == lq.s && m[2] == skv) {
    ok = true;
    t.mask_sb = m[0] == 1 ? 0 : plane;
  } else if (m.size() == 4 && (m[0] == lq.b || m[0] == 1) && (m[1] == lq.n || m[1] == 1) &&
             m[2] == lq.s && m[3] == skv) {
    ok = true;
    t.mask_sn = m[1] == 1 ? 0 : plane;
    t.mask_sb = m[0] == 1 ? 0 : m[1] * plane;
  }
  p.require(ok, "attenMask must be [Sq, Skv], [B|1, Sq, Skv] or [B|1, N|1, Sq, Skv]");
  t.has_mask = true;
  t.mask_ss = skv;
}

// Key tiles the kernel processes for query tile qt of batch b (tiles the band hides from every
// row of the query tile are skipped: AttentionTiling::skip_masked_tiles).
std::uint32_t key_tiles_of(const AttentionTiling& t, std::uint32_t b, std::uint32_t qt) {
  const std::uint32_t keys = t.kv_lens.empty() ? t.skv : t.kv_lens[b];
  const std::uint32_t tiles = (keys + t.nt - 1) / t.nt;
  if (!t.skip_masked_tiles) return tiles;
  const std::int64_t first = std::int64_t{qt} * t.mt;
  const std::int64_t last = std::min<std::int64_t>(first + t.mt, t.sq) - 1;
  std::uint32_t count = 0;
  for (std::uint32_t j = 0; j < tiles; ++j) {
    const std::int64_t k0 = std::int64_t{j} * t.nt;
    const std::int64_t k1 = std::min<std::int64_t>(k0 + t.nt, keys) - 1;
    count += !(last + t.next < k0 || first - t.pre > k1);
  }
  return count;
}

// Work items to blocks, longest first, each to the least loaded block (lowest index on ties):
// causal attention and per-batch KV lengths give items of very different lengths.
void balance(AttentionTiling& t, std::uint32_t blocks) {
  const std::uint32_t items = t.batch * t.heads * t.q_tiles;
  std::vector<std::uint32_t> cost(items);
  for (std::uint32_t w = 0; w < items; ++w)
    cost[w] = key_tiles_of(t, w / (t.heads * t.q_tiles), w % t.q_tiles) + 1;
  std::vector<std::uint32_t> order(items);
  for (std::uint32_t w = 0; w < items; ++w) order[w] = w;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return cost[a] > cost[b]; });
  std::vector<std::uint64_t> load(blocks, 0);
  std::vector<std::vector<std::uint32_t>> mine(blocks);
  for (std::uint32_t w : order) {
    const auto least =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[least] += cost[w];
    mine[least].push_back(w);
  }
  t.block_items.clear();
  t.block_begin.assign(1, 0);
  for (const auto& list : mine) {
    t.block_items.insert(t.block_items.end(), list.begin(), list.end());
    t.block_begin.push_back(static_cast<std::uint32_t>(t.block_items.size()));
  }
}

// The tensors' layouts once the shared checks passed: query, key (and value), attentionOut.
struct Layouts {
  Layout q, k, o;
};

void check_types(const Plan& p, const Request& r) {
  const aclTensor& q = *r.q;
  p.require_dtype(q, {ACL_FLOAT16, ACL_BF16}, "query");
  p.require(r.k->dtype == q.dtype && r.v->dtype == q.dtype && r.out->dtype == q.dtype,
            "key, value and attentionOut must have query's data type");
  for (const aclTensor* t : {r.q, r.k, r.v, r.out}) p.require_contiguous(*t, "tensor");
  p.require(r.head_num > 0, "the number of query heads must be positive");
  p.require(r.k->dims == r.v->dims, "key and value must have the same shape");
}

void check_heads_and_sizes(const Plan& p, const Request& r, const Layout& lq, const Layout& lk) {
  p.require(lq.n == r.head_num, "query has " + std::to_string(lq.n) + " heads, the head count is " +
                                    std::to_string(r.head_num));
  p.require(r.kv_heads < 0 || (r.kv_heads == 0 ? lq.n : r.kv_heads) == lk.n,
            "key has " + std::to_string(lk.n) + " heads, numKeyValueHeads is " +
                std::to_string(r.kv_heads));
  p.require(lk.b == lq.b, "key's batch differs from query's");
  p.require(lk.d == lq.d, "key's head dimension differs from query's");
  p.require(lk.n > 0 && lq.n % lk.n == 0, "key/value heads must divide the query heads");
  p.require(lq.b > 0 && lq.s > 0 && lk.s > 0, "empty batch or sequence");
  p.require(lq.d % 16 == 0 && lq.d <= 256,
            "head dimension " + std::to_string(lq.d) + " must be a multiple of 16 up to 256");
  p.require(lq.ss <= 65535 && lk.ss <= 65535, "rows longer than 65535 elements");
}

// attentionOut's layout: query's, or its own (out_form) holding the same sizes.
Layout out_layout(const Plan& p, const Request& r, const Layout& lq) {
  if (r.out_form.empty()) {
    p.require(r.out->dims == r.q->dims, "attentionOut must have query's shape");
    return lq;
  }
  const Layout lo = layout_of(p, *r.out, r.out_form, r.head_num, 0, "attentionOut");
  p.require(lo.b == lq.b && lo.n == lq.n && lo.s == lq.s && lo.d == lq.d,
            "attentionOut must hold query's batch, heads, sequence and head dimension in layout " +
                r.out_form);
  p.require(lo.ss <= 65535, "rows longer than 65535 elements");
  return lo;
}

// softmaxMax / softmaxSum (FlashAttentionScore): FLOAT [B, N, Sq, 8].
void check_softmax_outputs(const Plan& p, const Request& r, const Layout& lq) {
  if (r.smax == nullptr) return;
  p.require_dtype(*r.smax, {ACL_FLOAT}, "softmaxMax");
  p.require_dtype(*r.ssum, {ACL_FLOAT}, "softmaxSum");
  p.require_contiguous(*r.smax, "softmaxMax");
  p.require_contiguous(*r.ssum, "softmaxSum");
  p.require_shape(*r.smax, {lq.b, lq.n, lq.s, 8}, "softmaxMax");
  p.require_shape(*r.ssum, {lq.b, lq.n, lq.s, 8}, "softmaxSum");
}

Layouts check_tensors(const Plan& p, const Request& r) {
  check_types(p, r);
  Layouts l;
  l.q = layout_of(p, *r.q, r.form, r.head_num, 0, "query");
  l.k = layout_of(p, *r.k, r.form, 0, l.q.d, "key");
  check_heads_and_sizes(p, r, l.q, l.k);
  l.o = out_layout(p, r, l.q);
  check_softmax_outputs(p, r, l.q);
  return l;
}

// The tiling's sizes and strides, from the layouts.
AttentionTiling sized_tiling(const Layouts& l, double scale) {
  AttentionTiling t;
  t.batch = static_cast<std::uint32_t>(l.q.b);
  t.heads = static_cast<std::uint32_t>(l.q.n);
  t.kv_heads = static_cast<std::uint32_t>(l.k.n);
  t.sq = static_cast<std::uint32_t>(l.q.s);
  t.skv = static_cast<std::uint32_t>(l.k.s);
  t.d = static_cast<std::uint32_t>(l.q.d);
  t.q_sb = l.q.sb;
  t.q_sn = l.q.sn;
  t.q_ss = l.q.ss;
  t.o_sb = l.o.sb;
  t.o_sn = l.o.sn;
  t.o_ss = l.o.ss;
  t.kv_sb = l.k.sb;
  t.kv_sn = l.k.sn;
  t.kv_ss = l.k.ss;
  t.scale = static_cast<float>(scale);
  return t;
}

// IncreFlashAttention's actualSeqLengths: one KV length per batch, each in [1, Skv].
void kv_lengths(const Plan& p, const Request& r, const Layouts& l, AttentionTiling& t) {
  if (r.kv_lens.empty()) return;
  p.require(static_cast<std::int64_t>(r.kv_lens.size()) == l.q.b,
            "actualSeqLengths must have one length per batch");
  for (std::int64_t len : r.kv_lens) {
    p.require(len >= 1 && len <= l.k.s, "actualSeqLengths " + std::to_string(len) +
                                            " is outside [1, " + std::to_string(l.k.s) + "]");
    t.kv_lens.push_back(static_cast<std::uint32_t>(len));
  }
}

void sparse_mask(const Plan& p, const Request& r, const Layouts& l, AttentionTiling& t) {
  p.require(r.sparse_mode >= 0 && r.sparse_mode <= 3,
            "sparseMode " + std::to_string(r.sparse_mode) +
                " is not supported (0 default, 1 all, 2 leftUpCausal, 3 rightDownCausal)");
  if (r.sparse_mode <= 1 && r.mask != nullptr) mask_layout(p, *r.mask, l.q, l.k.s, t);
  p.require(r.sparse_mode != 1 || r.mask != nullptr, "sparseMode 1 (allMask) needs attenMask");
}

// Decode with grouped heads: the G query heads of a KV head become the G rows of one query
// tile, so each KV head's keys and values are read once, not G times.
void fold_groups(const Request& r, const Layouts& l, AttentionTiling& t) {
  if (!r.fold_groups || l.q.s != 1 || l.q.n <= l.k.n) return;
  const std::int64_t g = l.q.n / l.k.n;
  t.sq = static_cast<std::uint32_t>(g);
  t.heads = t.kv_heads;
  t.q_ss = l.q.sn;
  t.q_sn = l.q.sn * g;
  t.o_ss = l.o.sn;
  t.o_sn = l.o.sn * g;
  t.mask_ss = t.mask_sn;
  t.mask_sn *= g;
}

// realShift (FlashAttentionScore): [B|1, N, Sq|1, Skv].
void pse_layout(const Plan& p, const Request& r, const Layouts& l, AttentionTiling& t) {
  if (r.pse == nullptr) return;
  const aclTensor& e = *r.pse;
  p.require(e.dtype == r.q->dtype, "realShift must have query's data type");
  p.require_contiguous(e, "realShift");
  const auto& x = e.dims;
  p.require(x.size() == 4 && (x[0] == l.q.b || x[0] == 1) && x[1] == l.q.n &&
                (x[2] == l.q.s || x[2] == 1) && x[3] == l.k.s,
            "realShift must be [B, N, Sq, Skv], [1, N, Sq, Skv] or [B, N, 1, Skv] (alibi "
            "compression is not supported)");
  t.has_pse = true;
  t.pse_ss = x[2] == 1 ? 0 : l.k.s;
  t.pse_sn = x[2] * l.k.s;
  t.pse_sb = x[0] == 1 ? 0 : l.q.n * x[2] * l.k.s;
}

// The band of keys each query row sees (preTokens / nextTokens, or causal).
void band(const Request& r, const Layouts& l, AttentionTiling& t) {
  if (r.sparse_mode == 0 && r.mask != nullptr) {  // without a mask the band is ignored
    t.pre = clamp_tokens(r.pre);
    t.next = clamp_tokens(r.next);
    t.has_band = t.pre < l.k.s + l.q.s || t.next < l.k.s + l.q.s;
  } else if (r.sparse_mode >= 2) {  // causal; the (compressed) attenMask is not read
    t.pre = kFar;
    t.next = r.sparse_mode == 2 ? 0 : l.k.s - l.q.s;
    t.has_band = true;
  }
  // Key tiles the band hides from a whole query tile are skipped when the band leaves every row
  // a key (attenMask is not looked at: a row that it masks entirely gets an unspecified mean of
  // the values, as on the device).
  if (t.has_band) {
    bool every_row_sees_a_key = true;
    for (std::int64_t i = 0; i < l.q.s && every_row_sees_a_key; ++i) {
      const std::int64_t lo = i - t.pre > 0 ? i - t.pre : 0;
      const std::int64_t hi = i + t.next < l.k.s - 1 ? i + t.next : l.k.s - 1;
      every_row_sees_a_key = lo <= hi;
    }
    t.skip_masked_tiles = every_row_sees_a_key;
  }
}

// Query tiles, blocks and workspace; returns the blocks to launch.
std::uint32_t tile(Plan& p, AttentionTiling& t) {
  t.nt = kKeyTile;
  t.mt = query_tile(p, t.d, t.sq, t.has_mask, t.has_pse);
  p.require(t.mt != 0,
            "head dimension " + std::to_string(t.d) + " does not fit the core's buffers");
  t.q_tiles = (t.sq + t.mt - 1) / t.mt;
  const std::uint64_t items = std::uint64_t{t.batch} * t.heads * t.q_tiles;
  const std::uint32_t cores = p.cube_cores() > 0 ? p.cube_cores() : 1;
  const auto blocks = static_cast<std::uint32_t>(items < cores ? items : cores);
  balance(t, blocks);
  t.ws_block_bytes =
      (std::uint64_t{t.mt} * t.nt * (2 * 4 + 2) + std::uint64_t{t.mt} * t.d * 4 + 511) / 512 * 512;
  p.set_workspace(t.ws_block_bytes * blocks);
  return blocks;
}

void launch_attention(Plan& p, const Request& r, const AttentionTiling& t, std::uint32_t blocks) {
  const int dtype = r.q->dtype == ACL_FLOAT16 ? 0 : 1;
  const int mask_in = r.mask_in, pse_in = r.pse_in, out_index = r.out_index,
            smax_index = r.smax_index, ssum_index = r.ssum_index;
  p.launch(r.op, reinterpret_cast<const void*>(&flash_attention_kernel), blocks, Core::kMix,
           [t, dtype, mask_in, pse_in, out_index, smax_index, ssum_index](const Addrs& a) {
             flash_attention_kernel(
                 dtype, a.in[0], a.in[1], a.in[2], t.has_mask ? a.in[mask_in] : nullptr,
                 t.has_pse ? a.in[pse_in] : nullptr, smax_index >= 0 ? a.out[smax_index] : nullptr,
                 ssum_index >= 0 ? a.out[ssum_index] : nullptr, a.out[out_index], a.workspace, t);
           });
}

}  // namespace

Layout layout_of(const Plan& p, const aclTensor& t, const std::string& form, std::int64_t heads,
                 std::int64_t d, const char* what) {
  Layout l = sizes_of(p, t, form, heads, d, what);
  if (form == "BNSD") {
    l.sb = l.n * l.s * l.d;
    l.sn = l.s * l.d;
    l.ss = l.d;
  } else if (form == "SBH") {
    l.sb = l.n * l.d;
    l.sn = l.d;
    l.ss = l.b * l.n * l.d;
  } else {  // BSND, BSH
    l.sb = l.s * l.n * l.d;
    l.sn = l.d;
    l.ss = l.n * l.d;
  }
  return l;
}

// Validate, infer the layouts, then tile: the shared part of the three operators.
void plan_attention(Plan& p, const Request& r) {
  const Layouts l = check_tensors(p, r);
  AttentionTiling t = sized_tiling(l, r.scale);
  kv_lengths(p, r, l, t);
  sparse_mask(p, r, l, t);
  fold_groups(r, l, t);
  pse_layout(p, r, l, t);
  band(r, l, t);
  const std::uint32_t blocks = tile(p, t);
  launch_attention(p, r, t, blocks);
}

}  // namespace npusim::aclnn::attn
