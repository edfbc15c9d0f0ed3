// SPDX-License-Identifier: Apache-2.0
// npusim public header: placeholder for the offline-model (aclmdl*) API. npusim does not
// provide that library; the model-runtime-instance calls (aclmdlRI*) are in acl/acl_rt.h.
#ifndef NPUSIM_ACL_ACL_MDL_H
#define NPUSIM_ACL_ACL_MDL_H

#include "acl_rt.h"

#endif  // NPUSIM_ACL_ACL_MDL_H
