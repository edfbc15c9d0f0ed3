// SPDX-License-Identifier: Apache-2.0
// Out-of-line bodies of the cube ops (cube_ops.h): LoadData, Mmad and Fixpipe for the types the
// cube takes. They live in libacl_rt.so, built once, optimised and without
// -fsanitize-coverage, so a kernel's matmul costs no basic-block callback per element (inline in
// the kernel's translation unit, the element loops and half.h's conversions were instrumented
// and took most of a matmul's wall time).
//
// Results:
//  - Mmad, float inputs (half, bfloat16_t, float): the operands are converted to float exactly
//    and Eigen's GEMM (cube_gemm.h) accumulates their products in float, in its own blocked
//    order, possibly fused (FMA): within K * 2^-24 * sum |a * b| of the exact sum (half / bf16
//    products are exact in float), but no longer bit-identical to the generic body's
//    per-product-rounded k-order loop. Deterministic: the same bits run after run on one machine.
//  - Mmad, int8 / uint8: exact, as the generic body: int32 sums wrapping modulo 2^32 (the same
//    float GEMM, 256 k at a time, where every partial sum is an exact integer; cube_gemm.h).
//  - Fixpipe: where the L0C -> output conversion has a bit-trick equal to cast_value's IEEE
//    rounding for every input (float -> half / bf16 / float, NaNs included; exhaustively
//    checked when written), that is used; everything else goes through fixpipe_convert.
// In timing-only mode (BlockContext::functional false) the bodies check their arguments and
// record their instruction as usual but compute nothing.
#include "npusim/ascendc/cube_ops.h"

#include "cube_gemm.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace npusim::ascendc {
namespace {

using F4 = float __attribute__((vector_size(16)));
using U4 = std::uint32_t __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));

/// Mmad's GEMV mode: m == 1 reads A as k contiguous elements (Mmad documentation; only Ascend
/// 950 can turn it off, MmadParams::disableGemv, which these A2/A3 parameters do not have).
bool is_gemv(const AscendC::MmadParams& p) { return p.m == 1; }

std::uint32_t k0_of_type(DType t) {
  switch (t) {
    case DType::kFp16:
    case DType::kBf16:
      return 16;
    case DType::kFp32:
      return 8;
    default:
      return 32;  // int8 / uint8
  }
}

// ---- Fixpipe ----

// float -> half, rounded to nearest even (Fp16Format::from_float is that rounding, NaN ->
// sign | 0x7e00 like round_to_format), after ReLU and an optional scale.
struct FloatToHalf {
  bool relu;
  bool scaled;
  float scale;
  Half operator()(float v) const {
    if (relu && v < 0.0f) v = 0.0f;
    return Half::from_bits(Fp16Format::from_float(scaled ? v * scale : v));
  }
};

// float -> bfloat16_t, rounded to nearest even; NaN -> sign | 0x7fc0 as round_to_format gives
// (Bf16Format::from_float would keep the payload).
struct FloatToBf16 {
  bool relu;
  BFloat16 operator()(float v) const {
    if (relu && v < 0.0f) v = 0.0f;
    const auto f = detail::bit_cast<std::uint32_t>(v);
    if ((f & 0x7fffffffu) > 0x7f800000u)
      return BFloat16::from_bits(static_cast<std::uint16_t>(((f >> 16) & 0x8000u) | 0x7fc0u));
    return BFloat16::from_bits(Bf16Format::from_float(v));
  }
};

// float -> float: the value itself; NaN -> sign | 0x7fc00000 as round_to_format gives.
struct FloatToFloat {
  bool relu;
  float operator()(float v) const {
    if (relu && v < 0.0f) v = 0.0f;
    const auto f = detail::bit_cast<std::uint32_t>(v);
    if ((f & 0x7fffffffu) > 0x7f800000u)
      return detail::bit_cast<float>((f & 0x80000000u) | 0x7fc00000u);
    return v;
  }
};

// int32 -> int32 without quantisation: the value itself (cast_value's saturation is a no-op).
struct IntToInt {
  bool relu;
  std::int32_t operator()(std::int32_t v) const { return relu && v < 0 ? 0 : v; }
};

