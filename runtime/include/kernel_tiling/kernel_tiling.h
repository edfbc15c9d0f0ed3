/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's kernel_tiling/kernel_tiling.h: the tiling structures host code fills and kernels read.
 * TCubeTiling is the Matmul high-level API's tiling (lib/matmul_intf.h; produced on the host by
 * tiling/tiling_api.h's MatmulApiTiling / MultiCoreMatmulTiling::GetTiling): 50 int32 fields,
 * 200 bytes, in CANN's order, so a tiling printed as bytes by one program can be compared with
 * another's (the devkit's AOT example does). Host and kernel sources share it.
 * The normalization APIs' structures are in kernel_tiling/normalization_tiling.h (included).
 */
#ifndef NPUSIM_KERNEL_TILING_KERNEL_TILING_H_
#define NPUSIM_KERNEL_TILING_KERNEL_TILING_H_

#include <cstddef>
#include <cstdint>

#include "kernel_tiling/softmax_tiling.h"

/// The field list, in layout order (X(name) per int32 field).
#define NPUSIM_TCUBE_TILING_FIELDS(X) \
  X(usedCoreNum) \
  X(M) \
  X(N) \
  X(Ka) \
  X(Kb) \
  X(singleCoreM) \
  X(singleCoreN) \
  X(singleCoreK) \
  X(baseM) \
  X(baseN) \
  X(baseK) \
  X(depthA1) \
  X(depthB1) \
  X(stepM) \
  X(stepN) \
  X(isBias) \
  X(transLength) \
  X(iterateOrder) \
  X(shareMode) \
  X(shareL1Size) \
  X(shareL0CSize) \
  X(shareUbSize) \
  X(batchM) \
  X(batchN) \
  X(singleBatchM) \
  X(singleBatchN) \
  X(stepKa) \
  X(stepKb) \
  X(depthAL1CacheUB) \
  X(depthBL1CacheUB) \
  X(dbL0A) \
  X(dbL0B) \
  X(dbL0C) \
  X(ALayoutInfoB) \
  X(ALayoutInfoS) \
  X(ALayoutInfoN) \
  X(ALayoutInfoG) \
  X(ALayoutInfoD) \
  X(BLayoutInfoB) \
  X(BLayoutInfoS) \
  X(BLayoutInfoN) \
  X(BLayoutInfoG) \
  X(BLayoutInfoD) \
  X(CLayoutInfoB) \
  X(CLayoutInfoS1) \
  X(CLayoutInfoN) \
  X(CLayoutInfoG) \
  X(CLayoutInfoS2) \
  X(BatchNum) \
  X(mxTypePara)

/// The Matmul API's tiling: shapes (M, N, Ka, Kb), the per-core part (singleCore*), the L0 base
/// block (base*), what L1 holds (depth*, step*), double buffering (db*), buffer use (share*).
struct TCubeTiling {
  std::int32_t usedCoreNum;
  std::int32_t M;
  std::int32_t N;
  std::int32_t Ka;
  std::int32_t Kb;
  std::int32_t singleCoreM;
  std::int32_t singleCoreN;
  std::int32_t singleCoreK;
  std::int32_t baseM;
  std::int32_t baseN;
  std::int32_t baseK;
  std::int32_t depthA1;
  std::int32_t depthB1;
  std::int32_t stepM;
  std::int32_t stepN;
  std::int32_t isBias;
  std::int32_t transLength;
  std::int32_t iterateOrder;
  std::int32_t shareMode;
  std::int32_t shareL1Size;
  std::int32_t shareL0CSize;
  std::int32_t shareUbSize;
  std::int32_t batchM;
  std::int32_t batchN;
  std::int32_t singleBatchM;
  std::int32_t singleBatchN;
  std::int32_t stepKa;
  std::int32_t stepKb;
  std::int32_t depthAL1CacheUB;
  std::int32_t depthBL1CacheUB;
  std::int32_t dbL0A;
  std::int32_t dbL0B;
  std::int32_t dbL0C;
  std::int32_t ALayoutInfoB;
  std::int32_t ALayoutInfoS;
  std::int32_t ALayoutInfoN;
  std::int32_t ALayoutInfoG;
  std::int32_t ALayoutInfoD;
  std::int32_t BLayoutInfoB;
  std::int32_t BLayoutInfoS;
  std::int32_t BLayoutInfoN;
  std::int32_t BLayoutInfoG;
  std::int32_t BLayoutInfoD;
  std::int32_t CLayoutInfoB;
  std::int32_t CLayoutInfoS1;
  std::int32_t CLayoutInfoN;
  std::int32_t CLayoutInfoG;
  std::int32_t CLayoutInfoS2;
  std::int32_t BatchNum;
  std::int32_t mxTypePara;
};
static_assert(sizeof(TCubeTiling) == 200, "TCubeTiling is CANN's 50 int32 fields");

#include "kernel_tiling/normalization_tiling.h"  // LayerNormTiling, RmsNormTiling, ...

namespace AscendC {
namespace tiling {
using ::TCubeTiling;
}  // namespace tiling
}  // namespace AscendC

/// A tiling structure from its bytes, usable in constant expressions (a compile-time tiling, as
/// in the devkit's AOT example): reads sizeof(T) bytes from `bytes`.
template <class T>
constexpr T convert_from_bytes(const std::uint8_t* bytes) {
  struct Raw {
    std::uint8_t b[sizeof(T)];
  } raw{};
  for (std::size_t i = 0; i < sizeof(T); ++i) raw.b[i] = bytes[i];
  return __builtin_bit_cast(T, raw);
}

#include "kernel_tiling/transform_tiling.h"  // Pad, UnPad, ConfusionTranspose, TopK

#endif  // NPUSIM_KERNEL_TILING_KERNEL_TILING_H_
