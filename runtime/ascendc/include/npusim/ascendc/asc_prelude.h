// SPDX-License-Identifier: Apache-2.0
// What npusim-asc includes before every .asc source: the language keywords and the <<<>>>
// launch seam (the launch rewrite turns `K<<<...>>>(...)` into npusim::ascendc::launch calls,
// which a host-only .asc source must see even when it includes no Ascend C header).
#pragma once

#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/qualifiers.h"
