// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's compile-time configuration (lib/matmul_intf.h), global as in CANN:
//   MatmulConfig          the template's options; CFG_NORM, CFG_MDL, CFG_IBSHARE_NORM, MM_CFG_BB
//   GetNormalConfig / GetMDLConfig / GetSpecialMDLConfig / GetIBShareNormConfig / GetBasicConfig
//                         a config with the named options set
//   GetMMConfig<mode>(MatmulShapeParams / QuantParams / BatchParams / FuncParams...)
//                         a config from the defaults of `mode` and the groups given, any order
//   MatmulApiStaticTiling, GetMatmulApiTiling<A, B, C, BIAS>(cfg)
//                         a tiling fixed at compile time (the Matmul's MM_CFG may be one)
//   MatmulCallBackFunc<copyOut, copyA1, copyB1>
//                         user functions replacing the Matmul's GM -> L1 loads or its L0C -> GM
//                         write-out (nullptr: the Matmul's own)
// What npusim's Matmul (npusim/ascendc/matmul_api.h) does with each option is said there; the
// options that only choose among schedules of the same result are accepted and named as such.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/tensor.h"

enum class BatchMode : std::uint8_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1,
                                      SINGLE_LARGE_THAN_L1 };
enum class IterateOrder : std::int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : std::int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
enum class BatchOutMode : std::uint8_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum IterateMode : std::uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class MatmulConfigMode : std::int32_t { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL,
                                             CONFIG_IBSHARE };

/// The options of one Matmul template (CANN's field order).
struct MatmulConfig {
  bool doNorm = false;
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
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  std::uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  std::uint32_t sharedCO1BufferSize = 64 * 1024;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableRelu = false;
};

namespace npusim::ascendc::mm {

/// The defaults of each template.
constexpr MatmulConfig norm_config() {
  MatmulConfig c{};
  c.doNorm = true;
  c.batchMode = BatchMode::BATCH_LESS_THAN_L1;
  return c;
}
constexpr MatmulConfig mdl_config() {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.enUnitFlag = false;
  c.enableUBReuse = true;
  return c;
}
constexpr MatmulConfig special_mdl_config() {
  MatmulConfig c = mdl_config();
  c.doMultiDataLoad = false;
  c.doSpecialMDL = true;
  return c;
}
constexpr MatmulConfig ibshare_config() {
  MatmulConfig c{};
  c.doIBShareNorm = true;
  c.batchMode = BatchMode::BATCH_LESS_THAN_L1;
  return c;
}
constexpr MatmulConfig mode_config(MatmulConfigMode mode) {
  switch (mode) {
    case MatmulConfigMode::CONFIG_MDL: return mdl_config();
    case MatmulConfigMode::CONFIG_SPECIALMDL: return special_mdl_config();
    case MatmulConfigMode::CONFIG_IBSHARE: return ibshare_config();
    default: return norm_config();
  }
}

}  // namespace npusim::ascendc::mm

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                       bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       bool enUnitFlag = true, bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c = npusim::ascendc::mm::norm_config();
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                    std::uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true,
                                    bool enableUBReuse = true, bool enableL1CacheUB = false,
                                    bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false) {
  MatmulConfig c = npusim::ascendc::mm::mdl_config();
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           std::uint32_t doMTE2Preload = 0,
                                           bool isVecND2NZ = false, bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c = npusim::ascendc::mm::special_mdl_config();
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
  MatmulConfig c = npusim::ascendc::mm::ibshare_config();
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig GetBasicConfig(std::uint32_t basicM, std::uint32_t basicN,
                                      std::uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false,
                                      BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = npusim::ascendc::mm::norm_config();
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

/// GetMMConfig's groups of options.
struct MatmulShapeParams {
  std::uint32_t singleCoreM = 0;
  std::uint32_t singleCoreN = 0;
  std::uint32_t singleCoreK = 0;
  std::uint32_t basicM = 0;
  std::uint32_t basicN = 0;
  std::uint32_t basicK = 0;
};
struct MatmulQuantParams {
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
};
struct MatmulBatchParams {
  bool isNBatch = false;
  BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsLimit = false;
  bool enVecND2NZ = false;
  bool enableDoubleCache = false;
  bool enableL1CacheUB = false;
  std::uint32_t doMTE2Preload = 0;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
};

namespace npusim::ascendc::mm {

constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM;
  c.singleCoreN = p.singleCoreN;
  c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM;
  c.basicN = p.basicN;
  c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor;
  c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) {
  c.isNBatch = p.isNBatch;
  c.batchMode = p.batchMode;
  c.isBiasBatch = p.isBiasBatch;
  c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
  c.intrinsicsCheck = p.intrinsicsLimit;
  c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache;
  c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload;
  c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType;
  c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse;
  c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared;
  c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
}

}  // namespace npusim::ascendc::mm

template <MatmulConfigMode configMode, class... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig c = npusim::ascendc::mm::mode_config(configMode);
  (npusim::ascendc::mm::apply(c, args), ...);
  return c;
}

