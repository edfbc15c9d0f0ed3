// SPDX-License-Identifier: Apache-2.0
// Sorting ops (V pipe) of the Ascend C twin: Sort32 and MrgSort (half / float scores).
//
// Both work on sorted "queues" of 8-byte structures: the score (a T at byte 0; for half bytes
// 2..3 are zero) and a uint32_t index at byte 4.
//   Sort32(dst, scores, indices, repeatTime)  each repeat sorts 32 (score, index) pairs in
//        descending score order (equal scores keep their input order) into 32 structures;
//   MrgSort(dst, MrgSortSrcList{src1..src4}, MrgSort4Info)  merges the queues validBit selects
//        (bit i: src(i+1), elementLengths[i] structures) into one descending queue at dst (equal
//        scores: the lower-numbered queue first). With repeatTimes n, repeat r merges the queues
//        r x (sum of the lengths) structures further on and writes as far on in dst.
//        ifExhaustedSuspension (stop when the first queue runs out) is not supported (KernelError).
// Each call records one V instruction: count = structures written, bytes = count x 8.
#pragma once

#include <cstdint>

#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const std::uint16_t lengths[4], bool suspend, std::uint16_t valid,
               std::uint16_t repeats)
      : ifExhaustedSuspension(suspend), validBit(valid), repeatTimes(repeats) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = lengths[i];
  }
  std::uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  std::uint16_t validBit = 0;
  std::uint16_t repeatTimes = 1;
};

template <class T>
struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c,
                 const LocalTensor<T>& d)
      : src1(a), src2(b), src3(c), src4(d) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

}  // namespace AscendC

namespace npusim::ascendc {

constexpr std::uint32_t kSortStruct = 8;  // bytes per (score, index) structure

/// The score of structure i of a queue at p.
template <class T>
NPUSIM_TWIN_FN T sort_score(const std::uint8_t* p, std::uint64_t i) {
  T v;
  __builtin_memcpy(static_cast<void*>(&v), p + i * kSortStruct, sizeof(T));
  return v;
}

template <class T>
NPUSIM_TWIN_FN void sort32_body(BlockContext& ctx, Operand<T> dst, Operand<T> scores,
                                Operand<std::uint32_t> index, std::uint32_t repeats) {
  const auto n = static_cast<std::int32_t>(repeats * 32);
  check_operand(scores, n, "Sort32", "src0");
  check_operand(index, n, "Sort32", "src1");
  check_operand(dst, static_cast<std::int32_t>(repeats * 32 * kSortStruct / sizeof(T)), "Sort32",
                "dst");
  for (std::uint32_t r = 0; ctx.functional && r < repeats; ++r) {
    std::uint32_t order[32];
    for (std::uint32_t i = 0; i < 32; ++i) {  // insertion sort: stable, descending
      std::uint32_t j = i;
      const T s = scores.data[r * 32 + i];
      for (; j > 0 && scores.data[r * 32 + order[j - 1]] < s; --j) order[j] = order[j - 1];
      order[j] = i;
    }
    auto* out = reinterpret_cast<std::uint8_t*>(dst.data) + r * 32ull * kSortStruct;
    for (std::uint32_t i = 0; i < 32; ++i) {
      std::uint8_t rec[kSortStruct] = {};
      __builtin_memcpy(rec, &scores.data[r * 32 + order[i]], sizeof(T));
      __builtin_memcpy(rec + 4, &index.data[r * 32 + order[i]], 4);
      __builtin_memcpy(out + i * kSortStruct, rec, kSortStruct);
    }
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), DType::kUInt32, n, kSortStruct,
                {{dst.slot, true}, {scores.slot, false}, {index.slot, false}});
}

