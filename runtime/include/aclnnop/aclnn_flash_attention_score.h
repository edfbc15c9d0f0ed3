/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnFlashAttentionScore: fused self-attention forward (training form),
 *   attentionOut = softmax(mask(scaleValue * query * key^T)) * value,
 * with the per-row softmax statistics (softmaxMax: the row maximum of the masked, scaled scores;
 * softmaxSum: the sum of exp(score - max)), each stored 8 times per row ([B, N, Sq, 8], FLOAT).
 * Two-phase aclnn call: GetWorkspaceSize builds a single-use executor and reports the device
 * workspace it needs; aclnnFlashAttentionScore launches it on a stream.
 *
 * npusim's implementation (runtime/aclnn/attention.cpp) takes FLOAT16 / BFLOAT16 inputs in the
 * layouts "BNSD", "BSND", "BSH", "SBH", key/value heads dividing the query heads (GQA), an
 * optional BOOL/UINT8/INT8 attenMask (1 = masked) of shape [Sq, Skv], [B|1, Sq, Skv] or
 * [B|1, N|1, Sq, Skv] and sparseMode 0 (attenMask and the preTokens/nextTokens band; without
 * attenMask no masking at all), 1 (attenMask only), 2 (causal, top-left aligned) and 3 (causal,
 * bottom-right aligned; in modes 2 and 3 the compressed attenMask is not read), and an optional
 * realShift (pse, query's type) of shape [B, N, Sq, Skv], [1, N, Sq, Skv] or [B, N, 1, Skv],
 * added before the scale: scaleValue * (pse + query * key^T). dropMask, paddingMask, prefix,
 * keepProb != 1 and compressed (alibi) realShift are refused (ACLNN_ERR_PARAM_INVALID);
 * softmaxOut is not written.
 * A row whose keys are all masked gets an unspecified mean of the values. */
#ifndef NPUSIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H_
#define NPUSIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value,
    const aclTensor* realShiftOptional, const aclTensor* dropMaskOptional,
    const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens,
    int64_t nextTokens, int64_t headNum, char* inputLayout, int64_t innerPrecise,
    int64_t sparseMode, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
    const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnFlashAttentionScore(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor,
                                                         const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H_ */
