/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's device tiling structures of the normalization high-level APIs (lib/normalization):
 * LayerNormTiling ([B, S, H] LayerNorm), LayerNormSeparateTiling ([A, R] LayerNorm with rstd),
 * LayerNormGradTiling, LayerNormGradBetaTiling, RmsNormTiling, DeepNormTiling. Fields in CANN's
 * order and types (uint32 and float, 4 bytes each), so a kernel's copy of the bytes its host wrote
 * reads the same fields. Each field list is an X-macro (X(type, name)) that the host side's
 * optiling classes (tiling/normalization/norm_tiling_data.h) are generated from too.
 * The twin's kernels read the shape fields (b/s/hLength, aLength, rLength, ...) and, for RmsNorm,
 * the pass split (mainBsLength, loopRound, tail*); the other fields are filled for compatibility.
 */
#ifndef NPUSIM_KERNEL_TILING_NORMALIZATION_TILING_H_
#define NPUSIM_KERNEL_TILING_NORMALIZATION_TILING_H_

#include <cstdint>

#define NPUSIM_LAYERNORM_TILING_FIELDS(X)                                                     \
  X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength) \
  X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf)               \
  X(uint32_t, meanTmpTensorPos) X(uint32_t, meanTmpTensorSize)                                \
  X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize) \
  X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos)       \
  X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize)           \
  X(uint32_t, inputTailSize) X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize)         \
  X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) X(uint32_t, bshCurLength)         \
  X(uint32_t, bsCurLength) X(float, lastDimValueBack)

#define NPUSIM_LAYERNORM_SEPARATE_TILING_FIELDS(X)                                             \
  X(uint32_t, aLength) X(uint32_t, rLength) X(uint32_t, halfAddRepeatTimes)                    \
  X(uint32_t, rHeadLength) X(float, k2Rec) X(float, k2RRec) X(uint32_t, inputXSize)            \
  X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, varianceTmpTensorPos)       \
  X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize)           \
  X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos)   \
  X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize)                \
  X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize)         \
  X(uint32_t, meanVarTailPos) X(uint32_t, arCurLength) X(uint32_t, aCurLength)                 \
  X(float, rValueBack)

#define NPUSIM_LAYERNORM_GRAD_TILING_FIELDS(X)                                                 \
  X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)  \
  X(uint32_t, originalHLength) X(uint32_t, oneCalSize) X(uint32_t, nohCalSize)                 \
  X(uint32_t, loopNum) X(uint32_t, tailSize) X(uint32_t, nohTailSize)                          \
  X(uint32_t, tmpTensorBSHPos) X(uint32_t, tmpTensorBSHSize) X(uint32_t, pdVarTensorPos)       \
  X(uint32_t, pdVarTensorSize) X(uint32_t, pdMeanTensorPos) X(uint32_t, pdMeanTensorSize)      \
  X(uint32_t, x1TensorPos) X(uint32_t, x1TensorSize) X(uint32_t, x2TensorPos)                  \
  X(uint32_t, x2TensorSize) X(uint32_t, x3TensorPos) X(uint32_t, x3TensorSize)                 \
  X(uint32_t, tmpTensorPos) X(uint32_t, tmpTensorSize) X(uint32_t, tmpTensor1Pos)              \
  X(uint32_t, tmpTensor1Size) X(uint32_t, tmpTensor2Pos) X(uint32_t, tmpTensor2Size)           \
  X(uint32_t, lastDimValueBack) X(uint32_t, lastDimValueBackMulTwo)

#define NPUSIM_LAYERNORM_GRAD_BETA_TILING_FIELDS(X)                                            \
  X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)  \
  X(uint32_t, originalHLength) X(uint32_t, bshLength) X(uint32_t, bsLength)                    \
  X(uint32_t, oneCalSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, loopRound)                   \
  X(uint32_t, inputTailSize) X(uint32_t, inputTailPos) X(uint32_t, bsTailSize)                 \
  X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(uint32_t, gammaTempTensorPos)           \
  X(uint32_t, betaTempTensorPos) X(uint32_t, inputDyTmpTensorPos)                              \
  X(uint32_t, resForGammaTmpTensorPos) X(uint32_t, reserved)

#define NPUSIM_RMSNORM_TILING_FIELDS(X)                                                        \
  X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)  \
  X(float, reciprocalOfHLength) X(uint32_t, mainBshLength) X(uint32_t, mainBsLength)           \
  X(uint32_t, mainBsLengthAlign) X(uint32_t, loopRound) X(uint32_t, inputTailPos)              \
  X(uint32_t, tailBshLength) X(uint32_t, tailBsLength)

/// DeepNorm's tiling has LayerNorm's [B, S, H] fields.
#define NPUSIM_DEEPNORM_TILING_FIELDS(X) NPUSIM_LAYERNORM_TILING_FIELDS(X)

#define NPUSIM_NORM_STRUCT_MEMBER(type, name) type name = 0;

struct LayerNormTiling {
  NPUSIM_LAYERNORM_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};
struct LayerNormSeparateTiling {
  NPUSIM_LAYERNORM_SEPARATE_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};
struct LayerNormGradTiling {
  NPUSIM_LAYERNORM_GRAD_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};
struct LayerNormGradBetaTiling {
  NPUSIM_LAYERNORM_GRAD_BETA_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};
struct RmsNormTiling {
  NPUSIM_RMSNORM_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};
struct DeepNormTiling {
  NPUSIM_DEEPNORM_TILING_FIELDS(NPUSIM_NORM_STRUCT_MEMBER)
};

#undef NPUSIM_NORM_STRUCT_MEMBER

static_assert(sizeof(LayerNormTiling) == 26 * 4 && sizeof(LayerNormSeparateTiling) == 26 * 4,
              "LayerNorm tilings are CANN's 26 4-byte fields");
static_assert(sizeof(LayerNormGradTiling) == 30 * 4 && sizeof(LayerNormGradBetaTiling) == 20 * 4,
              "LayerNormGrad(Beta) tilings are CANN's 30 / 20 4-byte fields");
static_assert(sizeof(RmsNormTiling) == 12 * 4 && sizeof(DeepNormTiling) == 26 * 4,
              "RmsNorm / DeepNorm tilings are CANN's 12 / 26 4-byte fields");

namespace AscendC {
namespace tiling {
using ::DeepNormTiling;
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormSeparateTiling;
using ::LayerNormTiling;
using ::RmsNormTiling;
}  // namespace tiling
}  // namespace AscendC

#endif  // NPUSIM_KERNEL_TILING_NORMALIZATION_TILING_H_
