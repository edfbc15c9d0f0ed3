// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/builtin_tasks.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

#include "npusim/ascendc/half.h"

namespace npusim::rt::builtin {
namespace {

using ascendc::Bf16Format;
using ascendc::Fp16Format;

__extension__ typedef unsigned __int128 U128;

template <class T>
T load(const void* base, std::size_t i) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(base) + i * sizeof(T), sizeof(T));
  return v;
}

template <class T>
void store(void* base, std::size_t i, T v) {
  std::memcpy(static_cast<unsigned char*>(base) + i * sizeof(T), &v, sizeof(T));
}

template <class T>
T combine_int(ReduceOp op, T d, T s) {
  using U = std::make_unsigned_t<T>;
  // Arithmetic in at least `unsigned`: narrower types would promote to (signed) int and overflow.
  using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  switch (op) {
    case ReduceOp::kSum:
      return static_cast<T>(static_cast<U>(static_cast<U>(d) + static_cast<U>(s)));
    case ReduceOp::kProd:
      return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(d)) *
                                           static_cast<W>(static_cast<U>(s))));
    case ReduceOp::kMax:
      return s > d ? s : d;
    case ReduceOp::kMin:
      return s < d ? s : d;
  }
  return d;
}

// MAX/MIN with NaN propagation; `d`/`s` are the operands as floats, `keep_src` says which to keep.
bool pick_src(ReduceOp op, float d, float s) {
  if (std::isnan(d)) return false;
  if (std::isnan(s)) return true;
  return op == ReduceOp::kMax ? s > d : s < d;
}

template <class T>
void reduce_int(ReduceOp op, void* dst, const void* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    store<T>(dst, i, combine_int<T>(op, load<T>(dst, i), load<T>(src, i)));
  }
}

template <class F>
void reduce_small_float(ReduceOp op, void* dst, const void* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint16_t db = load<std::uint16_t>(dst, i);
    const std::uint16_t sb = load<std::uint16_t>(src, i);
    const float d = F::to_float(db);
    const float s = F::to_float(sb);
    std::uint16_t r;
    if (op == ReduceOp::kSum) {
      r = F::from_float(d + s);
    } else if (op == ReduceOp::kProd) {
      r = F::from_float(d * s);
    } else {
      r = pick_src(op, d, s) ? sb : db;
    }
    store<std::uint16_t>(dst, i, r);
  }
}

void reduce_fp32(ReduceOp op, void* dst, const void* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const float d = load<float>(dst, i);
    const float s = load<float>(src, i);
    float r;
    if (op == ReduceOp::kSum) {
      r = d + s;
    } else if (op == ReduceOp::kProd) {
      r = d * s;
    } else {
      r = pick_src(op, d, s) ? s : d;
    }
    store<float>(dst, i, r);
  }
}

// ---- Random numbers ----

// The task's stream of 32-bit words: Philox blocks of counter, counter + 1, ...
class WordStream {
 public:
  WordStream(const unsigned char* counter, std::uint64_t seed)
      : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)} {
    for (int i = 0; i < 4; ++i) std::memcpy(&counter_[i], counter + 4 * i, 4);
  }

  std::uint32_t next() {
    if (used_ == 4) {
      block_ = philox4x32_10(counter_, key_);
      increment();
      used_ = 0;
    }
    return block_[used_++];
  }

  /// The counter after the blocks this stream used.
  void write_counter(unsigned char* out) const {
    for (int i = 0; i < 4; ++i) std::memcpy(out + 4 * i, &counter_[i], 4);
  }

 private:
  void increment() {
    for (auto& word : counter_) {
      if (++word != 0) break;
    }
  }

  std::array<std::uint32_t, 2> key_;
  std::array<std::uint32_t, 4> counter_{};
  std::array<std::uint32_t, 4> block_{};
  int used_ = 4;
};

float unit_float(std::uint32_t w) { return static_cast<float>(w >> 8) * (1.0f / 16777216.0f); }