/// A tiling fixed at compile time and its config (GetMatmulApiTiling). Fields of 0 or less are
/// not fixed.
struct MatmulApiStaticTiling {
  std::int32_t M = -1, N = -1, Ka = -1, Kb = -1;
  std::int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  std::int32_t baseM = -1, baseN = -1, baseK = -1;
  std::int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, stepKa = -1, stepKb = -1;
  std::int32_t isBias = -1, transLength = -1, iterateOrder = -1;
  std::int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
  std::int32_t shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
  std::int32_t batchM = -1, batchN = -1, singleBatchM = -1, singleBatchN = -1;
  std::int32_t mxTypePara = -1;
  MatmulConfig cfg{};
};

namespace npusim::ascendc::mm {

constexpr std::int32_t ceil_div(std::int32_t a, std::int32_t b) { return (a + b - 1) / b; }
inline constexpr std::int32_t kL1Size = 512 * 1024;

/// The config of a Matmul's MM_CFG argument (a MatmulConfig or a MatmulApiStaticTiling).
template <class Cfg>
constexpr MatmulConfig config_of(const Cfg& cfg) {
  if constexpr (std::is_same_v<std::decay_t<Cfg>, MatmulApiStaticTiling>) {
    return cfg.cfg;
  } else {
    return cfg;
  }
}
template <class Cfg>
constexpr bool is_static_tiling() {
  return std::is_same_v<std::decay_t<Cfg>, MatmulApiStaticTiling>;
}

/// The fixed fields of a MatmulApiStaticTiling into a TCubeTiling (the others stay 0).
template <class Tiling>
constexpr void copy_static_tiling(const MatmulApiStaticTiling& s, Tiling& t) {
#define NPUSIM_MM_STATIC_FIELD(f) t.f = s.f > 0 ? s.f : 0;
  NPUSIM_MM_STATIC_FIELD(M) NPUSIM_MM_STATIC_FIELD(N) NPUSIM_MM_STATIC_FIELD(Ka)
  NPUSIM_MM_STATIC_FIELD(Kb) NPUSIM_MM_STATIC_FIELD(singleCoreM)
  NPUSIM_MM_STATIC_FIELD(singleCoreN) NPUSIM_MM_STATIC_FIELD(singleCoreK)
  NPUSIM_MM_STATIC_FIELD(baseM) NPUSIM_MM_STATIC_FIELD(baseN) NPUSIM_MM_STATIC_FIELD(baseK)
  NPUSIM_MM_STATIC_FIELD(depthA1) NPUSIM_MM_STATIC_FIELD(depthB1) NPUSIM_MM_STATIC_FIELD(stepM)
  NPUSIM_MM_STATIC_FIELD(stepN) NPUSIM_MM_STATIC_FIELD(stepKa) NPUSIM_MM_STATIC_FIELD(stepKb)
  NPUSIM_MM_STATIC_FIELD(isBias) NPUSIM_MM_STATIC_FIELD(iterateOrder)
  NPUSIM_MM_STATIC_FIELD(dbL0A) NPUSIM_MM_STATIC_FIELD(dbL0B) NPUSIM_MM_STATIC_FIELD(dbL0C)
  NPUSIM_MM_STATIC_FIELD(shareL1Size) NPUSIM_MM_STATIC_FIELD(shareL0CSize)
  NPUSIM_MM_STATIC_FIELD(batchM) NPUSIM_MM_STATIC_FIELD(batchN)
  NPUSIM_MM_STATIC_FIELD(singleBatchM) NPUSIM_MM_STATIC_FIELD(singleBatchN)
#undef NPUSIM_MM_STATIC_FIELD
}

}  // namespace npusim::ascendc::mm

