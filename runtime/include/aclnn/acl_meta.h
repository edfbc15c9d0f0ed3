/* SPDX-License-Identifier: Apache-2.0 */
/* npusim's operator-library base (CANN's aclnn "meta" API, names and values): tensors, scalars,
 * operator executors and the aclnn status codes. Only what npusim's operators need. */
#ifndef NPUSIM_ACLNN_ACL_META_H_
#define NPUSIM_ACLNN_ACL_META_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000

typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;

/* A view of `tensorData`: element (i0, i1, ...) is at tensorData + (offset + sum(ik * stride[k]))
 * elements. storageDims describe the allocation (kept, not checked). */
ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims,
                                               uint64_t storageDimsNum, void* tensorData);
/* The value is copied. */
ACL_FUNC_VISIBILITY aclScalar* aclCreateScalar(void* value, aclDataType dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar* scalar);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNN_ACL_META_H_ */
