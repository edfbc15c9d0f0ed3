// SPDX-License-Identifier: Apache-2.0
// npusim public header: the single-operator model API (aclop*) and tensor descriptions. Names
// and signatures follow CANN's acl_op.h / acl_base.h. npusim has no single-operator models (no
// `atc --singleop` .om files to load or run): every function here is one of the generated
// "not supported" stubs (runtime/acl/gen_unsupported.py) — aclError functions log and return
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, the creators return NULL. Operators run through aclnn.
#ifndef NPUSIM_ACL_ACL_OP_H
#define NPUSIM_ACL_ACL_OP_H

#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensorDesc aclTensorDesc;
typedef struct aclopAttr aclopAttr;

ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims,
                                                       const int64_t* dims, aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr();
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr);
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char* modelDir);
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char* opType, int numInputs,
                                            aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                                            int numOutputs, aclTensorDesc* outputDesc[],
                                            aclDataBuffer* outputs[], aclopAttr* attr,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_OP_H
