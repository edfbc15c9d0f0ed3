// SPDX-License-Identifier: Apache-2.0
// Out-of-line bodies of the cube ops (cube_ops.h): LoadData, Mmad and Fixpipe for the types the
// cube takes. They live in libacl_rt.so, built once, optimised and without
// -fsanitize-coverage, so a kernel's matmul costs no basic-block callback per element (inline in
// the kernel's translation unit, the element loops and half.h's conversions were instrumented
// and took most of a matmul's wall time).
//
// Results are bit-identical to the generic bodies of cube_ops.h:
//  - Mmad: every C element is still init (0 or the old C), then + D(a) * D(b) for k in order,
//    each product and sum rounded to D. The operands are converted to D once, into row-major
//    A and 16-column panels of B, and 2 x 16 C elements are carried side by side in 4-lane
//    vectors (the operations on each element and their order are unchanged, so are its
//    roundings). This file is built with -ffp-contract=off: a product is rounded before it is
//    added, as in the generic body, even where the compiler could fuse them.
//  - Fixpipe: where the L0C -> output conversion has a bit-trick equal to cast_value's IEEE
//    rounding for every input (float -> half / bf16 / float, NaNs included; exhaustively
//    checked when written), that is used; everything else goes through fixpipe_convert.
#include "npusim/kernel/cube_ops.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace npusim::kernel {
namespace {

constexpr std::uint32_t kLanes = 16;  // C elements computed side by side (one fractal row)

using F4 = float __attribute__((vector_size(16)));  // 4 lanes, each rounded as a float
using U4 = std::uint32_t __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));

F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store4(float* p, F4 v) { std::memcpy(p, &v, sizeof v); }

// The operands of an Mmad in float, as the generic body's static_cast<float> gives them.
std::vector<float> to_float_vector(const Half* p, std::size_t n) {
  std::vector<float> v(n);
  detail::fp16_to_float(reinterpret_cast<const std::uint16_t*>(p), v.data(), n);
  return v;
}

std::vector<float> to_float_vector(const BFloat16* p, std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = Bf16Format::to_float(p[i].bits());
  return v;
}

std::vector<float> to_float_vector(const float* p, std::size_t n) { return {p, p + n}; }

// Two rows of 16 C elements: out_r[j] = init_r[j], then out_r[j] + a_r[ki] * panel[ki][j] for ki
// in order (product rounded to float, then the sum): what the generic body does per element.
void mmad_two_rows(const float* a0, const float* a1, const float* panel, std::uint32_t k,
                   const float* init0, const float* init1, float* out0, float* out1) {
  F4 c00 = load4(init0), c01 = load4(init0 + 4), c02 = load4(init0 + 8), c03 = load4(init0 + 12);
  F4 c10 = load4(init1), c11 = load4(init1 + 4), c12 = load4(init1 + 8), c13 = load4(init1 + 12);
  for (std::uint32_t ki = 0; ki < k; ++ki) {
    const float* y = panel + ki * kLanes;
    const F4 b0 = load4(y), b1 = load4(y + 4), b2 = load4(y + 8), b3 = load4(y + 12);
    const F4 x0 = {a0[ki], a0[ki], a0[ki], a0[ki]};
    const F4 x1 = {a1[ki], a1[ki], a1[ki], a1[ki]};
    c00 = c00 + x0 * b0;
    c01 = c01 + x0 * b1;
    c02 = c02 + x0 * b2;
    c03 = c03 + x0 * b3;
    c10 = c10 + x1 * b0;
    c11 = c11 + x1 * b1;
    c12 = c12 + x1 * b2;
    c13 = c13 + x1 * b3;
  }
  store4(out0, c00);
  store4(out0 + 4, c01);
  store4(out0 + 8, c02);
  store4(out0 + 12, c03);
  store4(out1, c10);
  store4(out1 + 4, c11);
  store4(out1 + 8, c12);
  store4(out1 + 12, c13);
}

