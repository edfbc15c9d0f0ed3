// SPDX-License-Identifier: Apache-2.0
// npusim's c_api/asc_simd.h: CANN 9's Ascend C C API (the asc_* functions on raw __ubuf__ /
// __gm__ pointers) for dav-2201, on the Ascend C CPU twin. What it offers and how it maps onto
// the twin's instructions: npusim/ascendc/c_api.h (state, system variables, synchronisation,
// GM <-> UB copies) and npusim/ascendc/c_api_vector.h (vector compute). The dav-3510 register
// API (reg_compute) does not exist for dav-2201 and is not declared.
#pragma once

#include "npusim/ascendc/c_api.h"
#include "npusim/ascendc/c_api_vector.h"
