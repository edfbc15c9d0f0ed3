/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's tiling/tiling_api.h: the host side of the Matmul high-level API. A tiling object is
 * told the matrices (SetAType/BType/CType/BiasType: position, format, data type, transposed),
 * the shapes (SetShape/SetOrgShape), the cores (SetDim, multi-core only) and the buffers it may
 * use (SetBufferSpace, default: the simulated chip's L1/L0C/UB), and GetTiling fills a
 * TCubeTiling (kernel_tiling/kernel_tiling.h) for lib/matmul_intf.h's Matmul: the split over
 * cores (usedCoreNum, singleCoreM/N/K), the L0 base block (baseM/N/K), what L1 holds per load
 * (stepM/N/Ka/Kb, depthA1/B1) and the buffer use (shareL1Size, shareL0CSize). The sizes come from
 * platform_ascendc::PlatformAscendC, i.e. the chip being simulated (runtime/platform/
 * matmul_tiling.cpp has the algorithm). Link with tiling_api (libacl_rt.so in npusim's tree).
 * Operator packages' op_host sources include it too, for gert's tiling context.
 * It also brings the other high-level APIs' host tiling functions:
 * AscendC::TensorShape (tensor_shape.h), BEGIN_TILING_DATA_DEF (tiling_data_def.h), and one
 * header per API family and API (activation/, math/, reduce/, ...: <api>_tiling.h) with the
 * temporary-space queries and tiling functions of that family's kernel APIs.
 */
#ifndef NPUSIM_TILING_TILING_API_H_
#define NPUSIM_TILING_TILING_API_H_

#include <cstddef>
#include <cstdint>
#include <iostream>  // CANN's tiling headers bring it; samples use std::cout without it

#include "kernel_tiling/kernel_tiling.h"
#if __has_include("register/tiling_context.h")  // the install tree: operator packages' op_host
#include "register/tiling_context.h"            // sources get gert::TilingContext from here
#endif
#if __has_include("securec.h")  // the install tree: CANN's tiling headers bring memcpy_s & co.,
#include "securec.h"            // which host tiling code calls without including securec.h
#endif
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tensor_shape.h"
#include "tiling/tiling_data_def.h"
#include "tiling/activation/geglu_tiling.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/activation/sigmoid_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/activation/swiglu_tiling.h"
#include "tiling/activation/swish_tiling.h"
#include "tiling/index/arange_tiling.h"
#include "tiling/math/acosh_tiling.h"
#include "tiling/math/axpy_tiling.h"
#include "tiling/math/clamp_tiling.h"
#include "tiling/math/cumsum_tiling.h"
#include "tiling/math/erf_tiling.h"
#include "tiling/math/exp_tiling.h"
#include "tiling/math/fmod_tiling.h"
#include "tiling/math/log_tiling.h"
#include "tiling/math/power_tiling.h"
#include "tiling/math/rounding_tiling.h"
#include "tiling/math/xor_tiling.h"
#include "tiling/reduce/reduce_tiling.h"
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/normalization/welford_tiling.h"
#include "tiling/quantization/quant_tiling.h"
#include "tiling/filter/filter_tiling.h"
#include "tiling/sort/sort_tiling.h"
#include "tiling/sort/topk_tiling.h"
#include "tiling/transform/pad_tiling.h"
#include "tiling/transform/trans_data_tiling.h"
#include "tiling/transform/transpose_tiling.h"

#define NPUSIM_TILING_API __attribute__((visibility("default")))

namespace optiling {

/// The host's TCubeTiling: the same 200 bytes with set_<field>/get_<field> accessors,
/// GetDataSize and SaveToBuffer (which copies the bytes a kernel reads as ::TCubeTiling).
class TCubeTiling {
 public:
#define NPUSIM_TCUBE_ACCESSORS(f)                      \
  void set_##f(std::int32_t v) { data_.f = v; }        \
  std::int32_t get_##f() const { return data_.f; }
  NPUSIM_TCUBE_TILING_FIELDS(NPUSIM_TCUBE_ACCESSORS)
#undef NPUSIM_TCUBE_ACCESSORS

  std::size_t GetDataSize() const { return sizeof(data_); }
  /// Copies the tiling to buf (capacity bytes; nothing if it is smaller than GetDataSize()).
  void SaveToBuffer(void* buf, std::size_t capacity) const {
    if (buf == nullptr || capacity < sizeof(data_)) return;
    __builtin_memcpy(buf, &data_, sizeof(data_));
  }
  ::TCubeTiling& data() { return data_; }
  const ::TCubeTiling& data() const { return data_; }

 private:
  ::TCubeTiling data_{};
};

}  // namespace optiling

namespace matmul_tiling {

/// Where a matrix is when the Matmul object reads or writes it.
enum class TPosition : std::int32_t {
  GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
  SHM = SPM, TSCM, MAX
};
enum class CubeFormat : std::int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
/// Element types (the graph engine's numbering).
enum class DataType : std::int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
  DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
  DT_BF16 = 27, DT_INT4 = 29, DT_UNDEFINED = 28
};

/// Which way the Matmul walks the base blocks (SetTraverse): M first, N first, not set.
enum class MatrixTraverse : std::int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
/// How MTE1 walks the blocks (MatmulConfigParams; a schedule choice only).
enum class ScheduleType : std::int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };
/// The dequantisation of an int8 Matmul's output (SetDequantType).
enum class DequantType : std::int32_t { SCALAR = 0, TENSOR = 1 };

/// The kernel's Matmul template as the tiling sees it (SetMatmulConfigParams).
struct MatmulConfigParams {
  int32_t mmConfigType = 1;
  bool enableL1CacheUB = false;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  MatrixTraverse traverse = MatrixTraverse::NOSET;
  bool enVecND2NZ = false;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                     bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

/// One matrix's description (SetAType and friends).
struct MatTypeInfo {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT16;
  bool isTrans = false;
};

/// Single-core Matmul tiling: the whole SetShape problem on one core.
class NPUSIM_TILING_API MatmulApiTiling {
 public:
  MatmulApiTiling();
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& platform);
  virtual ~MatmulApiTiling() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  /// The m, n, k this Matmul computes (SetShape) in matrices of org shape (SetOrgShape).
  int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t SetBias(bool isBiasIn = false);
  int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
  /// Bytes of L1, L0C, UB (and bias table) the Matmul may use; -1: the whole buffer.
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1);
  /// Fixes baseM/baseN/baseK (-1: chosen by GetTiling).
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  /// The block order: FIRSTM (iterateOrder 0) or FIRSTN (iterateOrder 1).
  int32_t SetTraverse(MatrixTraverse traverse);
  /// The kernel's template: its traverse is taken as SetTraverse's, N_BUFFER_33 changes the
  /// split over cores (matmul_tiling.cpp); the rest names schedules.
  int32_t SetMatmulConfigParams(const MatmulConfigParams& params);
  int32_t SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                                ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                                MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                                bool enVecND2NZIn = false) {
    return SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn,
                                                    scheduleTypeIn, traverseIn, enVecND2NZIn));
  }
  /// Batched Matmul: the BSNGD layouts of A, B (b, s, n, g, d) and C (b, s1, n, g, s2), the
  /// matrices per IterateBatch call, or NORMAL layouts of batchA / batchB matrices m x k, k x n.
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBatchNum(int32_t batch);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);
  /// int8 inputs: the output's dequantisation (the kernel's SetQuantScalar / SetQuantVector).
  int32_t SetDequantType(DequantType dequantType);
  /// A 2:4 sparse B (the kernel's SparseMatmulType): GetTiling then also requires int8, a
  /// transposed B and a baseK that is a multiple of 64 (whole 32-byte columns of the densified
  /// B); the split is the dense one's (L1 sized for the full K).
  int32_t SetSparse(bool isSparseIn = false) {
    sparse_ = isSparseIn;
    return 0;
  }

  /// Computes the tiling; 0 on success, -1 when the problem is invalid or does not fit (the
  /// reason is printed on stderr).
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  int64_t GetTiling(::TCubeTiling& tiling);

  int32_t GetBaseM() const { return tiling_.baseM; }
  int32_t GetBaseN() const { return tiling_.baseN; }
  int32_t GetBaseK() const { return tiling_.baseK; }

 protected:
  /// Fills tiling_ for `cores` cores (1 here); false with a message on stderr on failure.
  bool Compute(int32_t cores);
  /// SetSparse's requirements on the computed tiling; false with a message on stderr.
  bool CheckSparse() const;

  std::uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0, bt_ = 0;
  MatTypeInfo a_, b_, c_, bias_;
  int32_t m_ = -1, n_ = -1, k_ = -1;
  int32_t orgM_ = -1, orgN_ = -1, orgKa_ = -1, orgKb_ = -1;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;  // SetSingleShape (multi-core)
  bool bias_on_ = false;
  bool split_k_ = false;
  bool sparse_ = false;
  int32_t iterate_order_ = 0;
  ScheduleType schedule_ = ScheduleType::INNER_PRODUCT;
  ::TCubeTiling layout_{};  // the batch fields (*LayoutInfo*, BatchNum)
  ::TCubeTiling tiling_{};
};

