// SPDX-License-Identifier: Apache-2.0
// The older GM -> UB DataCopyPad form of the Ascend C twin:
//   DataCopyPad(dst, src, DataCopyParams, DataCopyPadParams)
// with the same meaning as data_copy.h's DataCopyExtParams / DataCopyPadExtParams form (blockLen
// in bytes, the GM-side stride in bytes, the UB-side one in 32-byte blocks; isPad fills
// leftPadding / rightPadding elements with paddingValue), which it calls: one MTE2 instruction.
// Kept apart from data_copy.h (and outside NPUSIM_ASCENDC_BASIC_ONLY) so npusim's aclnn kernels
// compile exactly as before.
#pragma once

#include <cstdint>

#include "npusim/ascendc/data_copy.h"

namespace AscendC {

struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, std::uint8_t left, std::uint8_t right, std::uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  std::uint8_t leftPadding = 0;
  std::uint8_t rightPadding = 0;
  std::uint64_t paddingValue = 0;
};

template <class T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                        const DataCopyParams& params, const DataCopyPadParams& padParams) {
  const DataCopyExtParams ext(params.blockCount, params.blockLen, params.srcStride,
                              params.dstStride);
  const DataCopyPadExtParams<T> pad(padParams.isPad, padParams.leftPadding,
                                    padParams.rightPadding,
                                    static_cast<T>(padParams.paddingValue));
  DataCopyPad(dst, src, ext, pad);
}

}  // namespace AscendC