// int32 -> half with DEQF16: float(v) * scale (deq_f16_scale: 10 mantissa bits), rounded to
// half.
struct DequantToHalf {
  bool relu;
  float scale;
  Half operator()(std::int32_t v) const {
    if (relu && v < 0) v = 0;
    return Half::from_bits(Fp16Format::from_float(static_cast<float>(v) * scale));
  }
};

// The fast loops from fp32 (NoQuant / F322F16 / F322BF16, DEQF16 to half); false: none applies.
template <class T>
bool fixpipe_from_float(T* dst, const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                        bool nd) {
  using QM = QuantMode_t;
  const QM q = p.quantPre;
  const bool plain = q == QM::NoQuant || q == QM::F322F16 || q == QM::F322BF16;
  const float deq = deq_f16_scale(p.deqScalar);
  if constexpr (std::is_same_v<T, Half>) {
    if (!plain && q != QM::DEQF16) return false;
    fixpipe_loop<T, float>(dst, src, p, nd, FloatToHalf{p.reluEn, q == QM::DEQF16, deq});
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    if (!plain) return false;
    fixpipe_loop<T, float>(dst, src, p, nd, FloatToBf16{p.reluEn});
  } else if constexpr (std::is_same_v<T, float>) {
    if (!plain) return false;
    fixpipe_loop<T, float>(dst, src, p, nd, FloatToFloat{p.reluEn});
  } else {
    return false;
  }
  return true;
}

// The fast loops from int32 (NoQuant to int32, DEQF16 to half); false: none applies.
template <class T>
bool fixpipe_from_int(T* dst, const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                      bool nd) {
  using QM = QuantMode_t;
  const float deq = deq_f16_scale(p.deqScalar);
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (p.quantPre != QM::NoQuant) return false;
    fixpipe_loop<T, std::int32_t>(dst, src, p, nd, IntToInt{p.reluEn});
  } else if constexpr (std::is_same_v<T, Half>) {
    if (p.quantPre != QM::DEQF16) return false;
    fixpipe_loop<T, std::int32_t>(dst, src, p, nd, DequantToHalf{p.reluEn, deq});
  } else {
    return false;
  }
  return true;
}

template <class T, class U>
void fixpipe_typed(BlockContext& ctx, const FixpipeDst& to, const CubeOperand& src,
                   const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  bool nd = false;
  if (!fixpipe_begin(ctx, dtype_of<T>(), dtype_of<U>(), sizeof(T), to, src, p, layout, nd))
    return;
  T* dst = static_cast<T*>(to.data);
  bool done = false;
  if (to.vq != nullptr) {
    fixpipe_loop<T, U>(dst, src, p, nd, ChannelConvert<T, U>{&p, to.vq});
    done = true;
  } else if constexpr (std::is_same_v<U, float>) {
    done = fixpipe_from_float<T>(dst, src, p, nd);
  } else if constexpr (std::is_same_v<U, std::int32_t>) {
    done = fixpipe_from_int<T>(dst, src, p, nd);
  }
  if (!done) {  // fails at the first element if quantPre is not supported
    fixpipe_loop<T, U>(dst, src, p, nd, GenericConvert<T, U>{&p});
  }
  record_fixpipe(ctx, dtype_of<T>(), dtype_of<U>(), sizeof(T), src.slot, p, nd, to);
}

template <class U>
void fixpipe_from(BlockContext& ctx, DType dst_type, const FixpipeDst& dst, const CubeOperand& src,
                  const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  switch (dst_type) {
    case DType::kFp32:
      return fixpipe_typed<float, U>(ctx, dst, src, p, layout);
    case DType::kFp16:
      return fixpipe_typed<Half, U>(ctx, dst, src, p, layout);
    case DType::kBf16:
      return fixpipe_typed<BFloat16, U>(ctx, dst, src, p, layout);
    case DType::kInt32:
      return fixpipe_typed<std::int32_t, U>(ctx, dst, src, p, layout);
    case DType::kInt16:
      return fixpipe_typed<std::int16_t, U>(ctx, dst, src, p, layout);
    case DType::kInt8:
      return fixpipe_typed<std::int8_t, U>(ctx, dst, src, p, layout);
    case DType::kUInt8:
      return fixpipe_typed<std::uint8_t, U>(ctx, dst, src, p, layout);
    default:
      fail("Fixpipe", "output type %d is not a Fixpipe output type", static_cast<int>(dst_type));
  }
}

}  // namespace

