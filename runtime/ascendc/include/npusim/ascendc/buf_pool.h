// SPDX-License-Identifier: Apache-2.0
// Memory management of the Ascend C twin beyond TPipe/TQue/TBuf: GetTPipePtr() at global scope,
// as kernels call it (the current block's TPipe, see tpipe.h).
#pragma once

#include "npusim/ascendc/tpipe.h"

using AscendC::GetTPipePtr;
