// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's object (lib/matmul_intf.h), for cube-only kernels on Atlas A2/A3:
// C[singleCoreM x singleCoreN] (+ bias) = A[singleCoreM x singleCoreK] * B[singleCoreK x
// singleCoreN] for the part of the matrices the core's SetTensorA/B/Bias start at, A and B in GM
// (ND, either may be transposed), C to GM (ND), the bias a float row in GM.
//
// It runs on the twin's basic operations, so each step is the instruction it is on the device
// and costs what the pipe model says: per base block (baseM x baseN of C, iterateOrder 0: M
// moves first) and per k step (baseK):
//   DataCopy GM -> L1 with ND2NZ (MTE2) of the A and B tiles,
//   LoadData L1 -> L0A / L0B (MTE1; B not transposed and A transposed with the 16 x 16 transpose),
//   Mmad into L0C (M; the first k step starts from zero or from the bias, copied GM -> L1 -> bias
//   table), then Fixpipe L0C -> GM (FIXPIPE) with the conversion to C's type.
// L1 and L0A/L0B tiles are double-buffered through TQue (dbL0A/dbL0B), L0C single; A and B are
// loaded again for every base block (the tiling's stepM/N/Ka/Kb L1 reuse is not modelled).
// Not supported (a kernel error naming the call): C in local memory (VECIN/VECOUT: the fused
// examples' mixed AIC/AIV kernels), NZ formats, batch Matmul, atomic write-out, transposed A or
// untransposed B with 8- or 32-bit inputs (their L1 -> L0 transposes need LoadDataWithTranspose).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/matmul_types.h"
#include "npusim/ascendc/mmad_bias.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>,
          const MatmulConfig& MM_CFG = CFG_NORM, class... Policies>
class Matmul {
  using SrcT = typename A_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = std::conditional_t<sizeof(SrcT) == 1, std::int32_t, float>;
  static constexpr std::uint32_t kK0 = 32 / sizeof(SrcT);          // fractal depth
  static constexpr std::uint32_t kKAlign = kK0 > 16 ? kK0 : 16;    // k tiles: both A's and B's
  static constexpr std::uint32_t kFrac = 512 / sizeof(SrcT);       // elements per fractal
  static_assert(std::is_same_v<SrcT, typename B_TYPE::T>, "Matmul: A and B need one type");

 public:
  Matmul() = default;

