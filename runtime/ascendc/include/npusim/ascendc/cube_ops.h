// SPDX-License-Identifier: Apache-2.0
// Cube path of the Ascend C twin: LoadData (2D, L1/GM -> L0A/L0B, MTE1/MTE2), Mmad (M pipe) and
// Fixpipe (L0C -> GM, FIXPIPE pipe).
// Layouts (Ascend C Mmad documentation): A in L0A is "zZ" — 16 x K0 fractals, row-major inside,
// row-major between (GEMV: with m == 1, A is k contiguous elements, not fractals); B in L0B is
// "nZ" — K0 x 16 fractals, column-major inside, row-major between; C in L0C is "zN" — 16 x 16
// fractals, row-major inside, column-major between.
// K0 = 32 bytes / sizeof(input): 16 for half/bfloat16_t, 32 for int8, 8 for float, 64 for int4.
// Mmad accumulates in the L0C type (float for half/bf16/float inputs, int32 for int8). For the
// hardware's type combinations the float sums are Eigen's GEMM (cube_ops.cpp): blocked order,
// possibly fused, within K * 2^-24 * sum |a * b| of the exact result (products of half / bf16
// inputs are exact in float) and deterministic, not bit-identical to a k-order loop; int8 sums
// are exact. Other combinations use the generic k-order loops below.
// Timing-only mode (BlockContext::functional false): every op checks its arguments and records
// its instruction as usual and computes nothing (L0/L1/GM contents are then undefined).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/int4.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

enum QuantMode_t : std::uint8_t {
  NoQuant = 0,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8
};

namespace AscendC {

using ::QuantMode_t;

struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(std::uint16_t start_index, std::uint8_t repeat_times, std::uint16_t src_stride,
                   std::uint8_t sid_value, std::uint16_t dst_gap, bool transpose,
                   std::uint8_t addr_mode)
      : startIndex(start_index),
        repeatTimes(repeat_times),
        srcStride(src_stride),
        sid(sid_value),
        dstGap(dst_gap),
        ifTranspose(transpose),
        addrMode(addr_mode) {}
  std::uint16_t startIndex = 0;
  std::uint8_t repeatTimes = 0;
  std::uint16_t srcStride = 0;
  std::uint8_t sid = 0;
  std::uint16_t dstGap = 0;
  bool ifTranspose = false;
  std::uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
  MmadParams() = default;
  MmadParams(std::uint16_t m_value, std::uint16_t n_value, std::uint16_t k_value, bool is_bias,
             std::int32_t fm_offset, bool en_ssparse, bool en_winograd_a, bool en_winograd_b)
      : m(m_value),
        n(n_value),
        k(k_value),
        isBias(is_bias),
        fmOffset(fm_offset),
        enSsparse(en_ssparse),
        enWinogradA(en_winograd_a),
        enWinogradB(en_winograd_b) {}
  /// CANN 9's form: {m, n, k, unitFlag, cmatrixSource, cmatrixInitVal}.
  MmadParams(std::uint16_t m_value, std::uint16_t n_value, std::uint16_t k_value,
             std::uint8_t unit_flag = 0, bool cmatrix_source = false, bool cmatrix_init_val = true)
      : m(m_value),
        n(n_value),
        k(k_value),
        unitFlag(unit_flag),
        cmatrixSource(cmatrix_source),
        cmatrixInitVal(cmatrix_init_val) {}
  std::uint16_t m = 0;
  std::uint16_t n = 0;
  std::uint16_t k = 0;
  bool isBias = false;  // deprecated: true = accumulate into C
  std::int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  std::uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;  // true: C = A*B; false: C += A*B
};

enum class CO2Layout : std::uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ, false};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR, false};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR, false};

