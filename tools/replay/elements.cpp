// SPDX-License-Identifier: Apache-2.0
// Host-side element values (tools/replay/elements.h).
#include "tools/replay/elements.h"

#include <cstring>

#include "acl/acl_base.h"

namespace npusim::replay {
namespace {

std::uint16_t to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t mant = x & 0x7FFFFFu;
  const int exp = static_cast<int>((x >> 23) & 0xFF);
  if (exp == 0xFF) return static_cast<std::uint16_t>(sign | 0x7C00u | (mant ? 0x200u : 0u));
  int e = exp - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return static_cast<std::uint16_t>(sign);
    const std::uint32_t m = mant | 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: right
  return static_cast<std::uint16_t>(sign | h);
}

float from_half(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  int exp = (h >> 10) & 0x1F;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 1;
      while (!(mant & 0x400u)) mant <<= 1, --exp;
      mant &= 0x3FFu;
      bits = sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
    }
  } else {
    bits = sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t to_bf16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

float from_bf16(std::uint16_t h) {
  std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <class X>
void put(char* p, X x) {
  std::memcpy(p, &x, sizeof(x));
}

template <class X>
X get(const char* p) {
  X x;
  std::memcpy(&x, p, sizeof(x));
  return x;
}

}  // namespace

void store_element(int dtype, char* p, double v) {
  switch (dtype) {
    case ACL_FLOAT: return put(p, static_cast<float>(v));
    case ACL_FLOAT16: return put(p, to_half(static_cast<float>(v)));
    case ACL_BF16: return put(p, to_bf16(static_cast<float>(v)));
    case ACL_DOUBLE: return put(p, v);
    case ACL_INT8: return put(p, static_cast<std::int8_t>(v));
    case ACL_UINT8:
    case ACL_BOOL: return put(p, static_cast<std::uint8_t>(v));
    case ACL_INT16: return put(p, static_cast<std::int16_t>(v));
    case ACL_UINT16: return put(p, static_cast<std::uint16_t>(v));
    case ACL_INT32: return put(p, static_cast<std::int32_t>(v));
    case ACL_UINT32: return put(p, static_cast<std::uint32_t>(v));
    case ACL_UINT64: return put(p, static_cast<std::uint64_t>(v));
    default: return put(p, static_cast<std::int64_t>(v));
  }
}

double load_element(int dtype, const char* p) {
  switch (dtype) {
    case ACL_FLOAT: return get<float>(p);
    case ACL_FLOAT16: return from_half(get<std::uint16_t>(p));
    case ACL_BF16: return from_bf16(get<std::uint16_t>(p));
    case ACL_DOUBLE: return get<double>(p);
    case ACL_INT8: return get<std::int8_t>(p);
    case ACL_UINT8:
    case ACL_BOOL: return get<std::uint8_t>(p);
    case ACL_INT16: return get<std::int16_t>(p);
    case ACL_UINT16: return get<std::uint16_t>(p);
    case ACL_INT32: return get<std::int32_t>(p);
    case ACL_UINT32: return get<std::uint32_t>(p);
    case ACL_UINT64: return static_cast<double>(get<std::uint64_t>(p));
    default: return static_cast<double>(get<std::int64_t>(p));
  }
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t name_hash(const std::string& s, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

bool is_integer(int dtype) {
  return dtype != ACL_FLOAT && dtype != ACL_FLOAT16 && dtype != ACL_BF16 && dtype != ACL_DOUBLE;
}

}  // namespace npusim::replay
