// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's input path (npusim/ascendc/matmul_api.h): one operand, A or B,
// from GM to L0A / L0B through L1, on the twin's instructions:
//   DataCopy GM -> L1 with ND2NZ (MTE2), or the user's copyA1 / copyB1 (MatmulCallBackFunc),
//   LoadData L1 -> L0A / L0B (MTE1), one LoadData2D per fractal row of the L0 tile, with the
//   16 x 16 transpose where L1's layout is the transpose of what the cube reads; for an
//   untransposed 8-bit B (L1 holds K x N, L0B wants N x K fractals of 16 x 32) one
//   LoadDataWithTranspose per 32-deep k row of the tile instead: each repeat transposes a
//   32 x 32 square of L1 (two 16 x 32 fractals, so L1's NZ rows are aligned to 32 there and its
//   columns to 32) into two neighbouring L0B fractals.
// Both operands are seen the same way: a tile is `outer x inner` where the L0 buffer holds it as
// outer blocks of inner fractals (A: outer = M, inner = K; B: outer = K, inner = N), and L1
// holds it as NZ with the GM matrix's rows (outer unless the operand is transposed). L1 and L0
// tiles are double-buffered TQues. The copy functions of a MatmulCallBackFunc receive the L1
// tile as int8_t, the operand's GM start, the tile's block indices and its size.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/load3d.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace npusim::ascendc::mm {

constexpr std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

/// Where a tile starts and how large it is, in elements of the operand's outer / inner axes;
/// the indices are the tile's number along each axis (for the copy callbacks).
struct Tile {
  std::uint32_t outer0 = 0, inner0 = 0, outer_len = 0, inner_len = 0;
  int outer_idx = 0, inner_idx = 0;
};

/// One Matmul operand's GM -> L1 -> L0 path. kIsB: the B operand (L0B), else A (L0A).
template <class SrcT, bool kIsB, class CopyIn>
class OperandLoader {
  static constexpr std::uint32_t kK0 = 32 / sizeof(SrcT);          // fractal depth (K)
  static constexpr std::uint32_t kKAlign = kK0 > 16 ? kK0 : 16;    // K tiles' alignment
  static constexpr std::uint32_t kFrac = 512 / sizeof(SrcT);       // elements per fractal
  static constexpr std::uint32_t kOuterAlign = kIsB ? kKAlign : 16;
  static constexpr std::uint32_t kInnerAlign = kIsB ? 16 : kKAlign;
  static constexpr std::uint32_t kOuterBlock = kIsB ? kK0 : 16;    // L0 fractal extent
  static constexpr std::uint32_t kInnerBlock = kIsB ? 16 : kK0;
  static constexpr bool kB8 = kIsB && sizeof(SrcT) == 1;           // 8-bit B

 public:
  /// Buffers for tiles up to outer_max x inner_max: two in L1, l0_bufs in L0 (one when L0 has
  /// no room for more: a kernel's second Matmul). An 8-bit B that may come untransposed
  /// (allow_untransposed) needs L1 columns aligned to 32 and one more L0B fractal (the last
  /// square's second half when the tile has an odd number of N fractals).
  /// shared: another loader whose L0 buffers this one uses (isA2B2Shared), none of its own.
  void init(AscendC::TPipe* pipe, std::uint32_t outer_max, std::uint32_t inner_max,
            std::int32_t l0_bufs, OperandLoader* shared = nullptr) {
    const std::uint32_t bytes =
        align_up(outer_max, kOuterAlign) * align_up(inner_max, kInnerAlign) * sizeof(SrcT);
    const std::uint32_t l1_bytes =
        b8_plain_ok_ ? align_up(outer_max, 32) * align_up(inner_max, 32) : bytes;
    const std::uint32_t l0_bytes = b8_plain_ok_ ? bytes + kFrac : bytes;
    pipe->InitBuffer(q1_, 2, l1_bytes);
    l0_bytes_ = l0_bytes;
    if (shared != nullptr) {
      if (shared->l0_bytes_ < l0_bytes)
        fail("Matmul::Init", "isA2B2Shared: this Matmul's %s tiles (%u bytes) exceed the shared "
             "buffers' %u bytes", kIsB ? "L0B" : "L0A", l0_bytes, shared->l0_bytes_);
      l0q_ = shared->l0q_;
      return;
    }
    const Mem l0 = kIsB ? Mem::kL0b : Mem::kL0a;
    const std::uint32_t room = block().capacity(l0) - block().used(l0);
    if (l0_bufs > 1 && room < 2 * l0_bytes) l0_bufs = 1;
    pipe->InitBuffer(q2_, l0_bufs, l0_bytes);
  }
  /// An 8-bit B may be set untransposed (its MatmulType's default is): before init.
  void allow_untransposed(bool ok) { b8_plain_ok_ = kB8 && ok; }
  /// The operand: GM start, transposed or not, elements per GM row.
  void set(const AscendC::GlobalTensor<SrcT>& gm, bool trans) {
    if (kB8 && !trans && !b8_plain_ok_)
      fail("Matmul::SetTensorB", "an untransposed 8-bit B needs a B MatmulType declared "
           "untransposed (its buffers are laid out for the transposing load)");
    gm_ = gm;
    trans_ = trans;
  }
  void set_pitch(std::uint64_t pitch) { pitch_ = pitch; }
  std::uint64_t pitch() const { return pitch_; }
  bool trans() const { return trans_; }
  const AscendC::GlobalTensor<SrcT>& gm() const { return gm_; }
  bool ready() const { return gm_.GetPhyAddr() != nullptr; }