// Standard normal draws, two per pair of words.
class NormalStream {
 public:
  explicit NormalStream(WordStream& words) : words_(words) {}
  double next() {
    if (have_second_) {
      have_second_ = false;
      return second_;
    }
    const double u1 = (static_cast<double>(words_.next()) + 1.0) / 4294967296.0;
    const double u2 = static_cast<double>(words_.next()) / 4294967296.0;
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * M_PI * u2;
    second_ = r * std::sin(angle);
    have_second_ = true;
    return r * std::cos(angle);
  }

 private:
  WordStream& words_;
  double second_ = 0;
  bool have_second_ = false;
};

float bits_to_float(ElemType type, std::uint64_t bits) {
  switch (type) {
    case ElemType::kFp16:
      return Fp16Format::to_float(static_cast<std::uint16_t>(bits));
    case ElemType::kBf16:
      return Bf16Format::to_float(static_cast<std::uint16_t>(bits));
    default: {
      float f;
      const auto b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, sizeof f);
      return f;
    }
  }
}

// Stores float `v` as element i of a float-typed output.
void store_float(ElemType type, void* out, std::size_t i, float v) {
  switch (type) {
    case ElemType::kFp16:
      store<std::uint16_t>(out, i, Fp16Format::from_float(v));
      break;
    case ElemType::kBf16:
      store<std::uint16_t>(out, i, Bf16Format::from_float(v));
      break;
    default:
      store<float>(out, i, v);
      break;
  }
}

// The largest value of the 16-bit format below the (finite, non-NaN) value with bits `b`.
std::uint16_t next_down16(std::uint16_t b) {
  if ((b & 0x7FFFu) == 0) return 0x8001u;  // below +-0: the smallest negative subnormal
  return (b & 0x8000u) != 0 ? static_cast<std::uint16_t>(b + 1) : static_cast<std::uint16_t>(b - 1);
}

void uniform_float(const RandomSpec& spec, WordStream& words, void* out) {
  const float lo = bits_to_float(spec.type, spec.first);
  const float hi = bits_to_float(spec.type, spec.second);
  const bool range = lo < hi;
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    const float u = unit_float(words.next());
    if (!range) {
      store_float(spec.type, out, i, lo);
      continue;
    }
    const float v = lo + u * (hi - lo);
    if (spec.type == ElemType::kFp32) {
      store<float>(out, i, v < hi ? v : std::nextafter(hi, lo));
      continue;
    }
    const bool half = spec.type == ElemType::kFp16;
    std::uint16_t b = half ? Fp16Format::from_float(v) : Bf16Format::from_float(v);
    const std::uint16_t hb = half ? Fp16Format::from_float(hi) : Bf16Format::from_float(hi);
    const float back = half ? Fp16Format::to_float(b) : Bf16Format::to_float(b);
    if (!(back < hi)) b = next_down16(hb);
    store<std::uint16_t>(out, i, b);
  }
}

template <class T>
void uniform_int(const RandomSpec& spec, WordStream& words, void* out) {
  using U = std::make_unsigned_t<T>;
  const auto lo = static_cast<T>(static_cast<U>(spec.first));
  const auto hi = static_cast<T>(static_cast<U>(spec.second));
  const U span = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    U offset;
    if constexpr (sizeof(T) == 4) {
      const std::uint32_t w = words.next();
      offset = static_cast<U>((static_cast<std::uint64_t>(w) * span) >> 32);
    } else {
      std::uint64_t w = words.next();
      w |= static_cast<std::uint64_t>(words.next()) << 32;
      offset = static_cast<U>((static_cast<U128>(w) * span) >> 64);
    }
    const T v = hi > lo ? static_cast<T>(static_cast<U>(static_cast<U>(lo) + offset)) : lo;
    store<T>(out, i, v);
  }
}

void normal(const RandomSpec& spec, WordStream& words, void* out, bool truncated) {
  const double mean = bits_to_float(spec.type, spec.first);
  const double stddev = bits_to_float(spec.type, spec.second);
  NormalStream normals(words);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    double z = normals.next();
    while (truncated && std::fabs(z) > 2.0) z = normals.next();
    store_float(spec.type, out, i, static_cast<float>(mean + stddev * z));
  }
}

