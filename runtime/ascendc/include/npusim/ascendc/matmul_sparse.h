// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's 2:4 sparse B (SparseMatmulType, npusim/ascendc/matmul_api.h): B
// is given densified and transposed, [N][K/2] int8 (each 4 k of a column keep 2 values), with
// its index matrix (2 bits per dense value, four to a byte, [N][K/8] bytes) in NZ fractals of
// 16 rows x 8 bytes over the whole N (SetSparseIndex). Per tile (k0, n0, k x n):
//   DataCopy GM -> L1 with ND2NZ of the dense n x k/2 tile (MTE2), DataCopy GM -> L1 of its
//   index fractals (one burst run per 32 dense k, MTE2), then per 32 dense k one
//   LoadDataWithSparse L1 -> L0B of its n/16 fractals and their indices (MTE1); the Matmul
//   then issues MmadWithSparse (npusim/ascendc/sparse_mmad.h) in place of Mmad.
// The L1 index tile mirrors the B tile: fractal f's 128 index bytes at f * 128, as
// LoadDataWithSparse reads them. baseK must be a multiple of 64 (whole 32-byte dense columns).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/matmul_load.h"
#include "npusim/ascendc/matmul_types.h"
#include "npusim/ascendc/sparse_mmad.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace AscendC {

/// B of a sparse Matmul: a MatmulType with the index matrix's position.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, class TYPE,
          bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
  static constexpr TPosition indexPosition = INDEX_POSITION;
  static constexpr bool isSparse = true;
};

}  // namespace AscendC

namespace npusim::ascendc::mm {

template <class T, class = void>
struct IsSparseType : std::false_type {};
template <class T>
struct IsSparseType<T, std::void_t<decltype(T::isSparse)>>
    : std::integral_constant<bool, T::isSparse> {};

class SparseBLoader {
 public:
  /// Buffers for tiles up to k_max (sparse k) x n_max: dense data and indices in L1 (two
  /// each), the densified tile in L0B (two).
  void init(AscendC::TPipe* pipe, std::uint32_t k_max, std::uint32_t n_max) {
    const std::uint32_t bytes = align_up(n_max, 16) * align_up(k_max / 2, 32);
    pipe->InitBuffer(q1_, 2, bytes);
    pipe->InitBuffer(qi_, 2, bytes / 4);
    const std::uint32_t room = block().capacity(Mem::kL0b) - block().used(Mem::kL0b);
    pipe->InitBuffer(q2_, room < 2 * bytes ? 1 : 2, bytes);
  }
  /// The dense B ([N][K/2]; row pitch: the dense K) and the NZ index matrix over `n_total`.
  void set(const AscendC::GlobalTensor<std::int8_t>& gm, std::uint64_t dense_pitch) {
    gm_ = gm;
    pitch_ = dense_pitch;
  }
  void set_pitch(std::uint64_t dense_pitch) { pitch_ = dense_pitch; }
  void set_index(const AscendC::GlobalTensor<std::uint8_t>& idx) { idx_ = idx; }
  void set_n_total(std::uint32_t n) { n16_ = align_up(n, 16) / 16; }
  bool ready() const { return idx_.GetPhyAddr() != nullptr; }

  /// The tile of sparse rows k0 .. k0 + k_len, columns n0 .. n0 + n_len into L0B.
  AscendC::LocalTensor<std::int8_t> load(std::uint32_t k0, std::uint32_t n0, std::uint32_t k_len,
                                         std::uint32_t n_len) {
    if (k0 % 64 != 0)
      fail("Matmul (sparse B)", "k step at %u: baseK must be a multiple of 64", k0);
    const std::uint32_t dk = k_len / 2, r = align_up(n_len, 16) / 16;
    const std::uint32_t kq = align_up(dk, 32) / 32;
    AscendC::LocalTensor<std::int8_t> l1 = q1_.template AllocTensor<std::int8_t>();
    AscendC::DataCopy(l1, gm_[n0 * pitch_ + k0 / 2],
                      AscendC::Nd2NzParams(1, static_cast<std::uint16_t>(n_len),
                                           static_cast<std::uint16_t>(dk), 0,
                                           static_cast<std::uint16_t>(pitch_),
                                           static_cast<std::uint16_t>(r * 16), 1, 0));
    AscendC::LocalTensor<std::uint8_t> ix = qi_.template AllocTensor<std::uint8_t>();
    const std::uint64_t first = (static_cast<std::uint64_t>(k0 / 64) * n16_ + n0 / 16) * 128;
    AscendC::DataCopy(ix, idx_[first],
                      AscendC::DataCopyParams(static_cast<std::uint16_t>(kq),
                                              static_cast<std::uint16_t>(r * 4),
                                              static_cast<std::uint16_t>((n16_ - r) * 4), 0));
    q1_.EnQue(l1);
    qi_.EnQue(ix);
    l1 = q1_.template DeQue<std::int8_t>();
    ix = qi_.template DeQue<std::uint8_t>();
    AscendC::LocalTensor<std::int8_t> l0 = q2_.template AllocTensor<std::int8_t>();
    for (std::uint32_t q = 0; q < kq; ++q) {
      const AscendC::LoadData2DParams p(static_cast<std::uint16_t>(q * r),
                                        static_cast<std::uint8_t>(r), 0, 0, 0, false, 0);
      AscendC::LoadDataWithSparse(l0[q * r * 512], l1, ix, p);
    }
    q1_.FreeTensor(l1);
    qi_.FreeTensor(ix);
    q2_.EnQue(l0);
    return q2_.template DeQue<std::int8_t>();
  }
  void free(const AscendC::LocalTensor<std::int8_t>& l0) { q2_.FreeTensor(l0); }

 private:
  AscendC::TQue<AscendC::TPosition::B1, 2> q1_, qi_;
  AscendC::TQue<AscendC::TPosition::B2, 2> q2_;
  AscendC::GlobalTensor<std::int8_t> gm_;
  AscendC::GlobalTensor<std::uint8_t> idx_;
  std::uint64_t pitch_ = 0;
  std::uint32_t n16_ = 0;
};

}  // namespace npusim::ascendc::mm