namespace {

// LoadData 2D's r-th source fractal: srcStride apart from startIndex (addrMode 1: downwards).
std::int64_t load_2d_source(const AscendC::LoadData2DParams& p, std::uint32_t r) {
  const std::int64_t step = static_cast<std::int64_t>(r) * p.srcStride;
  return p.addrMode == 0 ? p.startIndex + step : p.startIndex - step;
}

// Timing-only with a local source: when the first and last fractals are in bounds (source and
// destination fractals are monotone in r) every per-fractal check passes and nothing is moved.
bool load_2d_needs_no_loop(const BlockContext& ctx, const CubeOperand& dst, std::uint64_t src_size,
                           Mem src_mem, std::uint32_t frac, const AscendC::LoadData2DParams& p) {
  if (ctx.functional || src_mem == Mem::kGm || p.repeatTimes == 0) return false;
  const std::int64_t first = load_2d_source(p, 0), last = load_2d_source(p, p.repeatTimes - 1u);
  const std::int64_t lo = std::min(first, last), hi = std::max(first, last);
  const std::uint64_t d_last = static_cast<std::uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap);
  return lo >= 0 && (static_cast<std::uint64_t>(hi) + 1) * frac <= src_size &&
         (d_last + 1) * frac <= dst.size;
}

// One 512-byte fractal, transposed 16 x 16 (16-bit elements) when asked.
void move_fractal(std::uint8_t* d, const std::uint8_t* s, bool transpose) {
  if (!transpose) {
    std::memcpy(d, s, 512);
    return;
  }
  std::uint16_t in[256], out[256];
  std::memcpy(in, s, 512);
  for (std::uint32_t i = 0; i < 16; ++i) {
    for (std::uint32_t j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
  }
  std::memcpy(d, out, 512);
}

void emit_load_2d(BlockContext& ctx, DType dtype, const CubeOperand& dst, const void* src,
                  Mem src_mem, std::int32_t src_slot, const AscendC::LoadData2DParams& p) {
  Instr ins;
  ins.pipe = src_mem == Mem::kGm ? Pipe::kMte2 : Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = dtype;
  ins.src = src_mem;
  ins.dst = dst.mem;
  ins.count = p.repeatTimes;
  ins.bytes = 512ull * p.repeatTimes;
  if (src_mem == Mem::kGm) {
    const std::int64_t first =
        p.addrMode == 0 ? p.startIndex
                        : p.startIndex - static_cast<std::int64_t>(p.repeatTimes - 1) * p.srcStride;
    ins.gm_addr = reinterpret_cast<std::uintptr_t>(static_cast<const std::uint8_t*>(src) +
                                                   std::max<std::int64_t>(first, 0) * 512);
    ins.gm_pitch = p.repeatTimes > 1 ? 512ull * p.srcStride : 0;
  }
  ctx.emit(ins, {{src_slot, false}, {dst.slot, true}});
}

}  // namespace

void load_2d_body(BlockContext& ctx, DType dtype, std::uint32_t elem_bytes, const CubeOperand& dst,
                  const void* src, std::uint64_t src_size, Mem src_mem, std::int32_t src_slot,
                  const AscendC::LoadData2DParams& p) {
  if (dst.mem != Mem::kL0a && dst.mem != Mem::kL0b)
    fail("LoadData", "destination must be A2 or B2, got %s", mem_name(dst.mem));
  if (p.ifTranspose && elem_bytes != 2) fail("LoadData", "ifTranspose needs a 16-bit type");
  const std::uint32_t frac = 512 / elem_bytes;  // elements per fractal
  auto* d_base = static_cast<std::uint8_t*>(dst.data);
  const auto* s_base = static_cast<const std::uint8_t*>(src);
  const bool skip = load_2d_needs_no_loop(ctx, dst, src_size, src_mem, frac, p);
  for (std::uint32_t r = 0; !skip && r < p.repeatTimes; ++r) {
    const std::int64_t sf = load_2d_source(p, r);
    const std::uint64_t df = static_cast<std::uint64_t>(r) * (1u + p.dstGap);
    if (sf < 0 || (static_cast<std::uint64_t>(sf) + 1) * frac > src_size)
      fail("LoadData", "source fractal %lld beyond the source tensor", static_cast<long long>(sf));
    if ((df + 1) * frac > dst.size)
      fail("LoadData", "destination fractal %llu beyond the %u-element tensor",
           static_cast<unsigned long long>(df), dst.size);
    const std::uint8_t* s = s_base + static_cast<std::uint64_t>(sf) * 512;
    if (src_mem == Mem::kGm) check_gm_range(ctx, s, 512, false, "LoadData");
    if (ctx.functional) move_fractal(d_base + df * 512, s, p.ifTranspose);  // else checked only
  }
  emit_load_2d(ctx, dtype, dst, src, src_mem, src_slot, p);
}

