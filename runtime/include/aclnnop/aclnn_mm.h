/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMm: out (m x n) = self (m x k) @ mat2 (k x n), 2-D operands (row-major or
 * transposed views).
 * cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32, -1
 * FP16FP32_KEEP_DTYPE. FLOAT16 / BFLOAT16 inputs always multiply exactly and accumulate in FP32
 * on the cube, whatever the value. FLOAT inputs: 0 computes in FP32 on the cube's FP32 path; 1
 * and 3 compute in HFLOAT32 (as Atlas A2 does for 1): a vector kernel first writes copies of self
 * and mat2 rounded to 11 significant bits to the workspace; 2 likewise rounds them to FLOAT16
 * copies; the cube then multiplies the copies with FP32 accumulation into the FLOAT out. -1 with
 * FLOAT is refused (ACLNN_ERR_PARAM_INVALID). Accuracy vs a double reference:
 * ~1e-3 (FLOAT16 out) / ~1e-2 (BFLOAT16 out) / ~1e-5 (FLOAT out) relative to sum |a*b|. */
#ifndef NPUSIM_ACLNNOP_ACLNN_MM_H_
#define NPUSIM_ACLNNOP_ACLNN_MM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self,
                                                            const aclTensor* mat2, aclTensor* out,
                                                            int8_t cubeMathType,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MM_H_ */