/// One merge of up to four queues q[i] (len[i] structures) into out.
template <class T>
NPUSIM_TWIN_FN void merge_queues(std::uint8_t* out, const std::uint8_t* const (&q)[4],
                                 const std::uint32_t (&len)[4]) {
  std::uint32_t at[4] = {0, 0, 0, 0};
  std::uint64_t total = 0, k = 0;
  for (int i = 0; i < 4; ++i) total += len[i];
  constexpr std::uint64_t kMax = 4096;  // structures one merge may write (4 x 1024)
  std::uint8_t staged[kMax * kSortStruct];  // staged, so out may overlap a source
  if (total > kMax) fail("MrgSort", "%llu structures exceed the simulator's merge buffer",
                         static_cast<unsigned long long>(total));
  for (; k < total; ++k) {
    int best = -1;
    for (int i = 0; i < 4; ++i) {
      if (at[i] < len[i] && (best < 0 || sort_score<T>(q[best], at[best]) <
                                             sort_score<T>(q[i], at[i])))
        best = i;
    }
    __builtin_memcpy(staged + k * kSortStruct, q[best] + at[best]++ * kSortStruct, kSortStruct);
  }
  __builtin_memcpy(out, staged, total * kSortStruct);
}

template <class T>
NPUSIM_TWIN_FN void mrgsort_body(BlockContext& ctx, Operand<T> dst, const Operand<T> (&src)[4],
                                 const AscendC::MrgSort4Info& p) {
  if (p.ifExhaustedSuspension)
    fail("MrgSort", "ifExhaustedSuspension is not supported by the simulator");
  std::uint32_t len[4];
  std::uint64_t total = 0;
  for (int i = 0; i < 4; ++i) {
    len[i] = ((p.validBit >> i) & 1u) != 0 ? p.elementLengths[i] : 0;
    total += len[i];
  }
  const std::uint64_t stride = total * kSortStruct;  // bytes one repeat advances
  for (int i = 0; i < 4; ++i) {
    if (len[i] == 0) continue;
    const std::uint64_t need = (p.repeatTimes - 1ull) * stride + len[i] * kSortStruct;
    if (src[i].data == nullptr || need > static_cast<std::uint64_t>(src[i].size) * sizeof(T))
      fail("MrgSort", "queue %d: %llu bytes beyond its tensor", i + 1,
           static_cast<unsigned long long>(need));
  }
  if (dst.data == nullptr || p.repeatTimes * stride > std::uint64_t{dst.size} * sizeof(T))
    fail("MrgSort", "dst cannot hold %u repeats of %llu structures", p.repeatTimes,
         static_cast<unsigned long long>(total));
  for (std::uint32_t r = 0; ctx.functional && r < p.repeatTimes; ++r) {
    const std::uint8_t* const q[4] = {
        reinterpret_cast<const std::uint8_t*>(src[0].data) + r * stride,
        reinterpret_cast<const std::uint8_t*>(src[1].data) + r * stride,
        reinterpret_cast<const std::uint8_t*>(src[2].data) + r * stride,
        reinterpret_cast<const std::uint8_t*>(src[3].data) + r * stride};
    merge_queues<T>(reinterpret_cast<std::uint8_t*>(dst.data) + r * stride, q, len);
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), DType::kUInt32,
                static_cast<std::int32_t>(p.repeatTimes * total), kSortStruct,
                {{dst.slot, true}, {src[0].slot, false}, {src[1].slot, false},
                 {src[2].slot, false}, {src[3].slot, false}});
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T, bool kIsFullSort = false>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                   const LocalTensor<std::uint32_t>& src1, const std::int32_t repeatTime) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (repeatTime < 0) fail("Sort32", "negative repeatTime");
  sort32_body(ctx, operand(dst), operand(src0), operand(src1),
              static_cast<std::uint32_t>(repeatTime));
}

template <class T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src,
                    const MrgSort4Info& params) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Operand<T> q[4] = {operand(src.src1), operand(src.src2), operand(src.src3),
                           operand(src.src4)};
  mrgsort_body(ctx, operand(dst), q, params);
}

}  // namespace AscendC
