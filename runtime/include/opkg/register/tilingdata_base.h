// SPDX-License-Identifier: Apache-2.0
// register/tilingdata_base.h as operator packages include it: BEGIN_TILING_DATA_DEF and the
// other tiling-data macros, defined in npusim's tiling/tiling_data_def.h.
#pragma once

#include "tiling/tiling_data_def.h"