bool fixpipe_begin(BlockContext& ctx, DType dst_type, DType src_type, std::uint32_t elem_bytes,
                   const FixpipeDst& dst, const CubeOperand& src,
                   const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout, bool& nd) {
  if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return false;
  if (layout == AscendC::CO2Layout::COLUMN_MAJOR)
    fail("Fixpipe", "CFG_COLUMN_MAJOR is not supported on this architecture");
  nd = layout == AscendC::CO2Layout::ROW_MAJOR;
  if (p.isChannelSplit && (nd || dst_type != DType::kFp32 || src_type != DType::kFp32))
    fail("Fixpipe", "isChannelSplit needs an NZ (CFG_NZ) float output from a float L0C");
  const QuantMode_t q = p.quantPre;
  if (is_vector_quant(q) && dst.vq == nullptr)
    fail("Fixpipe", "quantPre mode %d needs the quantisation tensor", static_cast<int>(q));
  const bool b8 = dst_type == DType::kInt8 || dst_type == DType::kUInt8;
  if ((is_b8_quant(q) && !b8) ||
      ((q == QuantMode_t::DEQF16 || q == QuantMode_t::VDEQF16) && dst_type != DType::kFp16))
    fail("Fixpipe", "quantPre mode %d does not produce this output type", static_cast<int>(q));
  const std::uint64_t span = fixpipe_span(p, nd, 32 / elem_bytes) * elem_bytes;
  if (dst.mem == Mem::kGm) {
    check_gm_range(ctx, dst.data, span, true, "Fixpipe");
  } else if (span > dst.size) {
    fail("Fixpipe", "writes %llu bytes into a %s tensor of %llu bytes",
         static_cast<unsigned long long>(span), mem_name(dst.mem),
         static_cast<unsigned long long>(dst.size));
  }
  if (ctx.functional) return true;
  fixpipe_check(src, p, p.quantPre);  // timing-only: the checks the loops would make
  record_fixpipe(ctx, dst_type, src_type, elem_bytes, src.slot, p, nd, dst);
  return false;
}

void check_mmad_operands(const CubeOperand& c, const CubeOperand& a, const CubeOperand& b,
                         const AscendC::MmadParams& p, std::uint32_t k0) {
  const std::uint32_t m1 = ceil_div(p.m, 16), k1 = ceil_div(p.k, k0), n1 = ceil_div(p.n, 16);
  // float with kDirectionAlign: k aligned to 16 in L0A; GEMV: the k elements of the vector.
  const std::uint32_t a_need = is_gemv(p) ? p.k
                               : p.kDirectionAlign && k0 == 8 ? m1 * ceil_div(p.k, 16) * 2 * 128
                                                              : m1 * k1 * 16 * k0;
  if (a.size < a_need)
    fail("Mmad", "A (L0A) holds %u elements, m=%u k=%u needs %u", a.size, p.m, p.k, a_need);
  if (b.size < k1 * n1 * 16 * k0)
    fail("Mmad", "B (L0B) holds %u elements, k=%u n=%u needs %u", b.size, p.k, p.n,
         k1 * n1 * 16 * k0);
  if (c.size < m1 * n1 * 256)
    fail("Mmad", "C (L0C) holds %u elements, m=%u n=%u needs %u", c.size, p.m, p.n, m1 * n1 * 256);
}

