/* SPDX-License-Identifier: Apache-2.0 */
/* CANN's operator-library base header name; npusim declares everything in acl_meta.h. */
#ifndef NPUSIM_ACLNN_ACLNN_BASE_H_
#define NPUSIM_ACLNN_ACLNN_BASE_H_
#include "aclnn/acl_meta.h"
#endif /* NPUSIM_ACLNN_ACLNN_BASE_H_ */
