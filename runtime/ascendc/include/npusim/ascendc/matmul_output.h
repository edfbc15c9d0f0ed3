// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's write-out (npusim/ascendc/matmul_api.h): one base block of C from
// L0C to GM with one Fixpipe (FIXPIPE pipe), converting the accumulator to C's type:
//   ND        rows of the block at their place in C (row pitch: C's width)
//   ND_ALIGN  the same with the row pitch rounded up to 32 bytes
//   NZ        the block's 16-column fractal columns at their place in C stored as NZ (C's rows
//             rounded up to 16 per fractal column); with MatmulConfig isEnableChannelSplit
//             (float C from a float L0C) 8-column fractal columns, the Fixpipe's channel split
// with the dequantisation SetQuantScalar / SetQuantVector gave (int32 -> half: DEQF16 /
// VDEQF16; int32 -> int8: REQ8 / VREQ8; float -> int8: QF322B8_PRE / VQF322B8_PRE); the vector
// form first copies the block's scale words GM -> L1 (MTE2). enAtomic 1 adds the block to GM
// (SetAtomicAdd around the Fixpipe). A MatmulCallBackFunc copyOut replaces the Fixpipe: it gets
// the block's GM address, L0C as int8_t and a DataCopyOutParams describing the block.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/atomic_ops.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/fixpipe_ext.h"
#include "npusim/ascendc/matmul_types.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace AscendC {

/// What a MatmulCallBackFunc copyOut receives about the block (CANN's fields).
struct DataCopyOutParams {
  std::uint16_t cBurstNum = 0;     // columns of the block
  std::uint16_t burstLen = 0;      // rows of the block
  std::uint16_t srcStride = 0;     // L0C rows per fractal column
  std::uint32_t dstStride = 0;     // elements per row of C
  std::uint16_t oriNSize = 0;      // columns of C
  bool enUnitFlag = false;
  std::uint64_t quantScalar = 0;
  std::uint64_t cbufWorkspaceAddr = 0;
};

}  // namespace AscendC

namespace npusim::ascendc::mm {

/// A block of C and the matrix it is written into (rows x cols elements, ND or NZ).
struct BlockView {
  std::uint32_t m_len = 0, n_len = 0;
  std::uint64_t row0 = 0, col0 = 0;
  std::uint32_t rows = 0, cols = 0;
};

/// The quantPre mode for L0C type U to C type T, scalar or per column (vector).
template <class T, class U>
constexpr AscendC::QuantMode_t quant_mode(bool quant, bool vector) {
  using AscendC::QuantMode_t;
  if constexpr (std::is_same_v<U, std::int32_t>) {
    if constexpr (std::is_same_v<T, half>) {
      return vector ? QuantMode_t::VDEQF16 : QuantMode_t::DEQF16;
    } else if constexpr (sizeof(T) == 1) {
      return vector ? QuantMode_t::VREQ8 : QuantMode_t::REQ8;
    }
  } else {
    if constexpr (sizeof(T) == 1) {
      if (quant) return vector ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE;
    }
    if constexpr (std::is_same_v<T, half>) return QuantMode_t::F322F16;
    if constexpr (std::is_same_v<T, bfloat16_t>) return QuantMode_t::F322BF16;
  }
  return QuantMode_t::NoQuant;
}

template <class DstT, class L0cT, CubeFormat kFormat, auto kCopyOut>
class Output {
  static constexpr bool kUserCopy = !std::is_null_pointer_v<decltype(kCopyOut)>;
  static_assert(kFormat == CubeFormat::ND || kFormat == CubeFormat::ND_ALIGN ||
                    kFormat == CubeFormat::NZ,
                "Matmul: C must be ND, ND_ALIGN or NZ");

 public:
  /// The scale buffer of SetQuantVector (n_max words in L1).
  void init(AscendC::TPipe* pipe, std::uint32_t n_max) {
    pipe->InitBuffer(qquant_, 1, (n_max * 8 + 31) / 32 * 32);
  }
  /// isEnableChannelSplit: NZ C as 16 x 8 fractals (float C from float L0C only).
  void set_channel_split(bool on) {
    if (on && (kFormat != CubeFormat::NZ || !std::is_same_v<DstT, float> ||
               !std::is_same_v<L0cT, float>))
      fail("Matmul", "isEnableChannelSplit needs an NZ float C from float inputs' accumulator");
    split_ = on;
  }
  void set_quant_scalar(std::uint64_t s) {
    scalar_ = s;
    quant_ = true;
    vector_ = false;
  }
  void set_quant_vector(const AscendC::GlobalTensor<std::uint64_t>& gm) {
    quant_gm_ = gm;
    quant_ = true;
    vector_ = true;
  }

