// SPDX-License-Identifier: Apache-2.0
// The attention operators: aclnnFlashAttentionScore (training forward), aclnnPromptFlashAttention
// (prefill) and aclnnIncreFlashAttention (decode, per-batch KV cache lengths): their own argument
// checks, then one shared plan (plan_attention in attention_plan.cpp: layouts, GQA, masks,
// tiling) and the launch of the fused MIX kernel (attention_kernels.cpp). See the
// aclnnop/aclnn_*flash_attention*.h headers for what each takes.
//
// Accuracy (tests/runtime/aclnn/aclnn_attention_test.cpp, inputs in [-1, 1] so |out| <= 1): vs a
// double-precision softmax(QK^T*scale + mask)V within 2e-3 for FLOAT16 and 1e-2 for BFLOAT16
// (P is rounded to the input type before P V, as on the device); softmaxMax within 1e-4,
// softmaxSum within 1e-4 relative.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "runtime/aclnn/attention_plan.h"
#include "runtime/aclnn/op_api.h"
#include "runtime/core/errors.h"

namespace npusim::aclnn::attn {
namespace {

void require_layout(const std::string& form, std::initializer_list<const char*> allowed,
                    const char* op) {
  for (const char* a : allowed)
    if (form == a) return;
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  rt::require(
      false, ACLNN_ERR_PARAM_INVALID,
      std::string("aclnn") + op + ": inputLayout \"" + form + "\" is not supported (" + list + ")");
}

void plan_flash_attention_score(Plan& p, const aclTensor* query, const aclTensor* key,
                                const aclTensor* value, const aclTensor* real_shift,
                                const aclTensor* drop_mask, const aclTensor* padding_mask,
                                const aclTensor* atten_mask, const aclIntArray* prefix,
                                double scale, double keep_prob, std::int64_t pre_tokens,
                                std::int64_t next_tokens, std::int64_t head_num,
                                const char* input_layout, std::int64_t sparse_mode,
                                const aclTensor* softmax_max, const aclTensor* softmax_sum,
                                const aclTensor* softmax_out, const aclTensor* attention_out) {
  Request r;
  r.op = "FlashAttentionScore";
  r.q = &p.input(query, "query");
  r.k = &p.input(key, "key");
  r.v = &p.input(value, "value");
  const aclTensor* pse = p.optional_input(real_shift, "realShift");
  const aclTensor* drop = p.optional_input(drop_mask, "dropMask");
  const aclTensor* pad = p.optional_input(padding_mask, "paddingMask");
  r.mask = p.optional_input(atten_mask, "attenMask");
  r.mask_in = 6;
  r.smax = &p.output(softmax_max, "softmaxMax");
  r.ssum = &p.output(softmax_sum, "softmaxSum");
  p.optional_output(softmax_out, "softmaxOut");  // reserved by CANN; not written
  r.out = &p.output(attention_out, "attentionOut");
  r.smax_index = 0;
  r.ssum_index = 1;
  r.out_index = 3;
  rt::require(input_layout != nullptr, ACLNN_ERR_PARAM_NULLPTR,
              "aclnnFlashAttentionScore: inputLayout is NULL");
  r.pse = pse;
  r.pse_in = 3;
  p.require(drop == nullptr, "dropMask is not supported by npusim");
  p.require(pad == nullptr, "paddingMask is not supported (CANN reserves it)");
  p.require(prefix == nullptr, "prefix (sparseMode 5) is not supported by npusim");
  p.require(keep_prob == 1.0, "keepProb must be 1 (dropout is not supported by npusim)");
  r.form = input_layout;
  require_layout(r.form, {"BNSD", "BSND", "BSH", "SBH"}, r.op);
  r.head_num = head_num;
  r.scale = scale;
  r.sparse_mode = sparse_mode;
  r.pre = pre_tokens;
  r.next = next_tokens;
  plan_attention(p, r);
}

// What PromptFlashAttention and IncreFlashAttention read alike after key and value: pseShift
// (not supported), attenMask (input 4), attentionOut and inputLayout.
void read_mask_and_out(Plan& p, Request& r, const aclTensor* pse_shift, const aclTensor* atten_mask,
                       const aclTensor* attention_out, const char* input_layout,
                       std::initializer_list<const char*> layouts) {
  const aclTensor* pse = p.optional_input(pse_shift, "pseShift");
  r.mask = p.optional_input(atten_mask, "attenMask");
  r.mask_in = 4;
  r.out = &p.output(attention_out, "attentionOut");
  rt::require(input_layout != nullptr, ACLNN_ERR_PARAM_NULLPTR,
              std::string("aclnn") + r.op + ": inputLayout is NULL");
  p.require(pse == nullptr, "pseShift is not supported by npusim");
  r.form = input_layout;
  require_layout(r.form, layouts, r.op);
}

void read_heads(const Plan& p, Request& r, std::int64_t num_heads, std::int64_t num_kv_heads,
                double scale) {
  r.head_num = num_heads;
  r.kv_heads = num_kv_heads;
  p.require(num_kv_heads >= 0, "numKeyValueHeads must not be negative");
  r.scale = scale;
}

void plan_prompt_flash_attention(Plan& p, const aclTensor* query, const aclTensor* key,
                                 const aclTensor* value, const aclTensor* pse_shift,
                                 const aclTensor* atten_mask, const aclIntArray* actual_seq,
                                 std::int64_t num_heads, double scale, std::int64_t pre_tokens,
                                 std::int64_t next_tokens, const char* input_layout,
                                 std::int64_t num_kv_heads, const aclTensor* attention_out) {
  Request r;
  r.op = "PromptFlashAttention";
  r.q = &p.input(query, "query");
  r.k = &p.input(key, "key");
  r.v = &p.input(value, "value");
  read_mask_and_out(p, r, pse_shift, atten_mask, attention_out, input_layout,
                    {"BSH", "BSND", "BNSD", "BNSD_BSND"});
  if (r.form == "BNSD_BSND") {  // query, key, value BNSD; attentionOut BSND
    r.form = "BNSD";
    r.out_form = "BSND";
  }
  read_heads(p, r, num_heads, num_kv_heads, scale);
  r.pre = pre_tokens;
  r.next = next_tokens;
  if (actual_seq != nullptr) {  // padded query rows are not supported: every length is Sq
    const std::vector<std::int64_t> lens = p.int_array(actual_seq, "actualSeqLengths");
    const Layout lq = layout_of(p, *r.q, r.form, num_heads, 0, "query");
    bool full = static_cast<std::int64_t>(lens.size()) == lq.b;
    for (std::int64_t len : lens) full = full && len == lq.s;
    p.require(full,
              "actualSeqLengths shorter than the query's sequence are not supported by "
              "npusim (every batch must use all Sq rows)");
  }
  plan_attention(p, r);
}

void plan_incre_flash_attention(Plan& p, const aclTensor* query, const aclTensorList* key,
                                const aclTensorList* value, const aclTensor* pse_shift,
                                const aclTensor* atten_mask, const aclIntArray* actual_seq,
                                std::int64_t num_heads, double scale, const char* input_layout,
                                std::int64_t num_kv_heads, const aclTensor* attention_out) {
  Request r;
  r.op = "IncreFlashAttention";
  r.q = &p.input(query, "query");
  const std::vector<const aclTensor*> keys = p.input_list(key, "key");
  p.require(keys.size() == 1, "key must be a list of one tensor holding every batch");
  const std::vector<const aclTensor*> values = p.input_list(value, "value");
  p.require(values.size() == 1, "value must be a list of one tensor holding every batch");
  r.k = keys[0];
  r.v = values[0];
  read_mask_and_out(p, r, pse_shift, atten_mask, attention_out, input_layout,
                    {"BSH", "BSND", "BNSD"});
  read_heads(p, r, num_heads, num_kv_heads, scale);
  r.pre = r.next = kFar;
  const Layout lq = layout_of(p, *r.q, r.form, num_heads, 0, "query");
  p.require(lq.s == 1, "query's sequence length must be 1 (one new token per batch)");
  if (actual_seq != nullptr) r.kv_lens = p.int_array(actual_seq, "actualSeqLengths");
  r.fold_groups = true;
  plan_attention(p, r);
}

}  // namespace
}  // namespace npusim::aclnn::attn

