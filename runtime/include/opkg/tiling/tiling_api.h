// SPDX-License-Identifier: Apache-2.0
// tiling/tiling_api.h as operator packages' op_host sources include it: the platform description
// and gert's tiling context. The high-level APIs' tiling classes (Matmul, Softmax, ...) are not
// here yet (issue 26).
#pragma once

#include "register/tiling_context.h"
#include "tiling/platform/platform_ascendc.h"
