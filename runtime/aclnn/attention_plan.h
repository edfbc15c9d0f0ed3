// SPDX-License-Identifier: Apache-2.0
// The plan the three attention operators share (attention_plan.cpp), once each has read its own
// arguments (attention.cpp): layouts, GQA, masks, the band, tiling and the launch of the fused MIX
// kernel (attention_kernels.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn::attn {

constexpr std::int64_t kFar = std::int64_t{1} << 40;  // beyond any sequence

/// Sizes and element strides of a query, key/value or attentionOut tensor in its layout.
struct Layout {
  std::int64_t b = 0, n = 0, s = 0, d = 0;  // sizes
  std::int64_t sb = 0, sn = 0, ss = 0;      // element strides
};

/// Sizes and strides of a query (heads = headNum) or key/value (heads from H / d) tensor in
/// layout `form` (BNSD, BSND, BSH, SBH); ACLNN_ERR_PARAM_INVALID when its shape does not fit.
Layout layout_of(const Plan& p, const aclTensor& t, const std::string& form, std::int64_t heads,
                 std::int64_t d, const char* what);

/// What the three operators share once their own arguments are read.
struct Request {
  const char* op = "";
  const aclTensor* q = nullptr;
  const aclTensor* k = nullptr;
  const aclTensor* v = nullptr;
  const aclTensor* mask = nullptr;  // optional
  const aclTensor* pse = nullptr;   // optional (FlashAttentionScore's realShift)
  const aclTensor* smax = nullptr;  // optional (FlashAttentionScore only)
  const aclTensor* ssum = nullptr;
  const aclTensor* out = nullptr;
  std::string form;
  std::string out_form;  // attentionOut's layout when it differs (PromptFlashAttention BNSD_BSND)
  std::int64_t head_num = 0;
  std::int64_t kv_heads = -1;  // -1: from key's shape; 0: as many as query heads
  double scale = 1.0;
  std::int64_t sparse_mode = 0;
  std::int64_t pre = 0, next = 0;
  std::vector<std::int64_t> kv_lens;  // IncreFlashAttention's actualSeqLengths
  bool fold_groups = false;           // one query row per head: a KV head's query heads as rows
  int mask_in = -1, pse_in = -1, out_index = 0, smax_index = -1, ssum_index = -1;
};

/// Validates the shared arguments, infers the layouts, tiles and queues the launch.
void plan_attention(Plan& p, const Request& r);

}  // namespace npusim::aclnn::attn