void emit_mmad(BlockContext& ctx, DType c_type, DType a_type, const CubeOperand& c,
               const CubeOperand& a, const CubeOperand& b, const AscendC::MmadParams& p) {
  Instr ins;
  ins.pipe = Pipe::kCube;
  ins.op = Op::kMmad;
  ins.dtype = a_type;
  ins.dtype2 = c_type;
  ins.src = Mem::kL0a;
  ins.dst = Mem::kL0c;
  ins.m = p.m;
  ins.n = p.n;
  ins.k = p.k;
  ctx.emit(ins, {{a.slot, false}, {b.slot, false}, {c.slot, true}});
}

// A in the layout the GEMMs read (zZ with ceil(k / k0) fractal columns) when L0A holds it
// otherwise: float with kDirectionAlign (ceil(k / 16) * 2 fractal columns) or a GEMV vector (row
// 0 of each fractal, the other rows zero); else empty.
std::vector<std::uint8_t> standard_a(const CubeOperand& a, DType a_type,
                                     const AscendC::MmadParams& p) {
  const std::uint32_t k0 = k0_of_type(a_type), frac = 512;  // bytes
  const std::uint32_t k1 = ceil_div(p.k, k0), m1 = ceil_div(p.m, 16);
  const std::uint32_t k1a = ceil_div(p.k, 16) * 2;
  const auto* src = static_cast<const std::uint8_t*>(a.data);
  std::vector<std::uint8_t> zz;
  if (is_gemv(p)) {
    const std::uint32_t elem = 32 / k0;  // bytes
    zz.assign(static_cast<std::size_t>(k1) * frac, 0);
    for (std::uint32_t kf = 0; kf < k1; ++kf)
      std::memcpy(zz.data() + kf * frac, src + kf * 32, std::min(k0, p.k - kf * k0) * elem);
  } else if (p.kDirectionAlign && k0 == 8 && k1a != k1) {
    zz.resize(static_cast<std::size_t>(m1) * k1 * frac);
    for (std::uint32_t mf = 0; mf < m1; ++mf)
      std::memcpy(zz.data() + mf * k1 * frac, src + mf * k1a * frac, k1 * frac);
  }
  return zz;
}

void mmad_body(BlockContext& ctx, DType c_type, DType a_type, DType b_type, const CubeOperand& c,
               const CubeOperand& a_in, const CubeOperand& b, const AscendC::MmadParams& p_in) {
  const AscendC::MmadParams p = c_type == DType::kFp32 ? bias_first<float>(ctx, c, p_in)
                                                       : bias_first<std::int32_t>(ctx, c, p_in);
  check_mmad_operands(c, a_in, b, p, k0_of_type(a_type));
  const bool accumulate = !p.cmatrixInitVal || p.isBias;
  std::vector<std::uint8_t> repacked;
  CubeOperand a = a_in;
  if (ctx.functional) repacked = standard_a(a_in, a_type, p);
  if (!repacked.empty()) a.data = repacked.data();
  if (!ctx.functional) {
    // timing-only: nothing computed
  } else if (c_type == DType::kFp32) {
    const detail::MmadInput in = a_type == DType::kFp16   ? detail::MmadInput::kHalf
                                 : a_type == DType::kBf16 ? detail::MmadInput::kBf16
                                                          : detail::MmadInput::kFloat;
    detail::mmad_f32(in, a.data, b.data, static_cast<float*>(c.data), p.m, p.n, p.k, accumulate);
  } else {
    const auto in = [](DType t) {
      return t == DType::kInt8 ? detail::MmadInput::kInt8 : detail::MmadInput::kUInt8;
    };
    detail::mmad_i32(in(a_type), in(b_type), a.data, b.data, static_cast<std::int32_t*>(c.data),
                     p.m, p.n, p.k, accumulate);
  }
  emit_mmad(ctx, c_type, a_type, c, a_in, b, p);
}