  /// The dequantisation of another Output (a mix client's, npusim/ascendc/matmul_mix.h).
  void copy_quant(const Output& o) {
    quant_gm_ = o.quant_gm_;
    scalar_ = o.scalar_;
    quant_ = o.quant_;
    vector_ = o.vector_;
  }

  void write(const AscendC::GlobalTensor<DstT>& gm, const AscendC::LocalTensor<L0cT>& c,
             const BlockView& v, std::uint8_t atomic, std::uint8_t unit_flag,
             std::uint64_t tiling_ptr, std::uint64_t data_ptr) {
    if (atomic > 1)
      fail("Matmul::GetTensorC", "enAtomic %u: only 0 (none) and 1 (add) are supported", atomic);
    AscendC::FixpipeParamsV220 p(static_cast<std::uint16_t>(v.n_len),
                                 static_cast<std::uint16_t>(v.m_len),
                                 static_cast<std::uint16_t>((v.m_len + 15) / 16 * 16), 0, false);
    p.unitFlag = unit_flag;
    p.quantPre = quant_mode<DstT, L0cT>(quant_, vector_);
    p.deqScalar = scalar_;
    std::uint64_t off = 0;
    if constexpr (kFormat == CubeFormat::NZ) {
      const std::uint64_t rows = (v.rows + 15) / 16 * 16;
      const std::uint64_t c0 = split_ ? 8 : 16;  // columns per fractal column
      p.isChannelSplit = split_;
      p.dstStride = static_cast<std::uint32_t>(rows * c0 * sizeof(DstT) / 32);
      off = v.col0 * rows + v.row0 * c0;
    } else {
      const std::uint32_t c0 = 32 / sizeof(DstT);
      p.dstStride = kFormat == CubeFormat::ND_ALIGN ? (v.cols + c0 - 1) / c0 * c0 : v.cols;
      off = v.row0 * p.dstStride + v.col0;
    }
    if (atomic == 1) AscendC::SetAtomicAdd<DstT>();
    if constexpr (kUserCopy) {
      AscendC::DataCopyOutParams d;
      d.cBurstNum = p.nSize;
      d.burstLen = p.mSize;
      d.srcStride = p.srcStride;
      d.dstStride = p.dstStride;
      d.oriNSize = static_cast<std::uint16_t>(v.cols);
      d.enUnitFlag = unit_flag != 0;
      d.quantScalar = scalar_;
      kCopyOut(reinterpret_cast<const void*>(gm.GetPhyAddr(off)),
               c.template ReinterpretCast<std::int8_t>(), &d, tiling_ptr, data_ptr);
    } else {
      fixpipe(gm[off], c, p, v);
    }
    if (atomic == 1) AscendC::SetAtomicNone();
  }

 private:
  static constexpr const AscendC::FixpipeConfig& kLayout =
      kFormat == CubeFormat::NZ ? AscendC::CFG_NZ : AscendC::CFG_ROW_MAJOR;

  void fixpipe(const AscendC::GlobalTensor<DstT>& dst, const AscendC::LocalTensor<L0cT>& c,
               const AscendC::FixpipeParamsV220& p, const BlockView& v) {
    if (!(quant_ && vector_)) {
      AscendC::Fixpipe<DstT, L0cT, kLayout>(dst, c, p);
      return;
    }
    AscendC::LocalTensor<std::uint64_t> words = qquant_.template AllocTensor<std::uint64_t>();
    const auto blocks = static_cast<std::uint16_t>((v.n_len * 8 + 31) / 32);
    AscendC::DataCopy(words, quant_gm_[v.col0], AscendC::DataCopyParams(1, blocks, 0, 0));
    qquant_.EnQue(words);
    words = qquant_.template DeQue<std::uint64_t>();
    AscendC::Fixpipe<DstT, L0cT, kLayout>(dst, c, words, p);
    qquant_.FreeTensor(words);
  }

  AscendC::TQue<AscendC::TPosition::C1, 1> qquant_;
  AscendC::GlobalTensor<std::uint64_t> quant_gm_;
  std::uint64_t scalar_ = 0;
  bool quant_ = false, vector_ = false, split_ = false;
};

}  // namespace npusim::ascendc::mm
