// SPDX-License-Identifier: Apache-2.0
// npusim's utils/debug/asc_assert.h: ascendc_assert (npusim/ascendc/debug_assert.h).
#pragma once

#include "npusim/ascendc/debug_assert.h"