// C (m x n in zN fractals, float) (+)= A (zZ) * B (nZ) for half, bfloat16_t or float inputs.
template <class In>
void mmad_float(const In* ad, const In* bd, float* cd, std::uint32_t m, std::uint32_t n,
                std::uint32_t k, bool accumulate) {
  constexpr std::uint32_t kK0 = k0_of<In>();
  const std::uint32_t m1 = ceil_div(m, 16), k1 = ceil_div(k, kK0), n1 = ceil_div(n, 16);
  // The operands converted to float once (in their fractal layouts), then A as float rows
  // (ar[mi * k + ki]) and B as panels of 16 columns (bp[(nf * k + ki) * 16 + j] =
  // B[ki][nf * 16 + j], 0 past n).
  const std::vector<float> af = to_float_vector(ad, static_cast<std::size_t>(m1) * k1 * 16 * kK0);
  const std::vector<float> bf = to_float_vector(bd, static_cast<std::size_t>(k1) * n1 * 16 * kK0);
  std::vector<float> ar(static_cast<std::size_t>(m) * k);
  for (std::uint32_t mi = 0; mi < m; ++mi) {
    const float* frac_row = af.data() + (mi / 16) * k1 * (16 * kK0) + (mi % 16) * kK0;
    float* row = ar.data() + static_cast<std::size_t>(mi) * k;
    for (std::uint32_t kb = 0; kb * kK0 < k; ++kb) {
      const std::uint32_t len = k - kb * kK0 < kK0 ? k - kb * kK0 : kK0;
      std::memcpy(row + kb * kK0, frac_row + kb * (16 * kK0), len * sizeof(float));
    }
  }
  std::vector<float> bp(static_cast<std::size_t>(n1) * k * kLanes, 0.0f);
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    float* panel = bp.data() + static_cast<std::size_t>(nf) * k * kLanes;
    for (std::uint32_t ki = 0; ki < k; ++ki) {
      const float* col = bf.data() + ((ki / kK0) * n1 + nf) * (16 * kK0) + ki % kK0;
      for (std::uint32_t j = 0; j < width; ++j) panel[ki * kLanes + j] = col[j * kK0];
    }
  }
  const float zeros[kLanes] = {};
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    const float* panel = bp.data() + static_cast<std::size_t>(nf) * k * kLanes;
    for (std::uint32_t mi = 0; mi < m; mi += 2) {
      const std::uint32_t rows = m - mi < 2 ? 1 : 2;  // a lone last row is computed twice
      float* c0 = cd + (nf * m1 + mi / 16) * 256 + (mi % 16) * 16;
      float* c1 = rows == 2 ? cd + (nf * m1 + (mi + 1) / 16) * 256 + ((mi + 1) % 16) * 16 : c0;
      const float* a0 = ar.data() + static_cast<std::size_t>(mi) * k;
      const float* a1 = rows == 2 ? a0 + k : a0;
      float out[2][kLanes];
      mmad_two_rows(a0, a1, panel, k, accumulate ? c0 : zeros, accumulate ? c1 : zeros, out[0],
                    out[1]);
      std::memcpy(c0, out[0], width * sizeof(float));
      if (rows == 2) std::memcpy(c1, out[1], width * sizeof(float));
    }
  }
}

// C (int32) (+)= A * B for int8 / uint8 inputs: exact products, sums wrapping modulo 2^32 (what
// the generic body's int32 arithmetic does on the host).
template <class A, class B>
void mmad_int(const A* ad, const B* bd, std::int32_t* cd, std::uint32_t m, std::uint32_t n,
              std::uint32_t k, bool accumulate) {
  constexpr std::uint32_t kK0 = 32;
  const std::uint32_t m1 = ceil_div(m, 16), k1 = ceil_div(k, kK0), n1 = ceil_div(n, 16);
  std::vector<std::int32_t> ar(static_cast<std::size_t>(m) * k);
  for (std::uint32_t mi = 0; mi < m; ++mi) {
    const A* frac_row = ad + (mi / 16) * k1 * (16 * kK0) + (mi % 16) * kK0;
    for (std::uint32_t ki = 0; ki < k; ++ki)
      ar[static_cast<std::size_t>(mi) * k + ki] = frac_row[(ki / kK0) * (16 * kK0) + ki % kK0];
  }
  std::vector<std::int32_t> bp(static_cast<std::size_t>(n1) * k * kLanes, 0);
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    std::int32_t* panel = bp.data() + static_cast<std::size_t>(nf) * k * kLanes;
    for (std::uint32_t ki = 0; ki < k; ++ki) {
      const B* col = bd + ((ki / kK0) * n1 + nf) * (16 * kK0) + ki % kK0;
      for (std::uint32_t j = 0; j < width; ++j) panel[ki * kLanes + j] = col[j * kK0];
    }
  }
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    const std::int32_t* panel = bp.data() + static_cast<std::size_t>(nf) * k * kLanes;
    for (std::uint32_t mi = 0; mi < m; ++mi) {
      std::int32_t* c = cd + (nf * m1 + mi / 16) * 256 + (mi % 16) * 16;
      std::uint32_t acc[kLanes];
      for (std::uint32_t j = 0; j < kLanes; ++j)
        acc[j] = accumulate ? static_cast<std::uint32_t>(c[j]) : 0u;
      const std::int32_t* row = ar.data() + static_cast<std::size_t>(mi) * k;
      for (std::uint32_t ki = 0; ki < k; ++ki) {
        const std::int32_t x = row[ki];
        const std::int32_t* y = panel + ki * kLanes;
        for (std::uint32_t j = 0; j < kLanes; ++j)
          acc[j] += static_cast<std::uint32_t>(x * y[j]);  // |x * y| <= 2^16
      }
      for (std::uint32_t j = 0; j < width; ++j) c[j] = static_cast<std::int32_t>(acc[j]);
    }
  }
}

