/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnReduceSum: out = sum of self over dims (negative entries count from the end; an empty
 * dims reduces every dimension), keepDims keeps them as size 1. self: FLOAT, FLOAT16 or
 * BFLOAT16; dtype (= out's type): FLOAT, FLOAT16 or BFLOAT16. Any set of dimensions: the last
 * axis is reduced row-wise, other axes column-wise (strided), one pass per group of adjacent
 * reduced dimensions, fp32 accumulation (a few long rows are first reduced in segments by more
 * cores). Repeated or out-of-range dims: ACLNN_ERR_PARAM_INVALID. Contiguous, non-empty tensors
 * only. Accuracy vs a double reference: within 1e-6 x sum(|x|) in fp32, then the output type's
 * rounding. */
#ifndef NPUSIM_ACLNNOP_ACLNN_REDUCE_SUM_H_
#define NPUSIM_ACLNNOP_ACLNN_REDUCE_SUM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceSumGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* dims, bool keepDims, aclDataType dtype,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_REDUCE_SUM_H_ */
