// SPDX-License-Identifier: Apache-2.0
// npusim's kernel_operator.h: a CPU twin of the Ascend C device API. Kernel sources compile with
// the host compiler against it; every Ascend C call computes its result on host memory and
// records one instruction in the running block's trace (npusim/ascendc/trace.h) for the AI Core
// timing model. See npusim/ascendc/*.h:
//   device.h      qualifiers, GM_ADDR, half/bfloat16_t, block_idx, printf, dcci, asm("trap")
//   tensor.h      TPosition, LocalTensor, GlobalTensor
//   tpipe.h       TPipe, TQue/TQueBind, TBuf, SetFlag/WaitFlag/PipeBarrier
//   buf_pool.h    TBufPool, EXTERN_IMPL_BUFPOOL, GetTPipePtr() at global scope
//   debug_assert.h   ascendc_assert
//   dump_ops.h    DumpTensor (and the asc_dump family of utils/debug/asc_dump.h)
//   static_tensor.h  static-tensor programming: InitSocState, LocalMemAllocator<Hardware::...>
//   data_copy.h   DataCopy (GM<->UB, GM->L1, ND2NZ, DataCopyParams), DataCopyPad
//   vector_ops.h  Add Sub Mul Div Max Min Adds Muls Maxs Mins Exp Ln Abs Relu Sqrt Reciprocal
//                 Duplicate
//                 Cast ReduceSum ReduceMax ReduceMin
//   cube_ops.h    LoadData, Mmad, Fixpipe
//   mmad_bias.h   Mmad with a bias (C2) tensor
//   load3d.h      LoadData with LoadData3DParamsV2 (image to column, L1 -> L0A/L0B)
//   fixpipe_ext.h Fixpipe to L1 / with a quant tensor, DataCopyCO12DstParams, Fixpipe registers
//   attention_ops.h  repeat-form Add/Sub/Mul/Div/Max/Min (BinaryRepeatParams), WholeReduceMax,
//                 WholeReduceSum, Brcb
//   vector_copy.h Copy (UB -> UB repeats on the vector pipe)
//   shape_ops.h   Gather, Compare, Select
//   sparse_mmad.h LoadDataWithSparse, MmadWithSparse (2:4 sparse int8)
//   slice_copy.h  DataCopy with SliceInfo (GM <-> UB slices)
//   stack_buffer.h  PopStackBuffer, AscendCUtils::SetOverflow
//   shape_info.h  ShapeInfo, DataFormat (LocalTensor::SetShapeInfo / GetShapeInfo)
//   atomic_ops.h  SetAtomicAdd/Max/Min, SetAtomicNone, DisableDmaAtomic
//   sync_ops.h    SyncAll, IBSet/IBWait, Read/WriteGmByPassDCache, DataCacheCleanAndInvalid...
//   utility.h     ONE_BLK_SIZE and the other block sizes, IsSameType, Conditional
//   int4.h        int4b_t (two per byte)
//   vector_mask.h SetMaskCount/SetMaskNorm, SetVectorMask, ResetMask, UnaryRepeatParams, DivCeil
//   vector_basic.h  LeakyRelu AddRelu Axpy And Or ShiftLeft ShiftRight CreateVecIndex, repeat Cast
//   vector_reduce.h ReduceRepeat ReduceDataBlock ReducePairElem, repeat-form ReduceMax/Min/Sum
//   vector_select.h Compare to CMPMASK, GetCmpMask, Gatherb, Transpose, TransDataTo5HD, SetPadValue
//   vector_sort.h Sort32, MrgSort
//   launch.h      <<<>>> launch and kernel registration seam with the runtime
// and the high-level APIs, one family per header (lib/<kind>/<family>.h), built on the basic
// vector operations above (their temporary space: npusim/ascendc/high_level_tmp.h):
//   lib/activation  Gelu, GeGLU, Sigmoid, Silu, Swish
//   lib/math        Acosh, Axpy (half -> float), Ceil/Floor/Trunc/Rint/Round/Frac, ClampMin/Max,
//                   CumSum, Erf, Exp (Taylor), Fmod, Log/Log2/Log10, Power, Xor
//   lib/index       Arange
//   lib/utils       AscendC::Std type traits
//   lib/normalization  LayerNorm, LayerNormGrad, LayerNormGradBeta, Normalize, RmsNorm, DeepNorm,
//                   WelfordUpdate, WelfordFinalize
//   lib/quantization   AscendQuant, AscendDequant, AscendAntiQuant
//   lib/filter      DropOut, Select (byte mask)
//   lib/sort        Concat, Sort, Extract, GetSortLen/Offset, TopK
//   lib/transform   Fill (GM), Pad, UnPad, Transpose (ConfusionTranspose), TransData (and
//                   lib/layout: MakeShape/MakeStride/MakeLayout); Broadcast: norm_ops.h
//   lib/utils       KERNEL_LOG, ASCENDC_ASSERT
// and, outside the basic API too, data_copy_pad_params.h (DataCopyPad with DataCopyPadParams).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "npusim/ascendc/atomic_ops.h"
#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/buf_pool.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/debug_assert.h"
#include "npusim/ascendc/fixpipe_ext.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/dump_ops.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/load3d.h"
#include "npusim/ascendc/shape_ops.h"
#include "npusim/ascendc/slice_copy.h"
#include "npusim/ascendc/stack_buffer.h"
#include "npusim/ascendc/sparse_mmad.h"
#include "npusim/ascendc/static_tensor.h"
#include "npusim/ascendc/sync_ops.h"
#include "npusim/ascendc/norm_ops.h"
#include "npusim/ascendc/matmul_ops.h"
#include "npusim/ascendc/mix_ops.h"
#include "npusim/ascendc/mmad_bias.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"
#include "npusim/ascendc/trace.h"
#include "npusim/ascendc/utility.h"
#include "npusim/ascendc/vector_copy.h"
#include "npusim/ascendc/vector_ops.h"
#include "npusim/ascendc/int4.h"
#include "npusim/ascendc/size_of_bits.h"
#include "npusim/ascendc/core_modes.h"
#include "npusim/ascendc/vector_mask.h"
#include "npusim/ascendc/vector_basic.h"
#include "npusim/ascendc/vector_reduce.h"
#include "npusim/ascendc/vector_select.h"
#include "npusim/ascendc/vector_sort.h"
#include "npusim/ascendc/vector_level0.h"
#include "npusim/ascendc/symbol_ops.h"

