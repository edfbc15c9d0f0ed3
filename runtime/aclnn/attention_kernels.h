// SPDX-License-Identifier: Apache-2.0
// The fused attention kernel of aclnnFlashAttentionScore, aclnnPromptFlashAttention and
// aclnnIncreFlashAttention (attention_kernels.cpp) and its tiling.
//
// One MIX block (cube + vector) takes its work items (batch b, query head n, query tile of `mt`
// rows; the host balances the blocks by the key tiles each item processes). For each item it walks
// the key tiles of `nt` keys:
//   cube:   Q tile, K tile GM -ND2NZ-> L1 -LoadData-> L0A/L0B, S = Q K^T (Mmad, fp32 in L0C),
//           Fixpipe S to the block's workspace;
//   vector: S GM -> UB, scale, mask, online softmax per row (running max m, running sum l, the
//           accumulator rescaled by exp(m_old - m_new)), P = exp(S - m) cast to the input type,
//           P UB -> workspace;
//   cube:   P, V tile -> L1 -> L0A/L0B, P V (Mmad), Fixpipe to the workspace;
//   vector: O += P V.
// Finally O / l is cast and written to attentionOut, m and l (8 copies per row) to softmaxMax /
// softmaxSum. Cube and vector hand tiles over through GM (the workspace), as the separate AIC and
// AIV cores of a split chip must; SetFlag/WaitFlag order the hand-overs. S is double-buffered:
// the cube computes S of key tile j + 1 while the vector side works on tile j.
#pragma once

#include <cstdint>
#include <vector>

namespace npusim::aclnn {

struct AttentionTiling {
  std::uint32_t batch = 0, heads = 0, kv_heads = 0;
  std::uint32_t sq = 0, skv = 0, d = 0;
  // Element strides of (batch, head, row) in query, attentionOut and key/value (d is innermost).
  std::int64_t q_sb = 0, q_sn = 0, q_ss = 0;
  std::int64_t o_sb = 0, o_sn = 0, o_ss = 0;
  std::int64_t kv_sb = 0, kv_sn = 0, kv_ss = 0;
  std::uint32_t mt = 0, nt = 0;  // query rows / keys per tile
  std::uint32_t q_tiles = 0;
  float scale = 1.0f;
  // attenMask tensor (has_mask): element (b, n, i, j) at b*mask_sb + n*mask_sn + i*mask_ss + j.
  bool has_mask = false;
  std::int64_t mask_sb = 0, mask_sn = 0, mask_ss = 0;
  // realShift (has_pse): element (b, n, i, j) at b*pse_sb + n*pse_sn + i*pse_ss + j, added to the
  // scores before the scale (pse_ss 0: one row for every query row).
  bool has_pse = false;
  std::int64_t pse_sb = 0, pse_sn = 0, pse_ss = 0;
  // Band (has_band): key j is visible from query row i iff i - pre <= j <= i + next.
  bool has_band = false;
  std::int64_t pre = 0, next = 0;
  bool skip_masked_tiles = false;      // key tiles the band hides from every row of a query tile
  std::vector<std::uint32_t> kv_lens;  // keys of each batch (empty: skv for all)
  // Work items (w = (b * heads + n) * q_tiles + query tile) of block i:
  // block_items[block_begin[i] .. block_begin[i + 1]).
  std::vector<std::uint32_t> block_items, block_begin;
  std::uint64_t ws_block_bytes = 0;  // workspace per block: 2 S (mt x nt fp32), P, O (mt x d fp32)
};

/// Masked scores are set to this value (exp(kMasked - max) is 0 beside any visible key).
constexpr float kAttentionMasked = -3.0e38f;

/// dtype: 0 = half, 1 = bfloat16_t. Addresses: query, key, value, attenMask and realShift (or
/// null), softmaxMax and softmaxSum (or null: not written), attentionOut, workspace.
void flash_attention_kernel(int dtype, std::uint8_t* q, std::uint8_t* k, std::uint8_t* v,
                            std::uint8_t* mask, std::uint8_t* pse, std::uint8_t* smax,
                            std::uint8_t* ssum, std::uint8_t* out, std::uint8_t* ws,
                            const AttentionTiling& t);

}  // namespace npusim::aclnn
