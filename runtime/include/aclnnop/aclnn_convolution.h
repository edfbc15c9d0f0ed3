/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnConvolution: output = conv(input, weight) + bias (cross-correlation), NCHW / NCL.
 * Simulator support: 2-D (input [N, Cin, H, W], weight [Cout, Cin/groups, Kh, Kw], output
 * [N, Cout, Ho, Wo]; stride / padding / dilation of 1 or 2 values) and 1-D (input [N, Cin, L],
 * weight [Cout, Cin/groups, K], output [N, Cout, Lo]; 1 value each); any groups dividing Cin and
 * Cout (depthwise included); transposed = false; FLOAT16, BFLOAT16 or FLOAT, all tensors one
 * type; bias [Cout] or NULL; weight, bias and output contiguous (input any strides). Other
 * cases are refused with ACLNN_ERR_PARAM_INVALID.
 * Kernels: im2col (vector cores) into the workspace, then the cube matmul with fp32
 * accumulation per (image, group) (two launches; a 1x1 stride-1 unpadded convolution skips the
 * im2col). cubeMathType as for aclnnMatmul (FLOAT: 0 FP32; 1, 3 HFLOAT32 copies of input and
 * weight first, a third launch; 2 refused). Accuracy vs a double reference: ~1e-3 (FLOAT16) /
 * ~1e-2 (BFLOAT16) / ~1e-5 (FLOAT) relative to sum |x*w| + |bias|. */
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
