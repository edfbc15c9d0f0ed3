// SPDX-License-Identifier: Apache-2.0
// npusim's kernel_operator.h: a CPU twin of the Ascend C device API. Kernel sources compile with
// the host compiler against it; every Ascend C call computes its result on host memory and
// records one instruction in the running block's trace (npusim/kernel/trace.h) for the AI Core
// timing model. See npusim/kernel/*.h:
//   device.h      qualifiers, GM_ADDR, half/bfloat16_t, block_idx, printf, dcci, asm("trap")
//   tensor.h      TPosition, LocalTensor, GlobalTensor
//   tpipe.h       TPipe, TQue/TQueBind, TBuf, SetFlag/WaitFlag/PipeBarrier
//   data_copy.h   DataCopy (GM<->UB, GM->L1, ND2NZ, DataCopyParams), DataCopyPad
//   vector_ops.h  Add Sub Mul Div Max Min Adds Muls Maxs Mins Exp Ln Abs Relu Sqrt Duplicate
//                 Cast ReduceSum ReduceMax ReduceMin
//   cube_ops.h    LoadData, Mmad, Fixpipe
//   attention_ops.h  repeat-form Add/Sub/Mul/Div/Max/Min (BinaryRepeatParams), WholeReduceMax,
//                 WholeReduceSum, Brcb
//   shape_ops.h   Gather, Compare, Select
//   launch.h      <<<>>> launch and kernel registration seam with the runtime
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "npusim/kernel/attention_ops.h"
#include "npusim/kernel/block_context.h"
#include "npusim/kernel/cube_ops.h"
#include "npusim/kernel/data_copy.h"
#include "npusim/kernel/device.h"
#include "npusim/kernel/half.h"
#include "npusim/kernel/launch.h"
#include "npusim/kernel/shape_ops.h"
#include "npusim/kernel/norm_ops.h"
#include "npusim/kernel/matmul_ops.h"
#include "npusim/kernel/tensor.h"
#include "npusim/kernel/tpipe.h"
#include "npusim/kernel/trace.h"
#include "npusim/kernel/vector_ops.h"

// Last, after every standard header: `asm("trap")` in kernel code raises DeviceTrap.
#define asm(...) ::npusim::kernel::device_asm(__VA_ARGS__)