/// L0C -> GM parameters (Atlas A2/A3 form). srcStride: rows per fractal column of the NZ source
/// (mSize rounded up to 16); dstStride: elements per ND row (ROW_MAJOR) or 32-byte blocks
/// between fractal columns (NZ).
struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(std::uint16_t n_size, std::uint16_t m_size, std::uint16_t src_stride,
                    std::uint32_t dst_stride, bool relu)
      : nSize(n_size), mSize(m_size), srcStride(src_stride), dstStride(dst_stride), reluEn(relu) {}
  /// The full form: {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum,
  /// srcNdStride, dstNdStride, unitFlag[, isChannelSplit]}.
  FixpipeParamsV220(std::uint16_t n_size, std::uint16_t m_size, std::uint16_t src_stride,
                    std::uint32_t dst_stride, bool relu, QuantMode_t quant, std::int64_t deq_scalar,
                    std::uint16_t nd_num, std::uint16_t src_nd_stride, std::uint16_t dst_nd_stride,
                    std::uint8_t unit_flag, bool channel_split = false)
      : nSize(n_size),
        mSize(m_size),
        srcStride(src_stride),
        dstStride(dst_stride),
        quantPre(quant),
        deqScalar(static_cast<std::uint64_t>(deq_scalar)),
        ndNum(nd_num),
        srcNdStride(src_nd_stride),
        dstNdStride(dst_nd_stride),
        reluEn(relu),
        unitFlag(unit_flag),
        isChannelSplit(channel_split) {}
  std::uint16_t nSize = 0;
  std::uint16_t mSize = 0;
  std::uint16_t srcStride = 0;
  std::uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  std::uint64_t deqScalar = 0;
  std::uint16_t ndNum = 1;
  std::uint16_t srcNdStride = 0;
  std::uint16_t dstNdStride = 0;
  bool reluEn = false;
  std::uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t k0_of() { return 32 / sizeof(T); }

inline std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

/// Mmad's m for an A in zZ fractals: 1 -> 16, as m == 1 would be GEMV (A read as a vector).
constexpr std::uint16_t zz_mmad_m(std::uint32_t m) {
  return static_cast<std::uint16_t>(m + 15u * static_cast<std::uint32_t>(m == 1u));
}

// Each cube op is a kernel-facing shell (block(), ScalarPause; its basic blocks around the pause
// are the kernel's, as for the vector ops) around a body that checks, computes and records. For
// the types the hardware's cube takes, the bodies are out-of-line functions of libacl_rt.so
// (runtime/ascendc/cube_ops.cpp), compiled once, optimised and without coverage
// instrumentation: their element loops and the half / bfloat16_t conversions inside them make
// no __sanitizer_cov_trace_pc callbacks (inline code would, since half.h's conversions are
// kernel-facing and instrumented). Other type combinations use the generic NPUSIM_TWIN_FN bodies
// below (the same layouts and checks; Mmad in k order, see mmad_generic).

/// A local tensor as a cube body sees it.
struct CubeOperand {
  void* data;
  std::uint32_t size;  // elements
  Mem mem;
  std::int32_t slot;
};

template <class T>
CubeOperand cube_operand(const AscendC::LocalTensor<T>& t) {
  return {t.twin_data(), t.GetSize(), t.mem(), t.twin_slot()};
}

/// Where Fixpipe writes: GM (mem kGm, slot -1) or an L1 tensor (size: its bytes), and the
/// per-channel quantisation words of the vector quant modes (vq: nSize words, else nullptr).
struct FixpipeDst {
  void* data;
  Mem mem;
  std::int32_t slot;
  std::uint64_t size;
  const std::uint64_t* vq = nullptr;
  std::int32_t vq_slot = -1;
};

/// LoadData 2D: repeatTimes fractals of 512 bytes (elem_bytes wide elements) from `src`
/// (src_size elements; ~0 for GM) to `dst` (L0A / L0B), transposed 16 x 16 with ifTranspose.
NPUSIM_KERNEL_API void load_2d_body(BlockContext& ctx, DType dtype, std::uint32_t elem_bytes,
                                    const CubeOperand& dst, const void* src, std::uint64_t src_size,
                                    Mem src_mem, std::int32_t src_slot,
                                    const AscendC::LoadData2DParams& p);