namespace AscendC {

/// The tiling fixed by the config's basicM/N/K (and singleCoreM/N/K when given): every k step
/// of the core's part held in L1 when it fits l1Size (else halved until it does), one base
/// block per L1 load in M and N, L0A/L0B double-buffered.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   std::int32_t l1Size = npusim::ascendc::mm::kL1Size) {
  using npusim::ascendc::mm::ceil_div;
  MatmulApiStaticTiling t{};
  t.cfg = mmCFG;
  if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return t;
  t.baseM = static_cast<std::int32_t>(mmCFG.basicM);
  t.baseN = static_cast<std::int32_t>(mmCFG.basicN);
  t.baseK = static_cast<std::int32_t>(mmCFG.basicK);
  t.dbL0A = t.dbL0B = 2;
  t.dbL0C = 1;
  t.iterateOrder = 0;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) return t;
  t.singleCoreM = t.M = static_cast<std::int32_t>(mmCFG.singleCoreM);
  t.singleCoreN = t.N = static_cast<std::int32_t>(mmCFG.singleCoreN);
  t.singleCoreK = t.Ka = t.Kb = static_cast<std::int32_t>(mmCFG.singleCoreK);
  const std::int32_t bytes = static_cast<std::int32_t>(sizeof(typename A_TYPE::T));
  const std::int32_t a_blk = t.baseM * t.baseK * bytes, b_blk = t.baseK * t.baseN * bytes;
  std::int32_t k_steps = ceil_div(t.singleCoreK, t.baseK);
  while (k_steps > 1 && k_steps * (a_blk + b_blk) > l1Size) k_steps = ceil_div(k_steps, 2);
  t.stepM = t.stepN = 1;
  t.stepKa = t.stepKb = k_steps;
  t.depthA1 = t.depthB1 = k_steps;
  t.isBias = mmCFG.enableSetBias ? 1 : 0;
  t.shareL1Size = k_steps * (a_blk + b_blk);
  t.shareL0CSize = t.baseM * t.baseN * 4;
  t.shareMode = t.shareUbSize = t.transLength = t.mxTypePara = 0;
  return t;
}

/// User copy functions for the Matmul (template argument MM_CB): copyOut writes one base block
/// of C from L0C to GM, copyA1 / copyB1 load one A / B block from GM into L1 (row, col: the
/// block's index in M/K or K/N steps; useM/useK/useN its size).
template <auto copyOut = nullptr, auto copyA1 = nullptr, auto copyB1 = nullptr>
struct MatmulCallBackFunc {
  static constexpr auto kCopyOut = copyOut;
  static constexpr auto kCopyA1 = copyA1;
  static constexpr auto kCopyB1 = copyB1;
};

using ::CFG_IBSHARE_NORM;
using ::CFG_MDL;
using ::CFG_NORM;
using ::GetBasicConfig;
using ::GetIBShareNormConfig;
using ::GetMDLConfig;
using ::GetMMConfig;
using ::GetNormalConfig;
using ::GetSpecialMDLConfig;
using ::MatmulApiStaticTiling;
using ::MatmulConfig;
using ::MM_CFG_BB;

}  // namespace AscendC
