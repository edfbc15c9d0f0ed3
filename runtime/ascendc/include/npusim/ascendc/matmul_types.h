// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's type vocabulary (lib/matmul_intf.h): CubeFormat, MatmulType (where a
// matrix is, its format, element type and whether it is transposed) and the system workspace
// (npusim/ascendc/sys_workspace.h). The configuration is npusim/ascendc/matmul_config.h, the
// Matmul object npusim/ascendc/matmul_api.h.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/matmul_config.h"
#include "npusim/ascendc/sys_workspace.h"
#include "npusim/ascendc/tensor.h"

/// Matrix formats in GM or local memory (ND: row-major; NZ: fractal).
enum class CubeFormat : std::int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

namespace AscendC {

/// Layouts of batched matrices (IterateBatch: BSNGD and NORMAL; npusim/ascendc/matmul_batch.h).
enum class LayoutMode : std::int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

/// One matrix of a Matmul: position, format, element type, transposed.
template <TPosition POSITION, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  static constexpr TPosition pos = POSITION;
  static constexpr CubeFormat format = FORMAT;
  using T = TYPE;
  static constexpr bool isTrans = ISTRANS;
  static constexpr LayoutMode layout = LAYOUT;
  static constexpr bool ibShare = IBSHARE;
};

}  // namespace AscendC

using AscendC::LayoutMode;  // kernels name it unqualified, as CubeFormat

namespace AscendC::Impl {
/// The depth CANN's Matmul gives its queues (kernels size their own CO1 queues with it).
inline constexpr std::int32_t QUEUE_DEPTH = 1;
}  // namespace AscendC::Impl