/// Mmad's operand checks (k0: elements per fractal row of A's type): fails unless L0A, L0B and
/// L0C hold the m x k, k x n and m x n fractals `p` asks for.
NPUSIM_KERNEL_API void check_mmad_operands(const CubeOperand& c, const CubeOperand& a,
                                           const CubeOperand& b, const AscendC::MmadParams& p,
                                           std::uint32_t k0);

/// Records Mmad's instruction (M pipe, L0A/L0B -> L0C) once its body has run.
NPUSIM_KERNEL_API void emit_mmad(BlockContext& ctx, DType c_type, DType a_type,
                                 const CubeOperand& c, const CubeOperand& a, const CubeOperand& b,
                                 const AscendC::MmadParams& p);

/// Mmad on the types mmad_out_of_line<D, A, B>() accepts (c_type: the L0C type).
NPUSIM_KERNEL_API void mmad_body(BlockContext& ctx, DType c_type, DType a_type, DType b_type,
                                 const CubeOperand& c, const CubeOperand& a, const CubeOperand& b,
                                 const AscendC::MmadParams& p);

/// Mmad of int4b_t A, B (K0 = 64, sizes in bytes) to int32 C, recorded as int8 of k / 2.
NPUSIM_KERNEL_API void mmad_int4_body(BlockContext& ctx, const CubeOperand& c, const CubeOperand& a,
                                      const CubeOperand& b, const AscendC::MmadParams& p);

/// Fixpipe L0C -> GM on the types fixpipe_out_of_line<T, U>() accepts (dst: the GM pointer).
NPUSIM_KERNEL_API void fixpipe_body(BlockContext& ctx, DType dst_type, DType src_type, void* dst,
                                    const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                                    AscendC::CO2Layout layout);

/// Fixpipe to GM or L1 on the types fixpipe_out_of_line<T, U>() accepts.
NPUSIM_KERNEL_API void fixpipe_body(BlockContext& ctx, DType dst_type, DType src_type,
                                    const FixpipeDst& dst, const CubeOperand& src,
                                    const AscendC::FixpipeParamsV220& p,
                                    AscendC::CO2Layout layout);

namespace detail {
/// dst[i] = Fp16Format::to_float(src[i]) for i < n, bit for bit (vectorised; cube_ops.cpp).
NPUSIM_KERNEL_API void fp16_to_float(const std::uint16_t* src, float* dst, std::size_t n);
}  // namespace detail

template <class T>
constexpr bool is_byte_int() {
  return std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>;
}

/// float accumulation of fp16 x fp16, bf16 x bf16, fp32 x fp32; int32 of (u)int8 x (u)int8.
template <class D, class A, class B>
constexpr bool mmad_out_of_line() {
  constexpr bool kFloatInput =
      std::is_same_v<A, Half> || std::is_same_v<A, BFloat16> || std::is_same_v<A, float>;
  if constexpr (std::is_same_v<D, float>) {
    return kFloatInput && std::is_same_v<A, B>;
  } else if constexpr (std::is_same_v<D, std::int32_t>) {
    return is_byte_int<A>() && is_byte_int<B>();
  } else {
    return false;
  }
}

/// From float or int32 L0C to float, half, bfloat16_t, int32, int16, int8 or uint8.
template <class T, class U>
constexpr bool fixpipe_out_of_line() {
  constexpr bool kSource = std::is_same_v<U, float> || std::is_same_v<U, std::int32_t>;
  constexpr bool kFloatOut =
      std::is_same_v<T, float> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
  constexpr bool kIntOut =
      std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int16_t> || is_byte_int<T>();
  return kSource && (kFloatOut || kIntOut);
}