void mmad_int4_body(BlockContext& ctx, const CubeOperand& c, const CubeOperand& a_bytes,
                    const CubeOperand& b_bytes, const AscendC::MmadParams& p_in) {
  constexpr std::uint32_t kK0 = 64;  // nibbles in a 32-byte fractal row
  const AscendC::MmadParams p = bias_first<std::int32_t>(ctx, c, p_in);
  CubeOperand a = a_bytes, b = b_bytes;
  a.size *= 2;  // elements
  b.size *= 2;
  check_mmad_operands(c, a, b, p, kK0);
  const std::uint32_t m1 = ceil_div(p.m, 16), k1 = ceil_div(p.k, kK0), n1 = ceil_div(p.n, 16);
  const bool accumulate = !p.cmatrixInitVal || p.isBias;
  auto* cd = static_cast<std::int32_t*>(c.data);
  for (std::uint32_t mi = 0; ctx.functional && mi < p.m; ++mi) {
    for (std::uint32_t ni = 0; ni < p.n; ++ni) {
      const std::uint32_t ci = ((ni / 16) * m1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16;
      std::uint32_t acc = accumulate ? static_cast<std::uint32_t>(cd[ci]) : 0u;  // wraps
      for (std::uint32_t ki = 0; ki < p.k; ++ki) {
        const std::uint32_t ai = is_gemv(p) ? ki :
            ((mi / 16) * k1 + ki / kK0) * (16 * kK0) + (mi % 16) * kK0 + ki % kK0;
        const std::uint32_t bi =
            ((ki / kK0) * n1 + ni / 16) * (16 * kK0) + (ni % 16) * kK0 + ki % kK0;
        acc += static_cast<std::uint32_t>(load_int4(a.data, ai) * load_int4(b.data, bi));
      }
      cd[ci] = static_cast<std::int32_t>(acc);
    }
  }
  // The cube takes 4-bit k twice as fast as 8-bit: recorded as the int8 Mmad of the same cost.
  AscendC::MmadParams as_int8 = p;
  as_int8.k = static_cast<std::uint16_t>((p.k + 1) / 2);
  emit_mmad(ctx, DType::kInt32, DType::kInt8, c, a, b, as_int8);
}

void fixpipe_body(BlockContext& ctx, DType dst_type, DType src_type, void* dst,
                  const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                  AscendC::CO2Layout layout) {
  fixpipe_body(ctx, dst_type, src_type, FixpipeDst{dst, Mem::kGm, -1, 0}, src, p, layout);
}

void fixpipe_body(BlockContext& ctx, DType dst_type, DType src_type, const FixpipeDst& dst,
                  const CubeOperand& src, const AscendC::FixpipeParamsV220& p,
                  AscendC::CO2Layout layout) {
  if (src_type == DType::kFp32) {
    fixpipe_from<float>(ctx, dst_type, dst, src, p, layout);
  } else {
    fixpipe_from<std::int32_t>(ctx, dst_type, dst, src, p, layout);
  }
}

namespace detail {

void fp16_to_float(const std::uint16_t* src, float* dst, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {  // Fp16Format::to_float on 4 lanes, without branches
    const U4 h = {src[i], src[i + 1], src[i + 2], src[i + 3]};
    const U4 sign = (h & 0x8000u) << 16;
    const U4 em = h & 0x7fffu;  // exponent and fraction
    const U4 exp = em >> 10;
    const U4 normal = (em << 13) + 0x38000000u;   // exponent rebiased by 127 - 15
    const U4 special = (em << 13) | 0x7f800000u;  // inf / NaN, fraction kept
    const F4 sub_value =
        __builtin_convertvector(__builtin_convertvector(em, I4), F4) * 5.9604644775390625e-8f;
    U4 sub;
    std::memcpy(&sub, &sub_value, sizeof sub);  // exponent 0: fraction * 2^-24, exact
    const U4 is_sub = __builtin_convertvector(exp == 0u, U4);
    const U4 is_special = __builtin_convertvector(exp == 0x1fu, U4);
    const U4 bits =
        sign | (sub & is_sub) | (special & is_special) | (normal & ~(is_sub | is_special));
    std::memcpy(dst + i, &bits, sizeof bits);
  }
  for (; i < n; ++i) dst[i] = Fp16Format::to_float(src[i]);
}

}  // namespace detail

}  // namespace npusim::ascendc