template <class A>
void mmad_int_of(DType b_type, const void* ad, const void* bd, std::int32_t* cd,
                 const AscendC::MmadParams& p, bool accumulate) {
  if (b_type == DType::kInt8) {
    mmad_int(static_cast<const A*>(ad), static_cast<const std::int8_t*>(bd), cd, p.m, p.n, p.k,
             accumulate);
  } else {
    mmad_int(static_cast<const A*>(ad), static_cast<const std::uint8_t*>(bd), cd, p.m, p.n, p.k,
             accumulate);
  }
}

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

// L0C element -> output element, equal to fixpipe_convert<T>(v, p) for every v.
template <class T, class U>
struct GenericConvert {
  const AscendC::FixpipeParamsV220* p;
  T operator()(U v) const { return fixpipe_convert<T>(v, *p); }
};

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

// int32 -> half with DEQF16: float(v) * scale, rounded to half.
struct DequantToHalf {
  bool relu;
  float scale;
  Half operator()(std::int32_t v) const {
    if (relu && v < 0) v = 0;
    return Half::from_bits(Fp16Format::from_float(static_cast<float>(v) * scale));
  }
};

// The generic body's loops, 16 consecutive elements (one fractal row) at a time: same elements,
// same order, the same error at the same element.
template <class T, class U, class Convert>
void fixpipe_loop(T* dst, const CubeOperand& src, const AscendC::FixpipeParamsV220& p, bool nd,
                  Convert convert) {
  const std::uint64_t c0 = 32 / sizeof(T);
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
        T* d = dst + (nd ? drow + nf * 16ull : drow + nf * p.dstStride * c0);
        const U* s = sd + si;
        for (std::uint32_t j = 0; j < valid; ++j) d[j] = convert(s[j]);
        if (valid < width) {
          fail("Fixpipe", "source element %llu beyond the L0C tensor (%u elements)",
               static_cast<unsigned long long>(si + valid), src.size);
        }
      }
    }
  }
}

template <class T, class U>
void fixpipe_typed(BlockContext& ctx, void* dst_ptr, const CubeOperand& src,
                   const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
  if (layout == AscendC::CO2Layout::COLUMN_MAJOR)
    fail("Fixpipe", "CFG_COLUMN_MAJOR is not supported on this architecture");
  const bool nd = layout == AscendC::CO2Layout::ROW_MAJOR;
  T* dst = static_cast<T*>(dst_ptr);
  check_gm_range(ctx, dst, fixpipe_span(p, nd, 32 / sizeof(T)) * sizeof(T), true, "Fixpipe");
  using QM = QuantMode_t;
  const QM q = p.quantPre;
  const bool relu = p.reluEn;
  const float deq = detail::bit_cast<float>(static_cast<std::uint32_t>(p.deqScalar));
  bool done = false;
  if constexpr (std::is_same_v<U, float>) {
    const bool plain = q == QM::NoQuant || q == QM::F322F16 || q == QM::F322BF16;
    if constexpr (std::is_same_v<T, Half>) {
      if (plain || q == QM::DEQF16) {
        fixpipe_loop<T, U>(dst, src, p, nd, FloatToHalf{relu, q == QM::DEQF16, deq});
        done = true;
      }
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      if (plain) {
        fixpipe_loop<T, U>(dst, src, p, nd, FloatToBf16{relu});
        done = true;
      }
    } else if constexpr (std::is_same_v<T, float>) {
      if (plain) {
        fixpipe_loop<T, U>(dst, src, p, nd, FloatToFloat{relu});
        done = true;
      }
    }
  } else if constexpr (std::is_same_v<U, std::int32_t>) {
    if constexpr (std::is_same_v<T, std::int32_t>) {
      if (q == QM::NoQuant) {
        fixpipe_loop<T, U>(dst, src, p, nd, IntToInt{relu});
        done = true;
      }
    } else if constexpr (std::is_same_v<T, Half>) {
      if (q == QM::DEQF16) {
        fixpipe_loop<T, U>(dst, src, p, nd, DequantToHalf{relu, deq});
        done = true;
      }
    }
  }
  if (!done) {  // fails at the first element if quantPre is not supported
    fixpipe_loop<T, U>(dst, src, p, nd, GenericConvert<T, U>{&p});
  }
  record_fixpipe(ctx, dtype_of<T>(), dtype_of<U>(), sizeof(T), src.slot, p, nd);
}