void dropout(const RandomSpec& spec, WordStream& words, void* out) {
  const float ratio = bits_to_float(spec.type, spec.first);
  auto* bytes = static_cast<unsigned char*>(out);
  std::memset(bytes, 0, random_output_bytes(spec.func, spec.type, spec.count));
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    if (unit_float(words.next()) >= ratio) {
      bytes[i / 8] |= static_cast<unsigned char>(1u << (i % 8));
    }
  }
}

}  // namespace

namespace {

struct ElemInfo {
  std::size_t size;
  const char* name;
};
// Indexed by ElemType (builtin_tasks.h declares them in this order).
constexpr ElemInfo kElems[] = {{1, "int8"},   {2, "int16"},  {4, "int32"}, {8, "int64"},
                               {1, "uint8"},  {2, "uint16"}, {4, "uint32"}, {8, "uint64"},
                               {2, "fp16"},   {2, "bf16"},   {4, "fp32"}};

const ElemInfo* elem_info(ElemType type) {
  const auto i = static_cast<std::size_t>(type);
  return i < std::size(kElems) ? &kElems[i] : nullptr;
}

}  // namespace

std::size_t element_size(ElemType type) {
  const ElemInfo* e = elem_info(type);
  return e != nullptr ? e->size : 1;
}

const char* type_name(ElemType type) {
  const ElemInfo* e = elem_info(type);
  return e != nullptr ? e->name : "?";
}

bool is_float(ElemType type) {
  return type == ElemType::kFp16 || type == ElemType::kBf16 || type == ElemType::kFp32;
}

void reduce(ReduceOp op, ElemType type, void* dst, const void* src, std::size_t count) {
  switch (type) {
    case ElemType::kInt8:
      return reduce_int<std::int8_t>(op, dst, src, count);
    case ElemType::kInt16:
      return reduce_int<std::int16_t>(op, dst, src, count);
    case ElemType::kInt32:
      return reduce_int<std::int32_t>(op, dst, src, count);
    case ElemType::kInt64:
      return reduce_int<std::int64_t>(op, dst, src, count);
    case ElemType::kUint8:
      return reduce_int<std::uint8_t>(op, dst, src, count);
    case ElemType::kUint16:
      return reduce_int<std::uint16_t>(op, dst, src, count);
    case ElemType::kUint32:
      return reduce_int<std::uint32_t>(op, dst, src, count);
    case ElemType::kUint64:
      return reduce_int<std::uint64_t>(op, dst, src, count);
    case ElemType::kFp16:
      return reduce_small_float<Fp16Format>(op, dst, src, count);
    case ElemType::kBf16:
      return reduce_small_float<Bf16Format>(op, dst, src, count);
    case ElemType::kFp32:
      return reduce_fp32(op, dst, src, count);
  }
}

std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> c,
                                           std::array<std::uint32_t, 2> k) {
  constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] += kW0;
      k[1] += kW1;
    }
    const std::uint64_t p0 = static_cast<std::uint64_t>(kM0) * c[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kM1) * c[2];
    c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
  }
  return c;
}

std::uint64_t random_output_bytes(RandomFunc func, ElemType type, std::uint64_t count) {
  if (func == RandomFunc::kDropoutBitmask) return count / 8 + (count % 8 != 0 ? 1 : 0);
  return count * element_size(type);
}

void generate(const RandomSpec& spec, unsigned char* counter, void* out) {
  WordStream words(counter, spec.seed);
  switch (spec.func) {
    case RandomFunc::kDropoutBitmask:
      dropout(spec, words, out);
      break;
    case RandomFunc::kUniform:
      switch (spec.type) {
        case ElemType::kInt32:
          uniform_int<std::int32_t>(spec, words, out);
          break;
        case ElemType::kUint32:
          uniform_int<std::uint32_t>(spec, words, out);
          break;
        case ElemType::kInt64:
          uniform_int<std::int64_t>(spec, words, out);
          break;
        case ElemType::kUint64:
          uniform_int<std::uint64_t>(spec, words, out);
          break;
        default:
          uniform_float(spec, words, out);
          break;
      }
      break;
    case RandomFunc::kNormal:
      normal(spec, words, out, false);
      break;
    case RandomFunc::kTruncatedNormal:
      normal(spec, words, out, true);
      break;
  }
  words.write_counter(counter);
}

}  // namespace npusim::rt::builtin
