// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's object (lib/matmul_intf.h), for cube kernels on Atlas A2/A3:
// C[singleCoreM x singleCoreN] (+ bias) = A[singleCoreM x singleCoreK] * B[singleCoreK x
// singleCoreN] for the part of the matrices the core's SetTensorA/B/Bias start at, A and B in GM
// (ND, either may be transposed; A may be a VECTOR, a one-row ND), C to GM (ND, ND_ALIGN or NZ),
// into the caller's L0C (CO1), or into UB (VECIN: through the workspace, see GetTensorC).
//
// It runs on the twin's basic operations, so each step is the instruction it is on the device
// and costs what the pipe model says: per base block (baseM x baseN of C) and per k step (baseK):
//   A and B tiles GM -> L1 -> L0A / L0B (npusim/ascendc/matmul_load.h: MTE2 ND2NZ, MTE1),
//   Mmad into L0C (M; the first k step starts from zero or from the bias, copied GM -> L1 ->
//   bias table), then the write-out (npusim/ascendc/matmul_output.h: Fixpipe L0C -> GM).
// Block order: M moves first (iterateOrder 0, the tiling's), N first with iterateOrder 1 (the
// tiling's or the config's). L1 and L0A/L0B tiles are double-buffered, L0C single; A and B are
// loaded again for every base block (the tiling's stepM/N/Ka/Kb L1 reuse is not modelled).
//
// Config (npusim/ascendc/matmul_config.h): iterateOrder, isPartialOutput (each Iterate one k
// step, not accumulated) and isEnableChannelSplit (NZ C in 16 x 8 fractals) change what is
// computed; enUnitFlag sets the unitFlag fields of Mmad and Fixpipe; a MatmulApiStaticTiling
// MM_CFG gives the tiling when REGIST_MATMUL_OBJ has none.
// The other options (Norm / MDL / IBShare / BasicBlock, preload, K reorder, A2/B2 sharing, mix
// dual master, UB reuse, ...) only choose among schedules of the same data flow on the device;
// npusim runs the one above for all of them. MatmulCallBackFunc's copy functions replace the
// GM -> L1 loads and the write-out. IterateBatch runs one such Matmul per batch (BSNGD and
// NORMAL layouts), IterateNBatch (isNBatch) batchLoop IterateBatch calls into the workspace.
// The policy argument: npusim/ascendc/matmul_policy.h (triangle policies skip blocks). In a
// __mix__ kernel the AIVs' Matmuls send their work to the AIC, which does it:
// npusim/ascendc/matmul_mix.h.
// An untransposed int8 B takes LoadDataWithTranspose from L1 to L0B (npusim/ascendc/
// matmul_load.h); a SparseMatmulType B (int8, cube-only kernels) LoadDataWithSparse and
// MmadWithSparse (npusim/ascendc/matmul_sparse.h). Not supported (a kernel error naming the call): int4b_t inputs, A/B in L1
// (TSCM), NZ inputs, transposed A with 8- or 32-bit inputs, untransposed B with 32-bit inputs
// (their L1 -> L0 transposes), enPartialSum, IterateBatch with unequal batch counts.
#pragma once

#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/matmul_batch.h"
#include "npusim/ascendc/matmul_config.h"
#include "npusim/ascendc/matmul_load.h"
#include "npusim/ascendc/matmul_mix.h"
#include "npusim/ascendc/matmul_output.h"
#include "npusim/ascendc/matmul_policy.h"
#include "npusim/ascendc/matmul_sparse.h"
#include "npusim/ascendc/matmul_types.h"
#include "npusim/ascendc/mmad_bias.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>,
          const auto& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          NPUSIM_MATMUL_POLICY_PARAM>
class Matmul {
  using SrcT = typename A_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = std::conditional_t<sizeof(SrcT) == 1, std::int32_t, float>;
  using Out = npusim::ascendc::mm::Output<DstT, L0cT, C_TYPE::format, MM_CB::kCopyOut>;
  static constexpr MatmulConfig kCfg = npusim::ascendc::mm::config_of(MM_CFG);
  static constexpr npusim::ascendc::mm::Policy kPolicy = MATMUL_POLICY<MM_CFG>::kPolicy;
  static constexpr bool kSparse = npusim::ascendc::mm::IsSparseType<B_TYPE>::value;
  static_assert(std::is_same_v<SrcT, typename B_TYPE::T>, "Matmul: A and B need one type");

 public:
  Matmul() = default;