template <class U>
void fixpipe_from(BlockContext& ctx, DType dst_type, void* dst, const CubeOperand& src,
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

void load_2d_body(BlockContext& ctx, DType dtype, std::uint32_t elem_bytes, const CubeOperand& dst,
                  const void* src, std::uint64_t src_size, Mem src_mem, std::int32_t src_slot,
                  const AscendC::LoadData2DParams& p) {
  if (dst.mem != Mem::kL0a && dst.mem != Mem::kL0b)
    fail("LoadData", "destination must be A2 or B2, got %s", mem_name(dst.mem));
  if (p.ifTranspose && elem_bytes != 2) fail("LoadData", "ifTranspose needs a 16-bit type");
  const std::uint32_t frac = 512 / elem_bytes;  // elements per fractal
  auto* d_base = static_cast<std::uint8_t*>(dst.data);
  const auto* s_base = static_cast<const std::uint8_t*>(src);
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    const std::int64_t sf = p.addrMode == 0
                                ? p.startIndex + static_cast<std::int64_t>(r) * p.srcStride
                                : p.startIndex - static_cast<std::int64_t>(r) * p.srcStride;
    const std::uint64_t df = static_cast<std::uint64_t>(r) * (1u + p.dstGap);
    if (sf < 0 || (static_cast<std::uint64_t>(sf) + 1) * frac > src_size)
      fail("LoadData", "source fractal %lld beyond the source tensor", static_cast<long long>(sf));
    if ((df + 1) * frac > dst.size)
      fail("LoadData", "destination fractal %llu beyond the %u-element tensor",
           static_cast<unsigned long long>(df), dst.size);
    const std::uint8_t* s = s_base + static_cast<std::uint64_t>(sf) * 512;
    std::uint8_t* d = d_base + df * 512;
    if (src_mem == Mem::kGm) check_gm_range(ctx, s, 512, false, "LoadData");
    if (!p.ifTranspose) {
      std::memcpy(d, s, 512);
      continue;
    }
    std::uint16_t in[256], out[256];
    std::memcpy(in, s, 512);
    for (std::uint32_t i = 0; i < 16; ++i) {
      for (std::uint32_t j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
    }
    std::memcpy(d, out, 512);
  }
  Instr ins;
  ins.pipe = src_mem == Mem::kGm ? Pipe::kMte2 : Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = dtype;
  ins.src = src_mem;
  ins.dst = dst.mem;
  ins.count = p.repeatTimes;
  ins.bytes = 512ull * p.repeatTimes;
  ctx.emit(ins, {{src_slot, false}, {dst.slot, true}});
}

void mmad_body(BlockContext& ctx, DType c_type, DType a_type, DType b_type, const CubeOperand& c,
               const CubeOperand& a, const CubeOperand& b, const AscendC::MmadParams& p) {
  const std::uint32_t k0 = k0_of_type(a_type);
  const std::uint32_t m1 = ceil_div(p.m, 16), k1 = ceil_div(p.k, k0), n1 = ceil_div(p.n, 16);
  if (a.size < m1 * k1 * 16 * k0)
    fail("Mmad", "A (L0A) holds %u elements, m=%u k=%u needs %u", a.size, p.m, p.k,
         m1 * k1 * 16 * k0);
  if (b.size < k1 * n1 * 16 * k0)
    fail("Mmad", "B (L0B) holds %u elements, k=%u n=%u needs %u", b.size, p.k, p.n,
         k1 * n1 * 16 * k0);
  if (c.size < m1 * n1 * 256)
    fail("Mmad", "C (L0C) holds %u elements, m=%u n=%u needs %u", c.size, p.m, p.n, m1 * n1 * 256);
  const bool accumulate = !p.cmatrixInitVal || p.isBias;
  if (c_type == DType::kFp32) {
    auto* cd = static_cast<float*>(c.data);
    switch (a_type) {
      case DType::kFp16:
        mmad_float(static_cast<const Half*>(a.data), static_cast<const Half*>(b.data), cd, p.m, p.n,
                   p.k, accumulate);
        break;
      case DType::kBf16:
        mmad_float(static_cast<const BFloat16*>(a.data), static_cast<const BFloat16*>(b.data), cd,
                   p.m, p.n, p.k, accumulate);
        break;
      default:
        mmad_float(static_cast<const float*>(a.data), static_cast<const float*>(b.data), cd, p.m,
                   p.n, p.k, accumulate);
        break;
    }
  } else {
    auto* cd = static_cast<std::int32_t*>(c.data);
    if (a_type == DType::kInt8) {
      mmad_int_of<std::int8_t>(b_type, a.data, b.data, cd, p, accumulate);
    } else {
      mmad_int_of<std::uint8_t>(b_type, a.data, b.data, cd, p, accumulate);
    }
  }
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

void fixpipe_body(BlockContext& ctx, DType dst_type, DType src_type, void* dst,
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

}  // namespace npusim::kernel
