// SPDX-License-Identifier: Apache-2.0
// npusim public header: placeholder for the single-operator (aclop*) API. npusim does not
// provide that library; the file exists because acl/acl.h includes it.
#ifndef NPUSIM_ACL_ACL_OP_H
#define NPUSIM_ACL_ACL_OP_H

#include "acl_base.h"

#endif  // NPUSIM_ACL_ACL_OP_H
