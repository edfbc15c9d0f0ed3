// SPDX-License-Identifier: Apache-2.0
// What npusim-asc includes before every .asc source: the language keywords and the <<<>>>
// launch seam (the launch rewrite turns `K<<<...>>>(...)` into npusim::ascendc::launch calls,
// which a host-only .asc source must see even when it includes no Ascend C header), and the C
// assert, which CANN's kernel headers bring with them (kernels call it without an include;
// npusim-asc's npusim/libc/assert.h makes it a device assertion inside a kernel block).
#pragma once

#include <assert.h>

#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/qualifiers.h"
#ifdef NPUSIM_ASC_CORE_PASS  // a source built once per core type (npusim-asc)
#include "npusim/ascendc/core_pass.h"
#endif
