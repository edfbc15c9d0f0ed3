// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "acl/acl.h"
#include "scale_args.h"

void LaunchScale(ScaleArgs* args, aclrtStream stream);
