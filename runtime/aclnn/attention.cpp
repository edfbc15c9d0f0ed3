// SPDX-License-Identifier: Apache-2.0
// aclnnFlashAttentionScore (forward): checks, tiling and the launch of the fused MIX kernel
// (attention_kernels.cpp). See aclnnop/aclnn_flash_attention_score.h for what is taken.
//
// Tiling: key tiles of 128 keys; query tiles of the largest mt in {128, 64, 32, 16} (at most Sq
// rounded up to 16) whose buffers fit the core's UB, L1, L0A/B/C (config aicore.*); work items
// (batch, head, query tile) spread round-robin over min(items, cube cores) MIX blocks. The
// workspace holds, per block, one S tile (fp32), one P tile and one P V tile (fp32).
//
// Accuracy (tests/runtime/aclnn_attention_test.cpp): vs a double-precision softmax(QK^T*scale +
// mask)V within 2e-3 relative (of the output's largest magnitude) for FLOAT16 and 1e-2 for
// BFLOAT16: P is rounded to the input type before P V, as on the device.
#include <cstdint>
#include <string>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "runtime/aclnn/attention_kernels.h"
#include "runtime/aclnn/op_api.h"
#include "runtime/errors.h"

namespace npusim::aclnn {
namespace {

constexpr std::uint32_t kKeyTile = 128;
constexpr std::int64_t kFar = std::int64_t{1} << 40;  // beyond any sequence

std::int64_t clamp_tokens(std::int64_t v) { return v > kFar ? kFar : (v < -kFar ? -kFar : v); }

// The query-tile rows whose buffers fit the core (0 when none does).
std::uint32_t query_tile(const Plan& p, std::uint32_t d, std::uint32_t sq) {
  const std::uint64_t nt = kKeyTile, wide = nt > d ? nt : d;
  for (std::uint32_t mt = 128; mt >= 16; mt /= 2) {
    const std::uint64_t ub = mt * nt * 4 * 2 + mt * d * 4 * 2 + mt * nt + mt * wide * 2 +
                             mt * 8 * 4 + 256 + 16 * 32;
    const std::uint64_t l1 = mt * d * 2 + nt * d * 2 * 2 + mt * nt * 2;
    if (ub <= p.ub_bytes() && l1 <= p.l1_bytes() && mt * wide * 2 <= p.l0a_bytes() &&
        nt * d * 2 <= p.l0b_bytes() && mt * wide * 4 <= p.l0c_bytes()) {
      const std::uint32_t rows = (sq + 15) / 16 * 16;
      return rows < mt ? rows : mt;
    }
  }
  return 0;
}

struct Layout {
  std::int64_t b = 0, n = 0, s = 0, d = 0;  // sizes
  std::int64_t sb = 0, sn = 0, ss = 0;      // element strides
};

// Sizes and strides of a query (heads = headNum) or key/value (heads from H / d) tensor.
Layout layout_of(const Plan& p, const aclTensor& t, const std::string& form, std::int64_t heads,
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
    p.require(l.d > 0 && h % l.d == 0,
              std::string(what) + "'s hidden size " + std::to_string(h) +
                  " is not a multiple of the head dimension");
    l.n = h / l.d;
  }
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

void plan_flash_attention(Plan& p, const aclTensor* query, const aclTensor* key,
                          const aclTensor* value, const aclTensor* real_shift,
                          const aclTensor* drop_mask, const aclTensor* padding_mask,
                          const aclTensor* atten_mask, const aclIntArray* prefix, double scale,
                          double keep_prob, std::int64_t pre_tokens, std::int64_t next_tokens,
                          std::int64_t head_num, const char* input_layout,
                          std::int64_t sparse_mode, const aclTensor* softmax_max,
                          const aclTensor* softmax_sum, const aclTensor* softmax_out,
                          const aclTensor* attention_out) {
  const aclTensor& q = p.input(query, "query");
  const aclTensor& k = p.input(key, "key");
  const aclTensor& v = p.input(value, "value");
  const aclTensor* pse = p.optional_input(real_shift, "realShift");
  const aclTensor* drop = p.optional_input(drop_mask, "dropMask");
  const aclTensor* pad = p.optional_input(padding_mask, "paddingMask");
  const aclTensor* mask = p.optional_input(atten_mask, "attenMask");
  const aclTensor& smax = p.output(softmax_max, "softmaxMax");
  const aclTensor& ssum = p.output(softmax_sum, "softmaxSum");
  p.optional_output(softmax_out, "softmaxOut");  // reserved by CANN; not written
  const aclTensor& out = p.output(attention_out, "attentionOut");
  rt::require(input_layout != nullptr, ACLNN_ERR_PARAM_NULLPTR,
              "aclnnFlashAttentionScore: inputLayout is NULL");
  p.require(pse == nullptr, "realShift (pse) is not supported by npusim");
  p.require(drop == nullptr, "dropMask is not supported by npusim");
  p.require(pad == nullptr, "paddingMask is not supported (CANN reserves it)");
  p.require(prefix == nullptr, "prefix (sparseMode 5) is not supported by npusim");
  p.require(keep_prob == 1.0, "keepProb must be 1 (dropout is not supported by npusim)");
  const std::string form = input_layout;
  p.require(form == "BNSD" || form == "BSND" || form == "BSH" || form == "SBH",
            "inputLayout \"" + form + "\" is not supported (BNSD, BSND, BSH, SBH)");
  p.require_dtype(q, {ACL_FLOAT16, ACL_BF16}, "query");
  p.require(k.dtype == q.dtype && v.dtype == q.dtype && out.dtype == q.dtype,
            "key, value and attentionOut must have query's data type");
  p.require_dtype(smax, {ACL_FLOAT}, "softmaxMax");
  p.require_dtype(ssum, {ACL_FLOAT}, "softmaxSum");
  for (const aclTensor* t : {&q, &k, &v, &smax, &ssum, &out}) p.require_contiguous(*t, "tensor");
  p.require(head_num > 0, "headNum must be positive");
  p.require(k.dims == v.dims, "key and value must have the same shape");
  const Layout lq = layout_of(p, q, form, head_num, 0, "query");
  const Layout lk = layout_of(p, k, form, 0, lq.d, "key");
  p.require(lq.n == head_num, "query has " + std::to_string(lq.n) + " heads, headNum is " +
                                  std::to_string(head_num));
  p.require(lk.b == lq.b, "key's batch differs from query's");
  p.require(lk.d == lq.d, "key's head dimension differs from query's");
  p.require(lk.n > 0 && lq.n % lk.n == 0, "key/value heads must divide the query heads");
  p.require(lq.b > 0 && lq.s > 0 && lk.s > 0, "empty batch or sequence");
  p.require(lq.d % 16 == 0 && lq.d <= 256,
            "head dimension " + std::to_string(lq.d) + " must be a multiple of 16 up to 256");
  p.require(lq.ss <= 65535 && lk.ss <= 65535, "rows longer than 65535 elements");
  p.require(out.dims == q.dims, "attentionOut must have query's shape");
  p.require_shape(smax, {lq.b, lq.n, lq.s, 8}, "softmaxMax");
  p.require_shape(ssum, {lq.b, lq.n, lq.s, 8}, "softmaxSum");

  AttentionTiling t;
  t.batch = static_cast<std::uint32_t>(lq.b);
  t.heads = static_cast<std::uint32_t>(lq.n);
  t.kv_heads = static_cast<std::uint32_t>(lk.n);
  t.sq = static_cast<std::uint32_t>(lq.s);
  t.skv = static_cast<std::uint32_t>(lk.s);
  t.d = static_cast<std::uint32_t>(lq.d);
  t.q_sb = lq.sb;
  t.q_sn = lq.sn;
  t.q_ss = lq.ss;
  t.kv_sb = lk.sb;
  t.kv_sn = lk.sn;
  t.kv_ss = lk.ss;
  t.scale = static_cast<float>(scale);

  p.require(sparse_mode >= 0 && sparse_mode <= 3,
            "sparseMode " + std::to_string(sparse_mode) +
                " is not supported (0 default, 1 all, 2 leftUpCausal, 3 rightDownCausal)");
  if (sparse_mode <= 1 && mask != nullptr) {
    p.require_dtype(*mask, {ACL_BOOL, ACL_UINT8}, "attenMask");
    p.require_contiguous(*mask, "attenMask");
    const auto& m = mask->dims;
    const bool two = m.size() == 2 && m[0] == lq.s && m[1] == lk.s;
    const bool four = m.size() == 4 && (m[0] == lq.b || m[0] == 1) &&
                      (m[1] == lq.n || m[1] == 1) && m[2] == lq.s && m[3] == lk.s;
    p.require(two || four, "attenMask must be [Sq, Skv] or [B|1, N|1, Sq, Skv]");
    t.has_mask = true;
    if (four) {
      t.mask_sn = m[1] == 1 ? 0 : lq.s * lk.s;
      t.mask_sb = m[0] == 1 ? 0 : m[1] * lq.s * lk.s;
    }
  }
  p.require(sparse_mode != 1 || mask != nullptr, "sparseMode 1 (allMask) needs attenMask");
  if (sparse_mode == 0) {
    t.pre = clamp_tokens(pre_tokens);
    t.next = clamp_tokens(next_tokens);
    t.has_band = t.pre < lk.s + lq.s || t.next < lk.s + lq.s;
  } else if (sparse_mode >= 2) {  // causal; the (compressed) attenMask is not read
    t.pre = kFar;
    t.next = sparse_mode == 2 ? 0 : lk.s - lq.s;
    t.has_band = true;
  }
  if (t.has_band && !t.has_mask) {
    bool every_row_sees_a_key = true;
    for (std::int64_t i = 0; i < lq.s && every_row_sees_a_key; ++i) {
      const std::int64_t lo = i - t.pre > 0 ? i - t.pre : 0;
      const std::int64_t hi = i + t.next < lk.s - 1 ? i + t.next : lk.s - 1;
      every_row_sees_a_key = lo <= hi;
    }
    t.skip_masked_tiles = every_row_sees_a_key;
  }

  t.nt = kKeyTile;
  t.mt = query_tile(p, t.d, t.sq);
  p.require(t.mt != 0, "head dimension " + std::to_string(t.d) + " does not fit the core's buffers");
  t.q_tiles = (t.sq + t.mt - 1) / t.mt;
  const std::uint64_t items = std::uint64_t{t.batch} * t.heads * t.q_tiles;
  const std::uint32_t cores = p.cube_cores() > 0 ? p.cube_cores() : 1;
  const auto blocks = static_cast<std::uint32_t>(items < cores ? items : cores);
  t.ws_block_bytes = (std::uint64_t{t.mt} * t.nt * (4 + 2) + std::uint64_t{t.mt} * t.d * 4 + 511) /
                     512 * 512;
  p.set_workspace(t.ws_block_bytes * blocks);
  const int dtype = q.dtype == ACL_FLOAT16 ? 0 : 1;
  p.launch("FlashAttentionScore", reinterpret_cast<const void*>(&flash_attention_kernel), blocks,
           Core::kMix, [t, dtype](const Addrs& a) {
             flash_attention_kernel(dtype, a.in[0], a.in[1], a.in[2], a.in[6], a.out[0], a.out[1],
                                    a.out[3], a.workspace, t);
           });
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;

aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value,
    const aclTensor* realShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
    const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  (void)innerPrecise;  // the softmax is computed in fp32 whatever the precision mode
  return nn::prepare(
      "aclnnFlashAttentionScoreGetWorkspaceSize", "FlashAttentionScore", workspaceSize, executor,
      [&](nn::Plan& p) {
        nn::plan_flash_attention(p, query, key, value, realShiftOptional, dropMaskOptional,
                                 paddingMaskOptional, attenMaskOptional, prefixOptional,
                                 scaleValue, keepProb, preTokens, nextTokens, headNum,
                                 inputLayout, sparseMode, softmaxMaxOut, softmaxSumOut,
                                 softmaxOutOut, attentionOutOut);
      });
}

aclnnStatus aclnnFlashAttentionScore(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, const aclrtStream stream) {
  return nn::execute("aclnnFlashAttentionScore", workspace, workspaceSize, executor, stream);
}
