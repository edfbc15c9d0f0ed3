/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnConvolution: output = conv2d(input, weight) + bias, NCHW.
 * Simulator support: 2-D (4-D input [N, Cin, H, W], weight [Cout, Cin, Kh, Kw], output
 * [N, Cout, Ho, Wo]), groups = 1, transposed = false; stride / padding / dilation of 1 or 2
 * values; FLOAT16, BFLOAT16 or FLOAT, all tensors one type; bias [Cout] or NULL; weight and
 * output contiguous (input any strides). Other cases are refused with ACLNN_ERR_PARAM_INVALID.
 * Two kernel launches: im2col (vector cores) into the workspace, then the cube matmul with
 * fp32 accumulation (cubeMathType as for aclnnMatmul). Accuracy as for aclnnMatmul. */
#ifndef NPUSIM_ACLNNOP_ACLNN_CONVOLUTION_H_
#define NPUSIM_ACLNNOP_ACLNN_CONVOLUTION_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
    bool transposed, const aclIntArray* outputPadding, const int64_t groups, aclTensor* output,
    int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_CONVOLUTION_H_ */
