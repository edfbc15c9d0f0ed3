// SPDX-License-Identifier: Apache-2.0
// lib/utils/kernel_log.h: KERNEL_LOG, ASCENDC_ASSERT and ASSERT, defined in
// npusim/ascendc/kernel_log.h.
#pragma once

#include "npusim/ascendc/kernel_log.h"
