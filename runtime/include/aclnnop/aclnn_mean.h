/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMean: out = mean of self over dim (see aclnn_reduce_sum.h for dimensions, keepDim and
 * types; dtype = out's type; an empty dim averages every element). fp32 accumulation, scaled by
 * 1 / count at the end. Accuracy vs a double reference: within 1e-6 x mean(|x|) in fp32, then
 * the output type's rounding. */
#ifndef NPUSIM_ACLNNOP_ACLNN_MEAN_H_
#define NPUSIM_ACLNNOP_ACLNN_MEAN_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self,
                                                          const aclIntArray* dim, bool keepDim,
                                                          aclDataType dtype, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MEAN_H_ */