  /// REGIST_MATMUL_OBJ's call: the tiling (copied) and the pipe whose L1/L0 buffers it takes.
  void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr) {
    if (tiling == nullptr) npusim::ascendc::fail("Matmul::Init", "no tiling");
    if (tpipe == nullptr) tpipe = GetTPipePtr();
    if (tpipe == nullptr) npusim::ascendc::fail("Matmul::Init", "no TPipe");
    t_ = *tiling;
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.singleCoreM <= 0 ||
        t_.singleCoreN <= 0 || t_.singleCoreK <= 0)
      npusim::ascendc::fail("Matmul::Init", "tiling without base/single-core shape "
                            "(baseM %d baseN %d baseK %d, singleCore %d x %d x %d)",
                            t_.baseM, t_.baseN, t_.baseK, t_.singleCoreM, t_.singleCoreN,
                            t_.singleCoreK);
    check_types();
    org_m_ = t_.M;
    org_n_ = t_.N;
    org_ka_ = t_.Ka;
    org_kb_ = t_.Kb;
    single_m_ = t_.singleCoreM;
    single_n_ = t_.singleCoreN;
    single_k_ = t_.singleCoreK;
    const std::uint32_t bm = align(t_.baseM, 16), bn = align(t_.baseN, 16),
                        bk = align(t_.baseK, kKAlign);
    tpipe->InitBuffer(qa1_, 2, bm * bk * sizeof(SrcT));
    tpipe->InitBuffer(qb1_, 2, bk * bn * sizeof(SrcT));
    tpipe->InitBuffer(qa2_, 2, bm * bk * sizeof(SrcT));
    tpipe->InitBuffer(qb2_, 2, bk * bn * sizeof(SrcT));
    tpipe->InitBuffer(qc_, 1, bm * bn * sizeof(L0cT));
    if (t_.isBias) {
      tpipe->InitBuffer(qbias1_, 1, align(bn * sizeof(L0cT), 32));
      tpipe->InitBuffer(qbias2_, 1, align(bn * sizeof(L0cT), 32));
    }
    inited_ = true;
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    (void)orgKc;
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
    org_kb_ = orgKb;
  }
  void SetSingleShape(int singleM, int singleN, int singleK) {
    SetTail(singleM, singleN, singleK);
  }
  /// This core's part when it is smaller than singleCoreM/N/K (-1: unchanged).
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) single_m_ = tailM;
    if (tailN > 0) single_n_ = tailN;
    if (tailK > 0) single_k_ = tailK;
  }
  void SetTensorA(const GlobalTensor<SrcT>& gm, bool isTransposeA = false) {
    a_ = gm;
    trans_a_ = isTransposeA;
    next_ = 0;
  }
  void SetTensorB(const GlobalTensor<SrcT>& gm, bool isTransposeB = false) {
    b_ = gm;
    trans_b_ = isTransposeB;
    next_ = 0;
  }
  void SetBias(const GlobalTensor<BiasT>& gm) {
    if constexpr (!std::is_same_v<BiasT, L0cT>) {
      npusim::ascendc::fail("Matmul::SetBias", "the bias must be of the accumulator type "
                            "(float; int32 for int8 inputs)");
    } else {
      if (!t_.isBias)
        npusim::ascendc::fail("Matmul::SetBias", "the tiling was made without a bias "
                              "(SetBias(true) / EnableBias(true) on the host)");
      bias_ = gm;
      has_bias_ = true;
    }
  }
  void DisableBias() { has_bias_ = false; }
  void ClearBias() { has_bias_ = false; }
  /// A scratch UB buffer for format conversions on Atlas 200I/500 A2; not needed here.
  void SetLocalWorkspace(const LocalTensor<std::uint8_t>& tmp) { (void)tmp; }

  /// Computes the next base block of C into L0C; false when every block is done.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    if (enPartialSum)
      npusim::ascendc::fail("Matmul::Iterate", "enPartialSum is not supported by the simulator");
    check_ready("Matmul::Iterate");
    if (pending_)
      npusim::ascendc::fail("Matmul::Iterate", "the previous block was not taken (GetTensorC)");
    const int m_iter = ceil(single_m_, t_.baseM), n_iter = ceil(single_n_, t_.baseN);
    if (next_ >= m_iter * n_iter) {
      next_ = 0;
      return false;
    }
    cur_m_ = next_ % m_iter;
    cur_n_ = next_ / m_iter;
    ++next_;
    compute_block();
    pending_ = true;
    return true;
  }

  /// Writes the block of the last Iterate to GM: at its place in C (row pitch N of SetOrgShape)
  /// or, with enSequentialWrite, as baseM x baseN at gm.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    if (!pending_) npusim::ascendc::fail("Matmul::GetTensorC", "no block computed (Iterate)");
    if (enAtomic != 0)
      npusim::ascendc::fail("Matmul::GetTensorC", "atomic write-out is not supported by the "
                            "simulator");
    write_block(gm, enSequentialWrite);
    pending_ = false;
  }
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& dst, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    (void)dst, (void)enAtomic, (void)enSequentialWrite;
    npusim::ascendc::fail("Matmul::GetTensorC", "C in local memory (VECIN) needs mixed AIC/AIV "
                          "kernels, which the simulator does not run yet");
  }

  /// Every base block of this core's C, written to gm (the core's C start, row pitch N).
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)waitIterateAll, (void)fakeMsg;
    if (enSequentialWrite)
      npusim::ascendc::fail("Matmul::IterateAll", "enSequentialWrite is not supported here");
    while (Iterate<sync>()) GetTensorC<sync>(gm, enAtomic, false);
  }

  void End() {
    pending_ = false;
    next_ = 0;
  }

 private:
  static std::uint32_t align(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }
  static int ceil(int a, int b) { return (a + b - 1) / b; }

  static void check_types() {
    const char* what = nullptr;
    if (A_TYPE::pos != TPosition::GM || B_TYPE::pos != TPosition::GM)
      what = "A and B must be in GM";
    else if (A_TYPE::format != CubeFormat::ND || B_TYPE::format != CubeFormat::ND ||
             C_TYPE::format != CubeFormat::ND)
      what = "A, B and C must be ND";
    else if (BIAS_TYPE::pos != TPosition::GM)
      what = "the bias must be in GM";
    if (what != nullptr)
      npusim::ascendc::fail("Matmul", "%s (other positions and formats are not supported by "
                            "the simulator)", what);
  }

  void check_ready(const char* op) const {
    if (!inited_) npusim::ascendc::fail(op, "the Matmul was not initialised (REGIST_MATMUL_OBJ)");
    if (a_.GetPhyAddr() == nullptr || b_.GetPhyAddr() == nullptr)
      npusim::ascendc::fail(op, "SetTensorA and SetTensorB first");
    if (trans_a_ && sizeof(SrcT) != 2)
      npusim::ascendc::fail(op, "a transposed A needs a 16-bit type in the simulator");
    if (!trans_b_ && sizeof(SrcT) != 2)
      npusim::ascendc::fail(op, "an untransposed B needs a 16-bit type in the simulator");
  }

  /// The bias row of block column cur_n_ into the bias table (GM -> L1 -> C2).
  LocalTensor<L0cT> load_bias(int n_len) {
    LocalTensor<L0cT> l1 = qbias1_.template AllocTensor<L0cT>();
    const auto blocks = static_cast<std::uint16_t>(align(n_len * sizeof(L0cT), 32) / 32);
    DataCopy(l1, bias_[static_cast<std::uint64_t>(cur_n_) * t_.baseN],
             DataCopyParams(1, blocks, 0, 0));
    qbias1_.EnQue(l1);
    l1 = qbias1_.template DeQue<L0cT>();
    LocalTensor<L0cT> bt = qbias2_.template AllocTensor<L0cT>();
    DataCopy(bt, l1, DataCopyParams(1, blocks, 0, 0));
    qbias1_.FreeTensor(l1);
    qbias2_.EnQue(bt);
    return qbias2_.template DeQue<L0cT>();
  }

  /// One k step's A tile (m_len x k_len at row m0, column k0) GM -> L1 -> L0A.
  LocalTensor<SrcT> load_a(int m_len, int k_len, std::uint64_t m0, std::uint64_t k0) {
    LocalTensor<SrcT> l1 = qa1_.template AllocTensor<SrcT>();
    const auto m_pad = static_cast<std::uint16_t>(align(m_len, 16));
    const auto k_pad = static_cast<std::uint16_t>(align(k_len, 16));
    if (!trans_a_) {  // A[m][k], row pitch Ka: NZ with m_pad rows per column block
      DataCopy(l1, a_[m0 * org_ka_ + k0],
               Nd2NzParams(1, m_len, k_len, 0, org_ka_, m_pad, 1, 0));
    } else {  // A stored [k][m], row pitch M
      DataCopy(l1, a_[k0 * org_m_ + m0], Nd2NzParams(1, k_len, m_len, 0, org_m_, k_pad, 1, 0));
    }
    qa1_.EnQue(l1);
    l1 = qa1_.template DeQue<SrcT>();
    LocalTensor<SrcT> l0 = qa2_.template AllocTensor<SrcT>();
    const std::uint32_t m1 = m_pad / 16, ka = align(k_len, kKAlign) / kK0;
    for (std::uint32_t i = 0; i < m1; ++i) {
      // L0A: fractal (i, kc) at i * ka + kc. Untransposed L1 holds it at kc * m1 + i; the
      // transposed one holds its transpose at i * (k_pad / 16) + kc.
      const LoadData2DParams p = trans_a_
          ? LoadData2DParams(static_cast<std::uint16_t>(i * (k_pad / 16)),
                             static_cast<std::uint8_t>(ka), 1, 0, 0, true, 0)
          : LoadData2DParams(static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(ka),
                             static_cast<std::uint16_t>(m1), 0, 0, false, 0);
      LoadData(l0[i * ka * kFrac], l1, p);
    }
    qa1_.FreeTensor(l1);
    qa2_.EnQue(l0);
    return qa2_.template DeQue<SrcT>();
  }

  /// One k step's B tile (k_len x n_len at row k0, column n0) GM -> L1 -> L0B.
  LocalTensor<SrcT> load_b(int k_len, int n_len, std::uint64_t k0, std::uint64_t n0) {
    LocalTensor<SrcT> l1 = qb1_.template AllocTensor<SrcT>();
    const auto n_pad = static_cast<std::uint16_t>(align(n_len, 16));
    const auto k_pad = static_cast<std::uint16_t>(align(k_len, 16));
    if (!trans_b_) {  // B[k][n], row pitch N
      DataCopy(l1, b_[k0 * org_n_ + n0], Nd2NzParams(1, k_len, n_len, 0, org_n_, k_pad, 1, 0));
    } else {  // B stored [n][k], row pitch Kb
      DataCopy(l1, b_[n0 * org_kb_ + k0], Nd2NzParams(1, n_len, k_len, 0, org_kb_, n_pad, 1, 0));
    }
    qb1_.EnQue(l1);
    l1 = qb1_.template DeQue<SrcT>();
    LocalTensor<SrcT> l0 = qb2_.template AllocTensor<SrcT>();
    const std::uint32_t n1 = n_pad / 16, kb = align(k_len, kKAlign) / kK0;
    for (std::uint32_t i = 0; i < kb; ++i) {
      // L0B: fractal (i, j) at i * n1 + j, [n][k] inside. Untransposed L1 holds its transpose
      // at j * (k_pad / 16) + i; the transposed one holds it at i * n1 + j.
      const LoadData2DParams p = trans_b_
          ? LoadData2DParams(static_cast<std::uint16_t>(i * n1), static_cast<std::uint8_t>(n1), 1,
                             0, 0, false, 0)
          : LoadData2DParams(static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(n1),
                             static_cast<std::uint16_t>(k_pad / 16), 0, 0, true, 0);
      LoadData(l0[i * n1 * kFrac], l1, p);
    }
    qb1_.FreeTensor(l1);
    qb2_.EnQue(l0);
    return qb2_.template DeQue<SrcT>();
  }

  void compute_block() {
    const int m_len = min(t_.baseM, single_m_ - cur_m_ * t_.baseM);
    const int n_len = min(t_.baseN, single_n_ - cur_n_ * t_.baseN);
    const std::uint64_t m0 = static_cast<std::uint64_t>(cur_m_) * t_.baseM;
    const std::uint64_t n0 = static_cast<std::uint64_t>(cur_n_) * t_.baseN;
    LocalTensor<L0cT> c = qc_.template AllocTensor<L0cT>();
    LocalTensor<L0cT> bias;
    if (has_bias_) bias = load_bias(n_len);
    const int k_iter = ceil(single_k_, t_.baseK);
    for (int ki = 0; ki < k_iter; ++ki) {
      const int k_len = min(t_.baseK, single_k_ - ki * t_.baseK);
      const std::uint64_t k0 = static_cast<std::uint64_t>(ki) * t_.baseK;
      LocalTensor<SrcT> a = load_a(m_len, k_len, m0, k0);
      LocalTensor<SrcT> b = load_b(k_len, n_len, k0, n0);
      MmadParams p(npusim::ascendc::zz_mmad_m(static_cast<std::uint32_t>(m_len)),
                   static_cast<std::uint16_t>(n_len),
                   static_cast<std::uint16_t>(k_len), 0, false, ki == 0);
      if (ki == 0 && has_bias_) {
        Mmad(c, a, b, bias, p);
      } else {
        Mmad(c, a, b, p);
      }
      qa2_.FreeTensor(a);
      qb2_.FreeTensor(b);
    }
    if (has_bias_) qbias2_.FreeTensor(bias);
    qc_.EnQue(c);
    len_m_ = m_len;
    len_n_ = n_len;
  }

  void write_block(const GlobalTensor<DstT>& gm, bool sequential) {
    LocalTensor<L0cT> c = qc_.template DeQue<L0cT>();
    const std::uint64_t off = sequential ? 0
        : static_cast<std::uint64_t>(cur_m_) * t_.baseM * org_n_ +
              static_cast<std::uint64_t>(cur_n_) * t_.baseN;
    FixpipeParamsV220 p(static_cast<std::uint16_t>(len_n_), static_cast<std::uint16_t>(len_m_),
                        static_cast<std::uint16_t>(align(len_m_, 16)),
                        sequential ? static_cast<std::uint32_t>(len_n_)
                                   : static_cast<std::uint32_t>(org_n_),
                        false);
    if constexpr (std::is_same_v<DstT, half>) p.quantPre = QuantMode_t::F322F16;
    if constexpr (std::is_same_v<DstT, bfloat16_t>) p.quantPre = QuantMode_t::F322BF16;
    Fixpipe(gm[off], c, p);
    qc_.FreeTensor(c);
  }

  static int min(int a, int b) { return a < b ? a : b; }

  TCubeTiling t_{};
  TQue<TPosition::A1, 2> qa1_;
  TQue<TPosition::B1, 2> qb1_;
  TQue<TPosition::A2, 2> qa2_;
  TQue<TPosition::B2, 2> qb2_;
  TQue<TPosition::CO1, 1> qc_;
  TQue<TPosition::C1, 1> qbias1_;
  TQue<TPosition::C2, 1> qbias2_;
  GlobalTensor<SrcT> a_, b_;
  GlobalTensor<BiasT> bias_;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  int cur_m_ = 0, cur_n_ = 0, next_ = 0, len_m_ = 0, len_n_ = 0;
  bool trans_a_ = false, trans_b_ = false, has_bias_ = false, pending_ = false, inited_ = false;
};

}  // namespace AscendC
