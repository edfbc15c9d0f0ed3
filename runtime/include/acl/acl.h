// SPDX-License-Identifier: Apache-2.0
// npusim public header: umbrella include of the ACL runtime API, as CANN's acl/acl.h.
#ifndef NPUSIM_ACL_ACL_H
#define NPUSIM_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif  // NPUSIM_ACL_ACL_H
