/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnCast: out = self converted to dtype (FLOAT, FLOAT16, BF16, INT32, INT8, UINT8, INT16, INT64,
 * BOOL; out's type must be dtype, its shape self's). Floats to integers truncate toward zero and
 * saturate (NaN -> 0); to floats round to nearest even; to BOOL: x != 0.
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_CAST_H_
#define NPUSIM_ACLNNOP_ACLNN_CAST_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self,
                                                          const aclDataType dtype, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCast(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_CAST_H_ */
