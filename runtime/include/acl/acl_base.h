// SPDX-License-Identifier: Apache-2.0
// npusim public header: everything an ACL program needs before touching the runtime API
// (types, ACL-layer status codes, runtime status codes, init/finalize, version queries).
#ifndef NPUSIM_ACL_ACL_BASE_H
#define NPUSIM_ACL_ACL_BASE_H

#include "acl_base_rt.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif  // NPUSIM_ACL_ACL_BASE_H
