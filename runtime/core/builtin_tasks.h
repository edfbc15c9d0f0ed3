// SPDX-License-Identifier: Apache-2.0
// The functional side of the built-in tasks (plain C++, no runtime state): the element-wise
// reduction the SDMA performs for aclrtReduceAsync, and the random numbers the DSA generates for
// aclrtRandomNumAsync. The API side (validation, tasks) is runtime/acl/acl_builtin.cpp.
//
// Reduction, dst[i] = dst[i] (op) src[i]:
//  - SUM on integers wraps modulo 2^bits (two's complement); on fp32 it is the IEEE sum; on
//    fp16/bf16 the sum is computed in float and rounded to nearest even (that is the correctly
//    rounded result); overflow gives infinity;
//  - MAX/MIN: a NaN in either operand gives a NaN (dst's if dst is one, else src's); otherwise
//    the larger/smaller value, and dst stays when the two compare equal (so +0/-0 keep dst).
//
// Random numbers: Philox4x32-10 (Salmon et al., SC'11; what CANN documents for the DSA), key =
// the 64-bit seed (low word first), counter = the 16 bytes at randomCounterAddr read as one
// little-endian 128-bit number. Block j of a task encrypts counter + j and gives four 32-bit
// words, consumed in order; at the end the counter is advanced by the blocks the task used and
// written back, so the next task with the same seed continues the stream. Values from words:
//  - u = (w >> 8) * 2^-24, uniform on [0, 1) exactly representable in float;
//  - uniform float types: min + u * (max - min) in float, rounded to the type (nearest even),
//    pulled back to the largest value below max if rounding reached it: [min, max); min when
//    !(min < max);
//  - uniform integers: [min, max): min + floor(w * (max - min) / 2^32) (32-bit types, one word)
//    or floor(w64 * (max - min) / 2^64) (64-bit types, two words, low first); min when
//    max <= min;
//  - normal: Box-Muller on two words, u1 = (w0 + 1) / 2^32 in (0, 1], u2 = w1 / 2^32: z0 =
//    sqrt(-2 ln u1) cos(2 pi u2), z1 = ... sin(...), for two consecutive elements (an odd last
//    element drops z1); mean + stddev * z computed in double, rounded to float, then to the type;
//  - truncated normal: the same normal draws, skipping every z with |z| > 2 (values within two
//    standard deviations of the mean, as TensorFlow's and PyTorch's truncated normal);
//  - dropout bitmask: one word per element, bit i (byte i / 8, bit i % 8, least significant
//    first) is 1 (keep) when u >= ratio, so P(keep) = 1 - ratio; ceil(N / 8) bytes are written,
//    the unused high bits of the last byte are 0. The ratio has the task's float type.
// The results are deterministic for a seed and counter; bit-exactness with the hardware's DSA is
// not claimed (its value mapping is not documented).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace npusim::rt::builtin {

enum class ElemType : std::uint8_t {
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kFp16,
  kBf16,
  kFp32
};
std::size_t element_size(ElemType type);
/// "int8", "fp16"... (the names npusim/chip_arch.h lists).
const char* type_name(ElemType type);
bool is_float(ElemType type);

/// kProd is HCCL's (aclrtReduceAsync has no product): integers wrap, fp16/bf16 are multiplied in
/// float and rounded to nearest even, fp32 is IEEE.
enum class ReduceOp : std::uint8_t { kSum, kMax, kMin, kProd };
/// dst[i] = dst[i] (op) src[i] for `count` elements (src may be dst).
void reduce(ReduceOp op, ElemType type, void* dst, const void* src, std::size_t count);

/// One Philox4x32-10 block.
std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> counter,
                                           std::array<std::uint32_t, 2> key);

enum class RandomFunc : std::uint8_t { kDropoutBitmask, kUniform, kNormal, kTruncatedNormal };

struct RandomSpec {
  RandomFunc func = RandomFunc::kUniform;
  ElemType type = ElemType::kFp32;
  std::uint64_t first = 0;   // ratio, min or mean: the type's bits, little-endian
  std::uint64_t second = 0;  // max or stddev
  std::uint64_t seed = 0;
  std::uint64_t count = 0;  // numbers (mask bits for the bitmask)
};

/// Bytes a task writes: count elements, or ceil(count / 8) for the bitmask.
std::uint64_t random_output_bytes(RandomFunc func, ElemType type, std::uint64_t count);
/// Writes random_output_bytes() bytes to `out` and advances the 16-byte `counter` in place.
void generate(const RandomSpec& spec, unsigned char* counter, void* out);

}  // namespace npusim::rt::builtin