// NPUSIM_ASCENDC_BASIC_ONLY: the basic API alone, for npusim's own aclnn kernels, which are
// written on it: headers they never call would still change how GCC inlines their code, hence
// their counted basic blocks and simulated times (runtime/aclnn/CMakeLists.txt sets it).
#ifndef NPUSIM_ASCENDC_BASIC_ONLY
#include "npusim/ascendc/data_copy_pad_params.h"
#include "lib/activation/geglu.h"
#include "lib/activation/gelu.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/log_softmax.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmax_flash.h"
#include "lib/activation/softmax_flash_v3.h"
#include "lib/activation/softmax_grad.h"
#include "lib/activation/swiglu.h"
#include "lib/activation/swish.h"
#include "lib/index/arange.h"
#include "lib/math/acosh.h"
#include "lib/math/axpy.h"
#include "lib/math/clamp.h"
#include "lib/math/cumsum.h"
#include "lib/math/erf.h"
#include "lib/math/exp.h"
#include "lib/math/fmod.h"
#include "lib/math/log.h"
#include "lib/math/power.h"
#include "lib/math/rounding.h"
#include "lib/math/xor.h"
#include "lib/layout/layout.h"
#include "lib/utils/std_tuple.h"
#include "lib/utils/type_traits.h"
#include "npusim/ascendc/kernel_log.h"
#include "npusim/ascendc/scalar_minmax.h"
#include "npusim/ascendc/shape_info.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/layernorm_grad.h"
#include "lib/normalization/normalize.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/normalization/welford.h"
#include "lib/quantization/ascend_antiquant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/filter/dropout.h"
#include "lib/filter/select.h"
#include "lib/sort/sort.h"
#include "lib/sort/topk.h"
#include "lib/transform/confusion_transpose.h"
#include "lib/transform/fill.h"
#include "lib/transform/pad.h"
#include "lib/transform/trans_data.h"
#include "lib/utils/kernel_log.h"
#include "npusim/ascendc/sys_workspace.h"
#endif

// Last, after every standard header: `asm("trap")` in kernel code raises DeviceTrap.
#define asm(...) ::npusim::ascendc::device_asm(__VA_ARGS__)