  /// The tile GM -> L1 -> L0; the caller frees it with free().
  AscendC::LocalTensor<SrcT> load(const Tile& t, std::uint64_t tiling_ptr,
                                  std::uint64_t data_ptr) {
    AscendC::LocalTensor<SrcT> l1 = q1_.template AllocTensor<SrcT>();
    copy_in(l1, t, tiling_ptr, data_ptr);
    q1_.EnQue(l1);
    l1 = q1_.template DeQue<SrcT>();
    AscendC::LocalTensor<SrcT> l0 = l0q_->template AllocTensor<SrcT>();
    to_l0(l0, l1, t);
    q1_.FreeTensor(l1);
    l0q_->EnQue(l0);
    return l0q_->template DeQue<SrcT>();
  }
  void free(const AscendC::LocalTensor<SrcT>& l0) { l0q_->FreeTensor(l0); }

 private:
  /// GM rows of the tile in L1: the outer axis unless transposed.
  std::uint32_t l1_rows(const Tile& t) const { return trans_ ? t.inner_len : t.outer_len; }

  void copy_in(const AscendC::LocalTensor<SrcT>& l1, const Tile& t, std::uint64_t tiling_ptr,
               std::uint64_t data_ptr) {
    if constexpr (!std::is_same_v<CopyIn, std::nullptr_t>) {
      CopyIn::copy(l1.template ReinterpretCast<std::int8_t>(),
                   reinterpret_cast<const void*>(gm_.GetPhyAddr()), t.outer_idx, t.inner_idx,
                   static_cast<int>(t.outer_len), static_cast<int>(t.inner_len), tiling_ptr,
                   data_ptr);
      return;
    }
    const std::uint32_t rows = l1_rows(t), cols = trans_ ? t.outer_len : t.inner_len;
    const std::uint64_t row0 = trans_ ? t.inner0 : t.outer0, col0 = trans_ ? t.outer0 : t.inner0;
    AscendC::DataCopy(l1, gm_[row0 * pitch_ + col0],
                      AscendC::Nd2NzParams(1, static_cast<std::uint16_t>(rows),
                                           static_cast<std::uint16_t>(cols), 0,
                                           static_cast<std::uint16_t>(pitch_),
                                           static_cast<std::uint16_t>(
                                               align_up(rows, l1_row_align())),
                                           1, 0));
  }

  /// An untransposed 8-bit B: L1 -> L0B by LoadDataWithTranspose (see the file comment).
  bool b8_transposing() const { return kB8 && !trans_; }
  std::uint32_t l1_row_align() const { return b8_transposing() ? 32u : 16u; }

  /// L1 (NZ, R = rows / 16 fractal rows) -> L0: fractal (o, q) of the L0 tile is at o * Q + q;
  /// L1 holds it at q * R + o when its rows are the outer axis, else at o * R + q; the cube
  /// reads A's fractals as stored and B's transposed, so the transpose is needed when exactly
  /// one of "is B" and "transposed" holds.
  void to_l0(const AscendC::LocalTensor<SrcT>& l0, const AscendC::LocalTensor<SrcT>& l1,
             const Tile& t) const {
    const std::uint32_t outer_n = align_up(t.outer_len, kOuterAlign) / kOuterBlock;
    const std::uint32_t inner_n = align_up(t.inner_len, kInnerAlign) / kInnerBlock;
    const std::uint32_t r = align_up(l1_rows(t), l1_row_align()) / 16;
    if constexpr (kB8) {
      if (b8_transposing()) {
        // k row o (32 deep) of L0B: squares o, o + r/2, ... of L1 (one per 32 N columns), each
        // into fractals 2q and 2q + 1 of the row.
        const auto squares = static_cast<std::uint8_t>((inner_n + 1) / 2);
        for (std::uint32_t o = 0; o < outer_n; ++o) {
          const AscendC::LoadData2dTransposeParams p(static_cast<std::uint16_t>(o), squares,
                                                     static_cast<std::uint16_t>(r / 2), 1, 0, 0);
          AscendC::LoadDataWithTranspose(l0[o * inner_n * kFrac], l1, p);
        }
        return;
      }
    }
    const bool transpose = kIsB != trans_;
    for (std::uint32_t o = 0; o < outer_n; ++o) {
      const AscendC::LoadData2DParams p(
          static_cast<std::uint16_t>(trans_ ? o * r : o), static_cast<std::uint8_t>(inner_n),
          static_cast<std::uint16_t>(trans_ ? 1 : r), 0, 0, transpose, 0);
      AscendC::LoadData(l0[o * inner_n * kFrac], l1, p);
    }
  }

  AscendC::TQue<kIsB ? AscendC::TPosition::B1 : AscendC::TPosition::A1, 2> q1_;
  using L0Que = AscendC::TQue<kIsB ? AscendC::TPosition::B2 : AscendC::TPosition::A2, 2>;
  L0Que q2_;
  L0Que* l0q_ = &q2_;  // q2_, or the L0 queue of the loader it shares (isA2B2Shared)
  std::uint32_t l0_bytes_ = 0;
  AscendC::GlobalTensor<SrcT> gm_;
  std::uint64_t pitch_ = 0;
  bool trans_ = false;
  bool b8_plain_ok_ = false;  // an 8-bit B's buffers allow the untransposed load
};

/// A user copy function as OperandLoader's CopyIn (Fn: a function pointer constant).
template <auto Fn>
struct UserCopyIn {
  template <class... Args>
  static void copy(Args... args) {
    Fn(args...);
  }
};

/// CopyIn for a MatmulCallBackFunc slot: nullptr_t (the loader's ND2NZ) or UserCopyIn.
template <auto Fn>
using copy_in_of =
    std::conditional_t<std::is_null_pointer_v<decltype(Fn)>, std::nullptr_t, UserCopyIn<Fn>>;

}  // namespace npusim::ascendc::mm