namespace nn = npusim::aclnn;
namespace attn = npusim::aclnn::attn;

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
  return nn::prepare("aclnnFlashAttentionScoreGetWorkspaceSize", "FlashAttentionScore",
                     workspaceSize, executor, [&](nn::Plan& p) {
                       attn::plan_flash_attention_score(
                           p, query, key, value, realShiftOptional, dropMaskOptional,
                           paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue,
                           keepProb, preTokens, nextTokens, headNum, inputLayout, sparseMode,
                           softmaxMaxOut, softmaxSumOut, softmaxOutOut, attentionOutOut);
                     });
}

aclnnStatus aclnnPromptFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout,
    int64_t numKeyValueHeads, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return nn::prepare("aclnnPromptFlashAttentionGetWorkspaceSize", "PromptFlashAttention",
                     workspaceSize, executor, [&](nn::Plan& p) {
                       attn::plan_prompt_flash_attention(p, query, key, value, pseShift, attenMask,
                                                         actualSeqLengths, numHeads, scaleValue,
                                                         preTokens, nextTokens, inputLayout,
                                                         numKeyValueHeads, attentionOut);
                     });
}

aclnnStatus aclnnIncreFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnIncreFlashAttentionGetWorkspaceSize", "IncreFlashAttention",
                     workspaceSize, executor, [&](nn::Plan& p) {
                       attn::plan_incre_flash_attention(
                           p, query, key, value, pseShift, attenMask, actualSeqLengths, numHeads,
                           scaleValue, inputLayout, numKeyValueHeads, attentionOut);
                     });
}