/// C's m x n elements (L0C layout) = bias[n], before an accumulating Mmad (mmad_bias.h).
template <class D, class Bias>
NPUSIM_TWIN_FN void fill_bias(BlockContext& ctx, const CubeOperand& c, const Bias* bias,
                              std::uint64_t bias_size, const AscendC::MmadParams& p) {
  const std::uint32_t m1 = ceil_div(p.m, 16), n1 = ceil_div(p.n, 16);
  if (bias_size < p.n || c.size < m1 * n1 * 256u)
    fail("Mmad", "bias of %llu values / C of %u elements for m=%u n=%u",
         static_cast<unsigned long long>(bias_size), c.size, p.m, p.n);
  D* cd = static_cast<D*>(c.data);
  for (std::uint32_t mi = 0; ctx.functional && mi < p.m; ++mi)
    for (std::uint32_t ni = 0; ni < p.n; ++ni)
      cd[((ni / 16) * m1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16] = static_cast<D>(bias[ni]);
}

/// cmatrixInitVal false with cmatrixSource true: C starts from the bias table (address 0).
template <class D>
NPUSIM_TWIN_FN AscendC::MmadParams bias_first(BlockContext& ctx, const CubeOperand& c,
                                              AscendC::MmadParams p) {
  if (p.cmatrixInitVal || !p.cmatrixSource) return p;
  fill_bias<D>(ctx, c, reinterpret_cast<const D*>(ctx.base(Mem::kBiasTable)),
               ctx.capacity(Mem::kBiasTable) / sizeof(D), p);
  p.cmatrixSource = false;
  return p;
}

/// Mmad for other types: C[m][n] (+)= sum over k in k order of D(a) * D(b), each step rounded
/// to D. (The out-of-line body, for the hardware's types, computes the same sum with a float GEMM
/// in its own order: within the bound in the file comment, not bit for bit.)
template <class D, class A, class B>
NPUSIM_TWIN_FN void mmad_generic(BlockContext& ctx, const CubeOperand& c, const CubeOperand& a,
                                 const CubeOperand& b, const AscendC::MmadParams& p_in) {
  static_assert((std::is_arithmetic_v<A> || IsSmallFloat<A>::value) &&
                    (std::is_arithmetic_v<B> || IsSmallFloat<B>::value),
                "Mmad: this input type is not supported by the simulator (int4b_t: int32_t C)");
  constexpr std::uint32_t kK0 = k0_of<A>();
  const AscendC::MmadParams p = bias_first<D>(ctx, c, p_in);
  check_mmad_operands(c, a, b, p, kK0);
  const std::uint32_t m1 = ceil_div(p.m, 16), k1 = ceil_div(p.k, kK0), n1 = ceil_div(p.n, 16);
  const bool accumulate = !p.cmatrixInitVal || p.isBias;
  const A* ad = static_cast<const A*>(a.data);
  const B* bd = static_cast<const B*>(b.data);
  D* cd = static_cast<D*>(c.data);
  for (std::uint32_t mi = 0; ctx.functional && mi < p.m; ++mi) {
    for (std::uint32_t ni = 0; ni < p.n; ++ni) {
      const std::uint32_t ci = ((ni / 16) * m1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16;
      D acc = accumulate ? cd[ci] : D(0);
      for (std::uint32_t ki = 0; ki < p.k; ++ki) {
        const std::uint32_t ai = p.m == 1 ? ki :
            ((mi / 16) * k1 + ki / kK0) * (16 * kK0) + (mi % 16) * kK0 + ki % kK0;
        const std::uint32_t bi =
            ((ki / kK0) * n1 + ni / 16) * (16 * kK0) + (ni % 16) * kK0 + ki % kK0;
        acc = static_cast<D>(acc + static_cast<D>(ad[ai]) * static_cast<D>(bd[bi]));
      }
      cd[ci] = acc;
    }
  }
  emit_mmad(ctx, dtype_of<D>(), dtype_of<A>(), c, a, b, p);
}

/// The quant modes to an 8-bit output, scalar (one word) or per channel (a word per column).
NPUSIM_TWIN_FN inline bool is_b8_quant(QuantMode_t q) {
  return q == QuantMode_t::QF322B8_PRE || q == QuantMode_t::VQF322B8_PRE ||
         q == QuantMode_t::REQ8 || q == QuantMode_t::VREQ8;
}
NPUSIM_TWIN_FN inline bool is_vector_quant(QuantMode_t q) {
  return q == QuantMode_t::VDEQF16 || q == QuantMode_t::VQF322B8_PRE || q == QuantMode_t::VREQ8;
}

/// The scale of the dequantisation to half (DEQF16 / VDEQF16): the fp32 in bits 0..31 of the
/// word with its mantissa cut to 10 bits (bits 0..12 cleared: the Fixpipe's 19-bit scale, as
/// the devkit's matmul_quant golden data computes it).
NPUSIM_TWIN_FN inline float deq_f16_scale(std::uint64_t word) {
  return detail::bit_cast<float>(static_cast<std::uint32_t>(word) & 0xffffe000u);
}

/// A (ReLU'd) L0C value scaled by a quant word: bits 0..31 the fp32 scale. To half (VDEQF16):
/// the scale as deq_f16_scale, rounded to nearest even. To int8 / uint8 ((V)QF322B8_PRE, (V)REQ8): rounded to nearest even,
/// clamped to [-256, 255], plus the 9-bit signed offset in bits 37..45, saturated to T.
template <class T, class U>
NPUSIM_TWIN_FN T quant_value(U v, std::uint64_t word) {
  constexpr bool kB8 = std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>;
  const float scale =
      kB8 ? detail::bit_cast<float>(static_cast<std::uint32_t>(word)) : deq_f16_scale(word);
  const float scaled = static_cast<float>(v) * scale;
  if constexpr (kB8) {
    std::int32_t r = cast_value<std::int16_t>(scaled, Rounding::kNearestEven);
    r = r < -256 ? -256 : r > 255 ? 255 : r;
    const std::int32_t offset = static_cast<std::int32_t>((word >> 37) & 0x1ffu);
    return cast_value<T>(r + (offset >= 256 ? offset - 512 : offset), Rounding::kNearestEven);
  } else {
    return cast_value<T>(scaled, Rounding::kNearestEven);
  }
}

/// One L0C value to the Fixpipe output type: ReLU, then the quantPre conversion (vq: the
/// per-channel word of this value's column for the vector modes).
template <class T, class U>
NPUSIM_TWIN_FN T fixpipe_convert(U v, const AscendC::FixpipeParamsV220& p,
                                 const std::uint64_t* vq = nullptr) {
  if (p.reluEn && v < U(0)) v = U(0);
  if (is_b8_quant(p.quantPre) || p.quantPre == QuantMode_t::VDEQF16) {
    if (is_vector_quant(p.quantPre) && vq == nullptr)
      fail("Fixpipe", "quantPre mode %d needs the quantisation tensor",
           static_cast<int>(p.quantPre));
    return quant_value<T>(v, is_vector_quant(p.quantPre) ? *vq : p.deqScalar);
  }
  switch (p.quantPre) {
    case QuantMode_t::NoQuant:
      return cast_value<T>(v, Rounding::kNearestEven);
    case QuantMode_t::F322F16:
    case QuantMode_t::F322BF16:
      return cast_value<T>(static_cast<float>(v), Rounding::kNearestEven);
    case QuantMode_t::DEQF16: {
      const float scale = deq_f16_scale(p.deqScalar);
      return cast_value<T>(static_cast<float>(v) * scale, Rounding::kNearestEven);
    }
    default:
      fail("Fixpipe", "quantPre mode %d is not supported by the simulator",
           static_cast<int>(p.quantPre));
  }
}

/// GM elements Fixpipe writes from dst (its bounds, checked before writing).
NPUSIM_TWIN_FN inline std::uint64_t fixpipe_span(const AscendC::FixpipeParamsV220& p, bool nd,
                                                 std::uint64_t c0) {
  if (!nd && p.isChannelSplit)  // 16 x 8 fractals, dstStride x 32 bytes apart
    return (p.ndNum - 1ull) * p.dstNdStride + (ceil_div(p.nSize, 8) - 1ull) * p.dstStride * c0 +
           p.mSize * 8ull;
  return nd ? (p.ndNum - 1ull) * p.dstNdStride + (p.mSize - 1ull) * p.dstStride + p.nSize
            : (p.ndNum - 1ull) * p.dstNdStride + (ceil_div(p.nSize, 16) - 1ull) * p.dstStride * c0 +
                  p.mSize * 16ull;
}

NPUSIM_TWIN_FN inline void record_fixpipe(BlockContext& ctx, DType dst_type, DType src_type,
                                          std::uint32_t elem_bytes, std::int32_t src_slot,
                                          const AscendC::FixpipeParamsV220& p, bool nd,
                                          const FixpipeDst& dst) {
  Instr ins;
  if (dst.mem == Mem::kGm) ins.gm_addr = reinterpret_cast<std::uintptr_t>(dst.data);
  // ND: mSize rows of nSize elements, dstStride elements apart (the ndNum matrices taken as
  // following at that pitch); NZ: taken as one contiguous range.
  if (dst.mem == Mem::kGm && nd && static_cast<std::uint64_t>(p.ndNum) * p.mSize > 1)
    ins.gm_pitch = static_cast<std::uint64_t>(p.dstStride) * elem_bytes;
  ins.pipe = Pipe::kFixpipe;
  ins.op = Op::kFixpipe;
  ins.dtype = dst_type;
  ins.dtype2 = src_type;
  ins.src = Mem::kL0c;
  ins.dst = dst.mem;
  ins.bytes = static_cast<std::uint64_t>(p.ndNum) * p.mSize * p.nSize * elem_bytes;
  ins.count = nd ? static_cast<std::uint32_t>(p.ndNum) * p.mSize : p.ndNum * ceil_div(p.nSize, 16);
  ctx.emit(ins, {{src_slot, false}, {dst.slot, true}, {dst.vq_slot, false}});
}

// What fixpipe_loop checks, without converting: the highest source element it reads (the last
// row of the last fractal column of the last matrix) and the quantPre mode.
NPUSIM_TWIN_FN inline void fixpipe_check(const CubeOperand& src,
                                         const AscendC::FixpipeParamsV220& p, QuantMode_t q) {
  const std::uint64_t last_col = ceil_div(p.nSize, 16) - 1ull;
  const std::uint64_t width = p.nSize - last_col * 16;
  const std::uint64_t si = (p.ndNum - 1ull) * p.srcNdStride * 256 + last_col * p.srcStride * 16ull +
                           (p.mSize - 1ull) * 16ull;
  if (si + width > src.size) {
    fail("Fixpipe", "source element %llu beyond the L0C tensor (%u elements)",
         static_cast<unsigned long long>(si + width - 1), src.size);
  }
  if (q != QuantMode_t::NoQuant && q != QuantMode_t::F322F16 && q != QuantMode_t::F322BF16 &&
      q != QuantMode_t::DEQF16 && q != QuantMode_t::VDEQF16 && !is_b8_quant(q)) {
    fail("Fixpipe", "quantPre mode %d is not supported by the simulator", static_cast<int>(q));
  }
}

/// Fixpipe's common start: the layout and the GM range checked (elem_bytes: the destination's);
/// false when nothing is left to do (an empty transfer, or timing-only: the checks the loops
/// would make, and the instruction recorded). nd: the destination is ROW_MAJOR.
NPUSIM_KERNEL_API bool fixpipe_begin(BlockContext& ctx, DType dst_type, DType src_type,
                                     std::uint32_t elem_bytes, const FixpipeDst& dst,
                                     const CubeOperand& src,
                                     const AscendC::FixpipeParamsV220& p,
                                     AscendC::CO2Layout layout, bool& nd);

/// L0C element -> output element, equal to fixpipe_convert<T>(v, p) for every v.
template <class T, class U>
struct GenericConvert {
  const AscendC::FixpipeParamsV220* p;
  NPUSIM_TWIN_FN T operator()(U v) const { return fixpipe_convert<T>(v, *p); }
};

/// The same with the vector quant modes' per-channel words (column n uses vq[n]).
template <class T, class U>
struct ChannelConvert {
  const AscendC::FixpipeParamsV220* p;
  const std::uint64_t* vq;
  NPUSIM_TWIN_FN T operator()(U v, std::uint32_t col) const {
    return fixpipe_convert<T>(v, *p, vq + col);
  }
};

/// Fixpipe's loops, 16 consecutive elements (one fractal row) at a time, each converted by
/// `convert` (U -> T); fails at the first source element beyond L0C. NZ with isChannelSplit
/// (float output): each fractal row's two halves go to two 16 x 8 fractals, the fractal
/// columns dstStride x 32 bytes apart (element (m, n) at (n / 8) * dstStride * 8 + m * 8 +
/// n % 8).
template <class T, class U, class Convert>
NPUSIM_TWIN_FN void fixpipe_loop(T* dst, const CubeOperand& src,
                                 const AscendC::FixpipeParamsV220& p, bool nd, Convert convert) {
  const std::uint64_t c0 = 32 / sizeof(T);
  const bool split = !nd && p.isChannelSplit;
  T row[16];
  const U* sd = static_cast<const U*>(src.data);
  for (std::uint32_t t = 0; t < p.ndNum; ++t) {
    const std::uint64_t sbase = static_cast<std::uint64_t>(t) * p.srcNdStride * 256;
    const std::uint64_t dbase = static_cast<std::uint64_t>(t) * p.dstNdStride;
    for (std::uint32_t mi = 0; mi < p.mSize; ++mi) {
      const std::uint64_t drow =
          nd ? dbase + static_cast<std::uint64_t>(mi) * p.dstStride : dbase + mi * 16ull;
      for (std::uint32_t nf = 0; nf * 16 < p.nSize; ++nf) {
        const std::uint32_t width = p.nSize - nf * 16 < 16 ? p.nSize - nf * 16 : 16;
        const std::uint64_t si = sbase + nf * p.srcStride * 16ull + mi * 16ull;
        const std::uint64_t room = si < src.size ? src.size - si : 0;
        const std::uint32_t valid = room < width ? static_cast<std::uint32_t>(room) : width;
        T* d = split ? row : dst + (nd ? drow + nf * 16ull : drow + nf * p.dstStride * c0);
        const U* s = sd + si;
        if constexpr (std::is_invocable_v<Convert, U, std::uint32_t>) {
          for (std::uint32_t j = 0; j < valid; ++j) d[j] = convert(s[j], nf * 16 + j);
        } else {
          for (std::uint32_t j = 0; j < valid; ++j) d[j] = convert(s[j]);
        }
        for (std::uint32_t j = 0; split && j < valid; ++j)
          dst[dbase + (nf * 2ull + j / 8) * p.dstStride * c0 + mi * 8ull + j % 8] = row[j];
        if (valid < width) {
          fail("Fixpipe", "source element %llu beyond the L0C tensor (%u elements)",
               static_cast<unsigned long long>(si + valid), src.size);
        }
      }
    }
  }
}

/// Fixpipe for other types (the out-of-line body computes exactly this, faster).
template <class T, class U>
NPUSIM_TWIN_FN void fixpipe_generic(BlockContext& ctx, const FixpipeDst& dst,
                                    const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                                    AscendC::CO2Layout layout) {
  bool nd = false;
  if (!fixpipe_begin(ctx, dtype_of<T>(), dtype_of<U>(), sizeof(T), dst, src, p, layout, nd)) return;
  T* out = static_cast<T*>(dst.data);
  if (dst.vq != nullptr)
    fixpipe_loop<T, U>(out, src, p, nd, ChannelConvert<T, U>{&p, dst.vq});
  else
    fixpipe_loop<T, U>(out, src, p, nd, GenericConvert<T, U>{&p});
  record_fixpipe(ctx, dtype_of<T>(), dtype_of<U>(), sizeof(T), src.slot, p, nd, dst);
}
template <class T, class U>
NPUSIM_TWIN_FN void fixpipe_generic(BlockContext& ctx, T* dst, const CubeOperand& src,
                                    const AscendC::FixpipeParamsV220& p,
                                    AscendC::CO2Layout layout) {
  fixpipe_generic<T, U>(ctx, FixpipeDst{dst, Mem::kGm, -1, 0}, src, p, layout);
}

// The LoadData and Mmad shells are noinline: the whole op used to be inline code too large for
// the compiler to inline into kernels, so each call cost the kernel the basic blocks of a call;
// kept that way, kernels count the same scalar_bbs as before the bodies moved out of line
// (Fixpipe, usually called once per kernel, was inlined and still is).
template <class T, class S>
__attribute__((noinline)) void load_2d(const AscendC::LocalTensor<T>& dst, const S* src,
                                       std::uint64_t src_size, Mem src_mem, std::int32_t src_slot,
                                       const AscendC::LoadData2DParams& p) {
  static_assert(sizeof(S) == sizeof(T), "LoadData: source and destination element types differ");
  auto& ctx = block();
  ScalarPause pause(ctx);
  load_2d_body(ctx, dtype_of<T>(), sizeof(T), cube_operand(dst), src, src_size, src_mem, src_slot,
               p);
}

template <class D, class A, class B>
__attribute__((noinline)) void mmad(const AscendC::LocalTensor<D>& c,
                                    const AscendC::LocalTensor<A>& a,
                                    const AscendC::LocalTensor<B>& b,
                                    const AscendC::MmadParams& p) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  if constexpr (mmad_out_of_line<D, A, B>()) {
    mmad_body(ctx, dtype_of<D>(), dtype_of<A>(), dtype_of<B>(), cube_operand(c), cube_operand(a),
              cube_operand(b), p);
  } else if constexpr (IsInt4<A>::value && IsInt4<B>::value && std::is_same_v<D, std::int32_t>) {
    mmad_int4_body(ctx, cube_operand(c), cube_operand(a), cube_operand(b), p);
  } else {
    mmad_generic<D, A, B>(ctx, cube_operand(c), cube_operand(a), cube_operand(b), p);
  }
}

template <class T, class U>
void fixpipe_to(const FixpipeDst& dst, const AscendC::LocalTensor<U>& src,
                const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  if constexpr (fixpipe_out_of_line<T, U>()) {
    fixpipe_body(ctx, dtype_of<T>(), dtype_of<U>(), dst, cube_operand(src), p, layout);
  } else {
    fixpipe_generic<T, U>(ctx, dst, cube_operand(src), p, layout);
  }
}

// (Kept as it was, with the GM-pointer forms of the bodies: routing it through fixpipe_to
// changed how existing kernels compile, and their counted basic blocks.)
template <class T, class U>
void fixpipe(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
             const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  if constexpr (fixpipe_out_of_line<T, U>()) {
    fixpipe_body(ctx, dtype_of<T>(), dtype_of<U>(), dst.GetPhyAddr(), cube_operand(src), p, layout);
  } else {
    fixpipe_generic<T, U>(ctx, dst.GetPhyAddr(), cube_operand(src), p, layout);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const LoadData2DParams& p) {
  npusim::ascendc::load_2d(dst, src.twin_data(), src.GetSize(), src.mem(), src.twin_slot(), p);
}

template <class T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                     const LoadData2DParams& p) {
  npusim::ascendc::load_2d(dst, src.GetPhyAddr(), ~0ull, npusim::ascendc::Mem::kGm, -1, p);
}

template <class D, class A, class B>
inline void Mmad(const LocalTensor<D>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                 const MmadParams& p) {
  npusim::ascendc::mmad(dst, fm, filter, p);
}

template <class T, class U, const FixpipeConfig& kConfig = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                    const FixpipeParamsV220& p) {
  npusim::ascendc::fixpipe(dst, src, p, kConfig.format);
}

}  // namespace AscendC
