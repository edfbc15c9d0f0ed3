/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnEmbedding: out[i..., :] = weight[indices[i...], :] for weight [num, dim] and INT32 or
 * INT64 indices of any shape (out: indices' shape + [dim], weight's type). An index outside
 * [0, num) stops the kernel with a device trap: the stream reports the vector / AI Core exception.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then aclnnEmbedding
 * launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_EMBEDDING_H_
#define NPUSIM_ACLNNOP_ACLNN_EMBEDDING_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight,
                                                               const aclTensor* indices,
                                                               const aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbedding(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_EMBEDDING_H_ */
