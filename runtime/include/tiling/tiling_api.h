/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's tiling/tiling_api.h: the host tiling functions of the Ascend C high-level APIs that
 * the twin implements (lib/...), one family per header: AscendC::TensorShape (tensor_shape.h),
 * the activation APIs' temporary space (activation/<family>_tiling.h). Header only.
 */
#ifndef NPUSIM_TILING_TILING_API_H_
#define NPUSIM_TILING_TILING_API_H_

#include "tiling/tensor_shape.h"
#include "tiling/activation/geglu_tiling.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/activation/sigmoid_tiling.h"
#include "tiling/activation/swish_tiling.h"

#endif  // NPUSIM_TILING_TILING_API_H_