  /// REGIST_MATMUL_OBJ's call: the tiling (copied; nullptr: the MatmulApiStaticTiling MM_CFG)
  /// and the pipe whose L1/L0 buffers it takes.
  void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr) {
    if (tpipe == nullptr) tpipe = GetTPipePtr();
    if (tpipe == nullptr) npusim::ascendc::fail("Matmul::Init", "no TPipe");
    t_ = tiling != nullptr ? *tiling : static_tiling();
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.singleCoreM <= 0 ||
        t_.singleCoreN <= 0 || t_.singleCoreK <= 0)
      npusim::ascendc::fail("Matmul::Init", "tiling without base/single-core shape "
                            "(baseM %d baseN %d baseK %d, singleCore %d x %d x %d)",
                            t_.baseM, t_.baseN, t_.baseK, t_.singleCoreM, t_.singleCoreN,
                            t_.singleCoreK);
    check_types();
    b_.allow_untransposed(!B_TYPE::isTrans);
    out_.set_channel_split(kCfg.isEnableChannelSplit);
    SetOrgShape(t_.M, t_.N, t_.Ka, t_.Kb);
    single_m_ = t_.singleCoreM;
    single_n_ = t_.singleCoreN;
    single_k_ = t_.singleCoreK;
    order_n_ = kCfg.iterateOrder == IterateOrder::UNDEF
        ? t_.iterateOrder == 1 : kCfg.iterateOrder == IterateOrder::ORDER_N;
    inited_ = true;
    if (npusim::ascendc::mm::in_mix() && g_coreType == AIV) {  // a client: the AIC computes
      if (mix_idx_ < 0) mix_idx_ = static_cast<int>(npusim::ascendc::mm::mix_register_client());
      return;
    }
    if (buffers_) return;  // Init again (REGIST_MATMUL_OBJ and the kernel's own): same buffers
    buffers_ = true;
    // isA2B2Shared: the Matmuls of this type on one TPipe share the first one's L0A/L0B double
    // buffers, its L0C block and bias table (they run one after the other, each block taken
    // before the next is computed); each keeps its own L1 buffers.
    Matmul* owner = kCfg.isA2B2Shared ? a2b2_share(tpipe) : nullptr;
    a_.init(tpipe, t_.baseM, t_.baseK, 2, owner != nullptr ? &owner->a_ : nullptr);
    if constexpr (kSparse) {
      if (npusim::ascendc::mm::in_mix())
        npusim::ascendc::fail("Matmul", "SparseMatmulType runs in cube-only kernels "
                              "(ASCENDC_CUBE_ONLY)");
      sb_.init(tpipe, static_cast<std::uint32_t>(t_.baseK), static_cast<std::uint32_t>(t_.baseN));
    } else {
      b_.init(tpipe, t_.baseK, t_.baseN, 2, owner != nullptr ? &owner->b_ : nullptr);
    }
    out_.init(tpipe, t_.baseN);
    const std::uint32_t bias_bytes = align(t_.baseN * sizeof(L0cT), 32);
    if (owner != nullptr) {
      if (owner->l0c_block() < l0c_block() ||
          (t_.isBias && owner->bias_bytes_ != 0 && owner->bias_bytes_ < bias_bytes))
        npusim::ascendc::fail("Matmul::Init", "isA2B2Shared: this Matmul's base block %d x %d "
                              "exceeds the shared L0C / bias table's", t_.baseM, t_.baseN);
      cq_ = owner->cq_;
      mix_cp_ = owner->mix_cp_;
      if (owner->bias_bytes_ != 0) bq2_ = owner->bq2_;
    } else if (npusim::ascendc::mm::in_mix()) {  // the AIC serving the AIVs: one L0C block
      tpipe->InitBuffer(mix_c_, l0c_block() * 4);
    } else if (!user_l0c_) {
      tpipe->InitBuffer(qc_, 1, l0c_block() * 4);
    }
    if (npusim::ascendc::mm::in_mix())
      npusim::ascendc::mm::mix_register_server(this, &Matmul::serve);
    if (t_.isBias) {
      tpipe->InitBuffer(qbias1_, 1, bias_bytes);
      if (bq2_ == &qbias2_) tpipe->InitBuffer(qbias2_, 1, bias_bytes);
      bias_bytes_ = bias_bytes;
    }
  }
  Matmul(const Matmul&) = delete;
  Matmul& operator=(const Matmul&) = delete;
  /// A mix client's last Matmul lets the AIC stop serving (npusim/ascendc/matmul_mix.h).
  ~Matmul() {
    if (kCfg.isA2B2Shared) a2b2_release();
    if (mix_idx_ >= 0 && std::uncaught_exceptions() == 0)
      npusim::ascendc::mm::mix_release_client();
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
    org_kb_ = orgKb;
    org_kc_ = orgKc > 0 ? orgKc : orgN;
    a_.set_pitch(a_.trans() ? org_m_ : org_ka_);
    b_.set_pitch(b_.trans() ? org_kb_ : org_n_);
    if constexpr (kSparse) {
      sb_.set_pitch(static_cast<std::uint64_t>(org_kb_ / 2));
      sb_.set_n_total(static_cast<std::uint32_t>(org_n_));
    }
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
  void SetTensorA(const GlobalTensor<SrcT>& gm, bool isTransposeA = A_TYPE::isTrans) {
    a_.set(gm, isTransposeA);
    a_.set_pitch(isTransposeA ? org_m_ : org_ka_);
    next_ = 0;
  }
  void SetTensorB(const GlobalTensor<SrcT>& gm, bool isTransposeB = B_TYPE::isTrans) {
    if constexpr (kSparse) {
      if (!isTransposeB)
        npusim::ascendc::fail("Matmul::SetTensorB", "a SparseMatmulType B is the densified "
                              "[N][K/2] matrix: transposed only");
      sb_.set(gm, static_cast<std::uint64_t>(org_kb_ / 2));
    }
    b_.set(gm, isTransposeB);
    b_.set_pitch(isTransposeB ? org_kb_ : org_n_);
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
  /// A SparseMatmulType B's index matrix (NZ, 16 x 8-byte fractals over the whole N).
  void SetSparseIndex(const GlobalTensor<std::uint8_t>& indexGlobal) {
    static_assert(kSparse, "Matmul::SetSparseIndex: B must be a SparseMatmulType");
    sb_.set_index(indexGlobal);
  }
  void DisableBias() { has_bias_ = false; }
  void ClearBias() { has_bias_ = false; }
  /// A scratch UB buffer for format conversions on Atlas 200I/500 A2; not needed here.
  void SetLocalWorkspace(const LocalTensor<std::uint8_t>& tmp) { (void)tmp; }
  /// The values the MatmulCallBackFunc functions receive as tilingPtr / dataPtr.
  void SetUserDefInfo(std::uint64_t tilingPtr) { tiling_ptr_ = tilingPtr; }
  void SetSelfDefineData(std::uint64_t dataPtr) { data_ptr_ = dataPtr; }
  /// Dequantisation on the write-out: one scale for every column, or one per column (GM).
  void SetQuantScalar(std::uint64_t quantScalar) { out_.set_quant_scalar(quantScalar); }
  void SetQuantVector(const GlobalTensor<std::uint64_t>& quantTensor) {
    out_.set_quant_vector(quantTensor);
  }

  /// Computes the next base block of C into L0C; false when every block is done.
  /// Iterate<false>: every block at once, each written to the workspace (SetWorkspace) for the
  /// GetTensorC<false> calls that follow, one block each, in order.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    if constexpr (sync) {
      return iterate_into(enPartialSum, nullptr);
    } else {
      const GlobalTensor<DstT> ws = workspace("Matmul::Iterate<false>");
      async_rows_.clear();
      async_next_ = 0;
      while (iterate_into(enPartialSum, nullptr)) {
        write_to_ws(ws[async_rows_.size() * t_.baseM * ub_pitch()]);
        async_rows_.push_back(static_cast<std::uint32_t>(len_m_));
      }
      return !async_rows_.empty();
    }
  }
  /// The same into the caller's L0C tensor (C in CO1), which it then writes out itself.
  template <bool sync = true, class T>
  bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix) {
    static_assert(std::is_same_v<T, L0cT>, "Matmul::Iterate: L0C holds the accumulator type");
    return iterate_into(enPartialSum, &localCmatrix);
  }

  /// Writes the block of the last Iterate to GM: at its place in C (row pitch N of SetOrgShape)
  /// or, with enSequentialWrite, as baseM x baseN at gm.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    if (!pending_) npusim::ascendc::fail("Matmul::GetTensorC", "no block computed (Iterate)");
    pending_ = false;
    if (mix_idx_ >= 0) {
      mix_get(gm, block_view(enSequentialWrite), enAtomic);
      return;
    }
    LocalTensor<L0cT> c = cq_->template DeQue<L0cT>();
    out_.write(gm, c, block_view(enSequentialWrite), enAtomic, unit_flag(), tiling_ptr_,
               data_ptr_);
    cq_->FreeTensor(c);
  }
  /// Writes the block of the last Iterate into UB (C in VECIN): Fixpipe L0C -> GM into the
  /// workspace (SetWorkspace, else the system workspace), then DataCopy GM -> UB (MTE2) as
  /// m x baseN (rows baseN apart, rounded up to 32 bytes) at dst. GetTensorC<false>: the next
  /// block Iterate<false> left in the workspace, GM -> UB.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& dst, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    if (enAtomic != 0)
      npusim::ascendc::fail("Matmul::GetTensorC", "enAtomic into local memory is not supported");
    GlobalTensor<DstT> ws = workspace("Matmul::GetTensorC");
    std::uint32_t rows = 0;
    if constexpr (sync) {
      if (!pending_) npusim::ascendc::fail("Matmul::GetTensorC", "no block computed (Iterate)");
      write_to_ws(ws);
      rows = static_cast<std::uint32_t>(len_m_);
    } else {
      if (async_next_ >= async_rows_.size())
        npusim::ascendc::fail("Matmul::GetTensorC<false>", "no block left (Iterate<false>)");
      ws = ws[async_next_ * t_.baseM * ub_pitch()];
      rows = async_rows_[async_next_++];
    }
    const auto blocks = static_cast<std::uint16_t>(rows * ub_pitch() * sizeof(DstT) / 32);
    DataCopy(dst, ws, DataCopyParams(1, blocks, 0, 0));
  }
  /// GM scratch for C blocks on their way to UB (GetTensorC into local memory).
  template <class T>
  void SetWorkspace(GlobalTensor<T>& addr) {
    workspace_ = reinterpret_cast<GM_ADDR>(addr.GetPhyAddr());
  }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    (void)size;
    workspace_ = reinterpret_cast<GM_ADDR>(const_cast<T*>(addr));
  }

  /// Every base block of this core's C, written to gm (the core's C start, row pitch N).
  /// IterateAll<false> is the same: it has issued every instruction when it returns.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, std::uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)waitIterateAll, (void)fakeMsg;
    if (enSequentialWrite)
      npusim::ascendc::fail("Matmul::IterateAll", "enSequentialWrite is not supported here");
    while (Iterate<true>()) GetTensorC<true>(gm, enAtomic, false);
  }
  /// IterateAll<false> has issued every instruction when it returns: nothing is left to wait.
  void WaitIterateAll() {}

  /// One Matmul per batch: batch i multiplies A's i-th matrix by B's and writes C's i-th
  /// (npusim/ascendc/matmul_batch.h has the layouts; matrixStride*: elements between two
  /// matrices instead). Equal batch counts only.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateBatch(const GlobalTensor<DstT>& gm, std::uint32_t batchA, std::uint32_t batchB,
                    bool enSequentialWrite, std::uint32_t matrixStrideA = 0,
                    std::uint32_t matrixStrideB = 0, std::uint32_t matrixStrideC = 0,
                    bool enPartialSum = false, std::uint8_t enAtomic = 0) {
    if (enSequentialWrite || enPartialSum)
      npusim::ascendc::fail("Matmul::IterateBatch", "enSequentialWrite / enPartialSum are not "
                            "supported by the simulator");
    const npusim::ascendc::mm::BatchLayout lay =
        npusim::ascendc::mm::batch_layout<A_TYPE, B_TYPE, C_TYPE>(t_, a_.trans(), b_.trans(),
                                                                  batchA, batchB);
    run_batches<sync>(gm, lay, 0, lay.batch, matrixStrideA, matrixStrideB, matrixStrideC,
                      enAtomic);
  }

  /// IterateNBatch (MatmulConfig isNBatch): batchLoop IterateBatch calls of batchA (= batchB)
  /// batches each, loop l taking the operands' batches l*batchA .. l*batchA + batchA - 1 (the
  /// layout's batch order, npusim/ascendc/matmul_batch.h) and writing their C matrices into the
  /// workspace (SetWorkspace) where C's layout puts them (the workspace holds C as C would be
  /// held). Each batch costs one Matmul's instructions. IterateNBatch<false> has issued every
  /// instruction when it returns; GetBatchTensorC<false> then hands out the loops in order.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const std::uint32_t batchLoop, std::uint32_t batchA, std::uint32_t batchB,
                     bool enSequentialWrite, const std::uint32_t matrixStrideA = 0,
                     const std::uint32_t matrixStrideB = 0,
                     const std::uint32_t matrixStrideC = 0) {
    if (!kCfg.isNBatch)
      npusim::ascendc::fail("Matmul::IterateNBatch", "the Matmul's MatmulConfig needs isNBatch "
                            "(MatmulBatchParams of GetMMConfig)");
    if (enSequentialWrite)
      npusim::ascendc::fail("Matmul::IterateNBatch", "enSequentialWrite is not supported by the "
                            "simulator");
    if (workspace_ == nullptr)
      npusim::ascendc::fail("Matmul::IterateNBatch", "the results go to the workspace: "
                            "SetWorkspace first");
    const npusim::ascendc::mm::BatchLayout lay =
        npusim::ascendc::mm::batch_layout<A_TYPE, B_TYPE, C_TYPE>(t_, a_.trans(), b_.trans(),
                                                                  batchA, batchB);
    GlobalTensor<DstT> ws;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(workspace_));
    for (std::uint32_t l = 0; l < batchLoop; ++l)
      run_batches<true>(ws, lay, static_cast<std::uint64_t>(l) * lay.batch, lay.batch,
                        matrixStrideA, matrixStrideB, matrixStrideC, 0);
    nbatch_c_.clear();
    nbatch_next_ = 0;
    if constexpr (!sync) {
      for (std::uint32_t l = 0; l < batchLoop; ++l)
        nbatch_c_.push_back(ws[matrixStrideC > 0
                                   ? static_cast<std::uint64_t>(l) * lay.batch * matrixStrideC
                                   : lay.c_at(static_cast<std::uint64_t>(l) * lay.batch)]);
    }
  }
  /// After IterateNBatch<false>: the next loop's C (its first matrix in the workspace).
  template <bool sync = true>
  GlobalTensor<DstT> GetBatchTensorC(std::uint32_t batchA, std::uint32_t batchB,
                                     bool enSequentialWrite = false) {
    (void)batchA, (void)batchB, (void)enSequentialWrite;
    static_assert(!sync, "Matmul::GetBatchTensorC: only the asynchronous form (sync false)");
    if (nbatch_next_ >= nbatch_c_.size())
      npusim::ascendc::fail("Matmul::GetBatchTensorC", "no batch loop left (IterateNBatch<false>)");
    return nbatch_c_[nbatch_next_++];
  }
  /// IterateNBatch<false, true>'s wait: every instruction is issued already.
  void WaitIterateBatch() {}

  void End() {
    pending_ = false;
    next_ = 0;
  }

 private:
  static std::uint32_t align(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }
  std::uint32_t ub_pitch() const { return align(t_.baseN, 32 / sizeof(DstT)); }

  /// This block's part of the workspace: SetWorkspace's, else the system workspace's slice
  /// of the block (one base block each).
  GlobalTensor<DstT> workspace(const char* op) const {
    GlobalTensor<DstT> ws;
    if (workspace_ != nullptr) {
      ws.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(workspace_));
      return ws;
    }
    GM_ADDR sys = GetSysWorkSpacePtr();
    if (sys == nullptr)
      npusim::ascendc::fail(op, "C into local memory goes through GM: SetWorkspace first (or a "
                            "kernel with a __kfc_workspace__ parameter)");
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(sys));
    return ws[static_cast<std::uint64_t>(GetBlockIdx()) * align(t_.baseM, 16) * ub_pitch()];
  }
  static int ceil(int a, int b) { return (a + b - 1) / b; }
  static int min(int a, int b) { return a < b ? a : b; }
  std::uint8_t unit_flag() const { return kCfg.enUnitFlag ? 3 : 0; }

  static TCubeTiling static_tiling() {
    TCubeTiling t{};
    if constexpr (npusim::ascendc::mm::is_static_tiling<decltype(MM_CFG)>()) {
      npusim::ascendc::mm::copy_static_tiling(MM_CFG, t);
    } else {
      npusim::ascendc::fail("Matmul::Init", "no tiling (REGIST_MATMUL_OBJ without one needs a "
                            "MatmulApiStaticTiling as the Matmul's MM_CFG)");
    }
    return t;
  }

  static void check_types() {
    const char* what = nullptr;
    if (A_TYPE::pos != TPosition::GM || B_TYPE::pos != TPosition::GM)
      what = "A and B must be in GM";
    else if ((A_TYPE::format != CubeFormat::ND && A_TYPE::format != CubeFormat::VECTOR) ||
             B_TYPE::format != CubeFormat::ND)
      what = "A must be ND or VECTOR (one row), B ND";
    else if (C_TYPE::pos == TPosition::A1 || C_TYPE::pos == TPosition::B1 ||
             C_TYPE::pos == TPosition::TSCM)
      what = "C must be in GM, UB (VECIN/VECOUT) or L0C (CO1)";
    else if (BIAS_TYPE::pos != TPosition::GM)
      what = "the bias must be in GM";
    else if (npusim::ascendc::IsInt4<SrcT>::value)
      what = "int4b_t inputs are not supported";
    if (what != nullptr)
      npusim::ascendc::fail("Matmul", "%s (other positions and formats are not supported by "
                            "the simulator)", what);
  }

  void check_ready(const char* op) const {
    if (!inited_) npusim::ascendc::fail(op, "the Matmul was not initialised (REGIST_MATMUL_OBJ)");
    if (!a_.ready() || !b_.ready()) npusim::ascendc::fail(op, "SetTensorA and SetTensorB first");
    if (a_.trans() && sizeof(SrcT) != 2)
      npusim::ascendc::fail(op, "a transposed A needs a 16-bit type in the simulator");
    if (!b_.trans() && sizeof(SrcT) == 4)
      npusim::ascendc::fail(op, "an untransposed B needs a 16- or 8-bit type in the simulator");
    if constexpr (kSparse) {
      if (!sb_.ready()) npusim::ascendc::fail(op, "a sparse B needs SetSparseIndex first");
      if (has_bias_) npusim::ascendc::fail(op, "a bias with a sparse B is not supported");
    }
  }

  bool iterate_into(bool enPartialSum, const LocalTensor<L0cT>* user_c) {
    if (enPartialSum)
      npusim::ascendc::fail("Matmul::Iterate", "enPartialSum is not supported by the simulator");
    check_ready("Matmul::Iterate");
    if (pending_)
      npusim::ascendc::fail("Matmul::Iterate", "the previous block was not taken (GetTensorC)");
    const int m_iter = ceil(single_m_, t_.baseM), n_iter = ceil(single_n_, t_.baseN);
    const int k_parts = kCfg.isPartialOutput ? ceil(single_k_, t_.baseK) : 1;
    do {
      if (next_ >= m_iter * n_iter * k_parts) {
        next_ = 0;
        return false;
      }
      const int blk = next_ / k_parts;
      cur_k_ = next_ % k_parts;
      cur_m_ = order_n_ ? blk / n_iter : blk % m_iter;
      cur_n_ = order_n_ ? blk % n_iter : blk / m_iter;
      ++next_;
    } while (!npusim::ascendc::mm::computes(kPolicy, cur_m_, cur_n_));
    len_m_ = min(t_.baseM, single_m_ - cur_m_ * t_.baseM);
    len_n_ = min(t_.baseN, single_n_ - cur_n_ * t_.baseN);
    if (mix_idx_ >= 0) {  // the AIC computes the block when it is asked for it (GetTensorC)
      if (user_c != nullptr)
        npusim::ascendc::fail("Matmul::Iterate", "C in L0C cannot be given from an AIV");
      pending_ = true;
      return true;
    }
    if (user_c != nullptr) {
      compute_block(*user_c);
      return true;
    }
    LocalTensor<L0cT> c = cq_->template AllocTensor<L0cT>();
    compute_block(c);
    cq_->EnQue(c);
    pending_ = true;
    return true;
  }

  /// The bias row of block column cur_n_ into the bias table (GM -> L1 -> C2).
  LocalTensor<L0cT> load_bias(int n_len) {
    if constexpr (!std::is_same_v<BiasT, L0cT>) {
      // SetBias refuses such a bias before any block is computed; this keeps a kernel whose
      // MatmulType names a half bias it never sets compiling.
      npusim::ascendc::fail("Matmul::SetBias", "the bias must be of the accumulator type");
      return LocalTensor<L0cT>();
    }
    LocalTensor<L0cT> l1 = qbias1_.template AllocTensor<L0cT>();
    const auto blocks = static_cast<std::uint16_t>(align(n_len * sizeof(L0cT), 32) / 32);
    if constexpr (std::is_same_v<BiasT, L0cT>)
      DataCopy(l1, bias_[static_cast<std::uint64_t>(cur_n_) * t_.baseN],
               DataCopyParams(1, blocks, 0, 0));
    qbias1_.EnQue(l1);
    l1 = qbias1_.template DeQue<L0cT>();
    LocalTensor<L0cT> bt = bq2_->template AllocTensor<L0cT>();
    DataCopy(bt, l1, DataCopyParams(1, blocks, 0, 0));
    qbias1_.FreeTensor(l1);
    bq2_->EnQue(bt);
    return bq2_->template DeQue<L0cT>();
  }

  /// The k steps of the current block (one with isPartialOutput) into c.
  void compute_block(const LocalTensor<L0cT>& c) {
    const int m_len = len_m_, n_len = len_n_;
    const bool bias = has_bias_ && cur_k_ == 0;
    LocalTensor<L0cT> bias_bt;
    if (bias) bias_bt = load_bias(n_len);
    const int k_iter = ceil(single_k_, t_.baseK);
    const int k_first = kCfg.isPartialOutput ? cur_k_ : 0;
    const int k_end = kCfg.isPartialOutput ? cur_k_ + 1 : k_iter;
    for (int ki = k_first; ki < k_end; ++ki) {
      const int k_len = min(t_.baseK, single_k_ - ki * t_.baseK);
      const auto m0 = static_cast<std::uint32_t>(cur_m_ * t_.baseM);
      const auto n0 = static_cast<std::uint32_t>(cur_n_ * t_.baseN);
      const auto k0 = static_cast<std::uint32_t>(ki * t_.baseK);
      const auto ml = static_cast<std::uint32_t>(m_len), nl = static_cast<std::uint32_t>(n_len);
      const auto kl = static_cast<std::uint32_t>(k_len);
      LocalTensor<SrcT> a = a_.load({m0, k0, ml, kl, cur_m_, ki}, tiling_ptr_, data_ptr_);
      const bool first = ki == k_first;
      MmadParams p(npusim::ascendc::zz_mmad_m(static_cast<std::uint32_t>(m_len)),
                   static_cast<std::uint16_t>(n_len), static_cast<std::uint16_t>(k_len),
                   static_cast<std::uint8_t>(ki + 1 == k_end ? unit_flag() : 0), false, first);
      if constexpr (kSparse) {
        LocalTensor<SrcT> b = sb_.load(k0, n0, kl, nl);
        MmadWithSparse(c, a, b, p);
        a_.free(a);
        sb_.free(b);
        continue;
      }
      LocalTensor<SrcT> b = b_.load({k0, n0, kl, nl, ki, cur_n_}, tiling_ptr_, data_ptr_);
      if (first && bias) {
        Mmad(c, a, b, bias_bt, p);
      } else {
        Mmad(c, a, b, p);
      }
      a_.free(a);
      b_.free(b);
    }
    if (bias) bq2_->FreeTensor(bias_bt);
  }

  /// Batches j0 .. j0 + n - 1 of the layout, each one Matmul of its matrices into gm (C's
  /// place of the batch); the operands and bias are restored afterwards.
  template <bool sync>
  void run_batches(const GlobalTensor<DstT>& gm, const npusim::ascendc::mm::BatchLayout& lay,
                   std::uint64_t j0, std::uint32_t n, std::uint32_t stride_a,
                   std::uint32_t stride_b, std::uint32_t stride_c, std::uint8_t atomic) {
    const GlobalTensor<SrcT> a0 = a_.gm(), b0 = b_.gm();
    const GlobalTensor<BiasT> bias0 = bias_;
    const int org_kc = org_kc_;
    org_kc_ = lay.c_pitch;
    for (std::uint64_t j = j0; j < j0 + n; ++j) {
      a_.set(a0[stride_a > 0 ? j * stride_a : lay.a_at(j)], a_.trans());
      b_.set(b0[stride_b > 0 ? j * stride_b : lay.b_at(j)], b_.trans());
      a_.set_pitch(static_cast<std::uint64_t>(lay.a_pitch));
      b_.set_pitch(static_cast<std::uint64_t>(lay.b_pitch));
      if (has_bias_ && kCfg.isBiasBatch) bias_ = bias0[j * static_cast<std::uint64_t>(t_.N)];
      next_ = 0;
      IterateAll<sync>(gm[stride_c > 0 ? j * stride_c : lay.c_at(j)], atomic);
    }
    bias_ = bias0;
    org_kc_ = org_kc;
    SetTensorA(a0, a_.trans());
    SetTensorB(b0, b_.trans());
  }

  /// The pending block into the workspace at ws (rows ub_pitch() apart) for a copy to UB.
  void write_to_ws(const GlobalTensor<DstT>& ws) {
    npusim::ascendc::mm::BlockView v = block_view(true);
    v.cols = ub_pitch();
    pending_ = false;
    if (mix_idx_ >= 0) {
      mix_get(ws, v, 0);  // the AIC's Fixpipe; its flag orders the copy from ws after it
      return;
    }
    LocalTensor<L0cT> c = cq_->template DeQue<L0cT>();
    out_.write(ws, c, v, 0, unit_flag(), tiling_ptr_, data_ptr_);
    cq_->FreeTensor(c);
    const std::int32_t ev = GetTPipePtr()->FetchEventID(HardEvent::FIX_MTE2);
    SetFlag<HardEvent::FIX_MTE2>(ev);
    WaitFlag<HardEvent::FIX_MTE2>(ev);
  }

  std::uint32_t l0c_block() const { return align(t_.baseM, 16) * align(t_.baseN, 16); }

  /// isA2B2Shared owners: the first Matmul of this type initialised on each live TPipe.
  struct A2B2Owners {
    std::mutex mu;
    std::vector<std::pair<const TPipe*, Matmul*>> list;
  };
  static A2B2Owners& a2b2_owners() {
    static A2B2Owners owners;
    return owners;
  }
  /// The owner whose buffers this Matmul shares, or nullptr when it is the first (the owner).
  Matmul* a2b2_share(const TPipe* pipe) {
    A2B2Owners& o = a2b2_owners();
    std::lock_guard<std::mutex> lock(o.mu);
    for (const auto& e : o.list)
      if (e.first == pipe) return e.second;
    o.list.emplace_back(pipe, this);
    a2b2_pipe_ = pipe;
    return nullptr;
  }
  void a2b2_release() {
    if (a2b2_pipe_ == nullptr) return;
    A2B2Owners& o = a2b2_owners();
    std::lock_guard<std::mutex> lock(o.mu);
    for (auto it = o.list.begin(); it != o.list.end(); ++it)
      if (it->second == this) {
        o.list.erase(it);
        break;
      }
  }

  /// Mix client: the AIC writes the pending block to gm as v says.
  void mix_get(const GlobalTensor<DstT>& gm, const npusim::ascendc::mm::BlockView& v,
               std::uint8_t atomic) {
    npusim::ascendc::mm::MixRequest r;
    r.op = npusim::ascendc::mm::MixOp::kGetC;
    r.obj = static_cast<std::uint32_t>(mix_idx_);
    r.client = this;
    r.dst = gm.GetPhyAddr();
    r.row0 = v.row0;
    r.col0 = v.col0;
    r.rows = v.rows;
    r.cols = v.cols;
    r.atomic = atomic;
    npusim::ascendc::mm::mix_round(r);
  }

  /// Mix server (the AIC): computes the client's pending block (its state: tensors, shapes,
  /// block) into L0C and writes it where the request says.
  static void serve(void* self, const npusim::ascendc::mm::MixRequest& r, std::uint32_t aiv) {
    (void)aiv;
    if (r.op != npusim::ascendc::mm::MixOp::kGetC) return;
    Matmul& m = *static_cast<Matmul*>(self);
    const Matmul& c = *static_cast<const Matmul*>(r.client);
    m.adopt(c);
    const LocalTensor<L0cT> l0c = m.mix_cp_->template Get<L0cT>();
    m.compute_block(l0c);
    npusim::ascendc::mm::BlockView v{static_cast<std::uint32_t>(c.len_m_),
                                     static_cast<std::uint32_t>(c.len_n_), r.row0, r.col0,
                                     r.rows, r.cols};
    GlobalTensor<DstT> dst;
    dst.SetGlobalBuffer(static_cast<__gm__ DstT*>(r.dst));
    m.out_.write(dst, l0c, v, r.atomic, m.unit_flag(), c.tiling_ptr_, c.data_ptr_);
  }

  void adopt(const Matmul& c) {
    a_.set(c.a_.gm(), c.a_.trans());
    a_.set_pitch(c.a_.pitch());
    b_.set(c.b_.gm(), c.b_.trans());
    b_.set_pitch(c.b_.pitch());
    bias_ = c.bias_;
    has_bias_ = c.has_bias_;
    out_.copy_quant(c.out_);
    tiling_ptr_ = c.tiling_ptr_;
    data_ptr_ = c.data_ptr_;
    single_m_ = c.single_m_, single_n_ = c.single_n_, single_k_ = c.single_k_;
    cur_m_ = c.cur_m_, cur_n_ = c.cur_n_, cur_k_ = c.cur_k_;
    len_m_ = c.len_m_, len_n_ = c.len_n_;
  }

  npusim::ascendc::mm::BlockView block_view(bool sequential) const {
    npusim::ascendc::mm::BlockView v;
    v.m_len = static_cast<std::uint32_t>(len_m_);
    v.n_len = static_cast<std::uint32_t>(len_n_);
    v.row0 = sequential ? 0 : static_cast<std::uint64_t>(cur_m_) * t_.baseM;
    v.col0 = sequential ? 0 : static_cast<std::uint64_t>(cur_n_) * t_.baseN;
    v.rows = sequential ? v.m_len : static_cast<std::uint32_t>(org_m_);
    v.cols = sequential ? v.n_len : static_cast<std::uint32_t>(org_kc_);
    return v;
  }

  TCubeTiling t_{};
  npusim::ascendc::mm::OperandLoader<SrcT, false,
      npusim::ascendc::mm::copy_in_of<MM_CB::kCopyA1>> a_;
  npusim::ascendc::mm::OperandLoader<SrcT, true,
      npusim::ascendc::mm::copy_in_of<MM_CB::kCopyB1>> b_;
  npusim::ascendc::mm::SparseBLoader sb_;  // SparseMatmulType B (kSparse)
  Out out_;
  TQue<TPosition::CO1, 1> qc_;
  TBuf<TPosition::CO1> mix_c_;
  TQue<TPosition::C1, 1> qbias1_;
  TQue<TPosition::C2, 1> qbias2_;
  // The L0C block and bias table used: this object's, or an isA2B2Shared owner's.
  TQue<TPosition::CO1, 1>* cq_ = &qc_;
  TBuf<TPosition::CO1>* mix_cp_ = &mix_c_;
  TQue<TPosition::C2, 1>* bq2_ = &qbias2_;
  std::uint32_t bias_bytes_ = 0;
  GlobalTensor<BiasT> bias_;
  std::uint64_t tiling_ptr_ = 0, data_ptr_ = 0;
  GM_ADDR workspace_ = nullptr;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  int cur_m_ = 0, cur_n_ = 0, cur_k_ = 0, next_ = 0, len_m_ = 0, len_n_ = 0;
  int mix_idx_ = -1;  // a mix client's registration index (-1: computes itself)
  const TPipe* a2b2_pipe_ = nullptr;  // isA2B2Shared: the pipe this object owns buffers on
  bool has_bias_ = false, pending_ = false, inited_ = false, order_n_ = false, buffers_ = false;
  std::vector<std::uint32_t> async_rows_;  // Iterate<false>: rows of each block in the workspace
  std::size_t async_next_ = 0;
  std::vector<GlobalTensor<DstT>> nbatch_c_;  // IterateNBatch<false>: each loop's C
  std::size_t nbatch_next_ = 0;
  static constexpr bool user_l0c_ = C_TYPE::pos == TPosition::CO1;
};

}  // namespace AscendC
