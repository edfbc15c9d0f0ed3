// SPDX-License-Identifier: Apache-2.0
// npusim's kernel_operator.h: a CPU twin of the Ascend C device API. Kernel sources compile with
// the host compiler against it; every Ascend C call computes its result on host memory and
// records one instruction in the running block's trace (npusim/ascendc/trace.h) for the AI Core
// timing model. See npusim/ascendc/*.h:
//   device.h      qualifiers, GM_ADDR, half/bfloat16_t, block_idx, printf, dcci, asm("trap")
//   tensor.h      TPosition, LocalTensor, GlobalTensor
//   tpipe.h       TPipe, TQue/TQueBind, TBuf, SetFlag/WaitFlag/PipeBarrier
//   debug_assert.h   ascendc_assert
//   static_tensor.h  static-tensor programming: InitSocState, LocalMemAllocator<Hardware::...>
//   data_copy.h   DataCopy (GM<->UB, GM->L1, ND2NZ, DataCopyParams), DataCopyPad
//   vector_ops.h  Add Sub Mul Div Max Min Adds Muls Maxs Mins Exp Ln Abs Relu Sqrt Duplicate
//                 Cast ReduceSum ReduceMax ReduceMin
//   cube_ops.h    LoadData, Mmad, Fixpipe
//   attention_ops.h  repeat-form Add/Sub/Mul/Div/Max/Min (BinaryRepeatParams), WholeReduceMax,
//                 WholeReduceSum, Brcb
//   shape_ops.h   Gather, Compare, Select
//   atomic_ops.h  SetAtomicAdd/Max/Min, SetAtomicNone, DisableDmaAtomic
//   sync_ops.h    SyncAll, IBSet/IBWait, Read/WriteGmByPassDCache, DataCacheCleanAndInvalid...
//   utility.h     ONE_BLK_SIZE and the other block sizes, IsSameType, Conditional
//   launch.h      <<<>>> launch and kernel registration seam with the runtime
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "npusim/ascendc/atomic_ops.h"
#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/debug_assert.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/shape_ops.h"
#include "npusim/ascendc/static_tensor.h"
#include "npusim/ascendc/sync_ops.h"
#include "npusim/ascendc/norm_ops.h"
#include "npusim/ascendc/matmul_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"
#include "npusim/ascendc/trace.h"
#include "npusim/ascendc/utility.h"
#include "npusim/ascendc/vector_ops.h"

// Last, after every standard header: `asm("trap")` in kernel code raises DeviceTrap.
#define asm(...) ::npusim::ascendc::device_asm(__VA_ARGS__)