/// Multi-core Matmul tiling: splits M and N (and K with EnableMultiCoreSplitK) over at most
/// SetDim cores the way CANN's tiling does (runtime/platform/matmul_tiling.cpp states the rule).
class NPUSIM_TILING_API MultiCoreMatmulTiling : public MatmulApiTiling {
 public:
  MultiCoreMatmulTiling() = default;
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
      : MatmulApiTiling(platform) {}

  int32_t SetDim(int32_t dim);
  /// Fixes each core's part (-1: chosen by GetTiling).
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  /// Also splits K over the cores (each core's C part is added into C: IterateAll with
  /// enAtomic 1 on a zeroed C).
  int32_t EnableMultiCoreSplitK(bool flag) {
    split_k_ = flag;
    return 0;
  }
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  int64_t GetTiling(::TCubeTiling& tiling);
  /// After GetTiling: each core's m, n, k.
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const;
  /// After GetTiling: cores used and the split (M parts, N parts).
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const;

 private:
  int32_t dim_ = 1;
};

/// Batched Matmul tiling: the single-core tiling of one batch's matrices with the batch layout
/// fields (SetALayout ... SetBatchNum / SetBatchInfoForNormal).
class NPUSIM_TILING_API BatchMatmulTiling : public MatmulApiTiling {
 public:
  BatchMatmulTiling() = default;
  explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
      : MatmulApiTiling(platform) {}
};

}  // namespace matmul_tiling

#undef NPUSIM_TILING_API

#endif  // NPUSIM_TILING_TILING_API_H_
