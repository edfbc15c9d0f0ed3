// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's type vocabulary (lib/matmul_intf.h): CubeFormat, MatmulType (where a
// matrix is, its format, element type and whether it is transposed), MatmulConfig with CFG_NORM
// and CFG_MDL, and the system workspace (SetSysWorkspace / GetSysWorkSpacePtr). The Matmul object
// itself is npusim/ascendc/matmul_api.h.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/tensor.h"

/// Matrix formats in GM or local memory (ND: row-major; NZ: fractal).
enum class CubeFormat : std::int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

/// The compile-time configuration of a Matmul, global as in CANN (and AscendC's). npusim's Matmul
/// runs one base-block loop whatever it says (doNorm / doMultiDataLoad name the schedule only).
struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  std::uint32_t basicM = 0;
  std::uint32_t basicN = 0;
  std::uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  std::uint32_t doMTE2Preload = 0;
  std::uint32_t singleCoreM = 0;
  std::uint32_t singleCoreN = 0;
  std::uint32_t singleCoreK = 0;
  std::uint32_t stepM = 0;
  std::uint32_t stepN = 0;
  std::uint32_t baseMN = 0;
  std::uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
};

inline constexpr MatmulConfig CFG_NORM{};
inline constexpr MatmulConfig CFG_MDL{false, false, true};

namespace AscendC {

/// Layouts of attention-style batched matrices (only NONE is supported by npusim's Matmul).
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

using ::CFG_MDL;
using ::CFG_NORM;
using ::MatmulConfig;

}  // namespace AscendC

namespace npusim::ascendc {

/// The system workspace SetSysWorkspace gave, for the block that gave it.
struct SysWorkspace {
  const BlockContext* owner = nullptr;
  GM_ADDR addr = nullptr;
};
inline thread_local SysWorkspace sys_workspace;

}  // namespace npusim::ascendc

namespace AscendC {

/// Sets the system workspace of this block (GM the library APIs may use).
inline void SetSysWorkspace(GM_ADDR workspace) {
  npusim::ascendc::sys_workspace = {&npusim::ascendc::block(), workspace};
}

}  // namespace AscendC

/// The block's system workspace: what SetSysWorkspace set in this block, else nullptr (npusim's
/// Matmul, cube-only, needs none).
inline GM_ADDR GetSysWorkSpacePtr() {
  const auto& ws = npusim::ascendc::sys_workspace;
  return ws.owner == &npusim::ascendc::block() ? ws.addr : nullptr;
}

namespace AscendC {
using ::GetSysWorkSpacePtr;
}  // namespace AscendC
