// SPDX-License-Identifier: Apache-2.0
// SoftmaxGrad and SoftmaxGradFront of the Ascend C twin, on the last axis of [m, k] tensors
// (SoftMaxShapeInfo), grad the incoming gradient and src the softmax result:
//   d = rowsum(grad * src);  SoftmaxGradFront (and SoftmaxGrad with isFront): dst = d in an
//   [m, 32 bytes] tensor;  SoftmaxGrad: dst = (grad - d) * src, [m, k].
// dst may be grad or src (a pass reads its rows before writing them; a front result's blocks
// lie below the rows they come from). Per pass of r rows (lib/activation/softmax_common.h):
// Mul, ReduceSum, then Broadcast into the blocks (front) or Broadcast, Sub, Mul; half adds
// Casts. Temporary space: GetSoftMaxGradMinTmpSize; the tiling is not read. isReuseSource and
// isBasicBlock are accepted; the NZ format fails.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax_common.h"

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kGradFloatRows = std::is_same_v<T, float> ? 1 : 3;

template <class T>
void softmax_grad_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                       const AscendC::LocalTensor<T>& src, bool front, const SoftmaxRows& rows,
                       std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
  const std::uint32_t at = row0 * rows.k;
  const auto n = static_cast<std::int32_t>(r * rows.k);
  const auto g = float_rows(grad[at], s.row_buf(1), r * rows.k);
  const auto y = float_rows(src[at], s.row_buf(2), r * rows.k);
  const auto p = s.row_buf(0);
  AscendC::Mul(p, g, y, n);
  row_reduce<Reduce2d::kSum>(s.stat(0), p, r, rows.valid, rows.k);
  if (front) {
    store_blocks(dst[row0 * (32 / sizeof(T))], s.stat(0), s.stat(1), r);
    return;
  }
  spread(p, s.stat(0), r, rows.k);
  AscendC::Sub(p, g, p, n);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Mul(dst[at], p, y, n);
  } else {
    AscendC::Mul(p, p, y, n);
    store_rows(dst[at], p, r * rows.k);
  }
}

template <class T>
void softmax_grad(const char* api, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<std::uint8_t>* shared, bool front,
                  const AscendC::SoftMaxShapeInfo& shape, bool nz) {
  softmax_nd_only(api, nz);
  const SoftmaxRows rows = softmax_rows<T>(api, shape);
  const auto pass = [&](std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
    softmax_grad_pass(dst, grad, src, front, rows, row0, r, s);
  };
  const char* tiling = "GetSoftMaxGradMinTmpSize";
  if (shared != nullptr) {
    softmax_passes(api, tiling, HighLevelTmp(*shared), rows, kGradFloatRows<T>, kStatArrays, pass);
  } else {
    softmax_framework(api, tiling, rows, kGradFloatRows<T>, kStatArrays, 8, pass);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                        const SoftMaxTiling& /*tiling*/, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_grad("SoftmaxGrad", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                isFront, softmaxShapeInfo, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& /*tiling*/,
                        bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_grad("SoftmaxGrad", dstTensor, gradTensor, srcTensor, nullptr, isFront,
                                softmaxShapeInfo, isDataFormatNZ);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor,
                             const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& /*tiling*/,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_grad("SoftmaxGradFront", dstTensor, gradTensor, srcTensor,
                                &sharedTmpBuffer, true, softmaxShapeInfo, isDataFormatNZ);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& /*tiling*/,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_grad("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, nullptr,
                                true, softmaxShapeInfo, isDataFormatNZ);
}

}  // namespace AscendC
