// SPDX-License-Identifier: Apache-2.0
#include "runtime/hccl/tasks.h"

#include <cmath>
#include <cstring>
#include <string>

#include "acl/acl_base.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"
#include "sim/log.h"

namespace npusim::rt::hccl {
namespace {

void combine_fp64(int op, void* dst, const void* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    double d, s;
    std::memcpy(&d, static_cast<unsigned char*>(dst) + 8 * i, 8);
    std::memcpy(&s, static_cast<const unsigned char*>(src) + 8 * i, 8);
    double r = d;
    if (op == 0) {
      r = d + s;
    } else if (op == 1) {
      r = d * s;
    } else if (!std::isnan(d) && (std::isnan(s) || (op == 2 ? s > d : s < d))) {
      r = s;  // MAX/MIN: a NaN propagates; equal values keep dst (as the SDMA's reduce)
    }
    std::memcpy(static_cast<unsigned char*>(dst) + 8 * i, &r, 8);
  }
}

// Whether every rank that published collective `op` called it alike (Signature); the first
// disagreement of the collective is logged once.
bool ranks_agree(Domain::Op& op) {
  const RankArgs* first = nullptr;
  for (const RankArgs& a : op.args) {
    if (a.sig.kind == Signature::kNone) continue;  // not published (yet)
    if (first == nullptr) first = &a;
    if (a.sig == first->sig) continue;
    if (!op.mismatch_logged) {
      op.mismatch_logged = true;
      sim::log_error("HCCL: the ranks called one collective with different arguments: rank " +
                     std::to_string(first - op.args.data()) + " " + first->sig.text() +
                     ", rank " + std::to_string(&a - op.args.data()) + " " + a.sig.text() +
                     "; its copies fail and nothing is written");
    }
    return false;
  }
  return true;
}

}  // namespace

namespace {

// The HcclDataType values 0..12, in order.
const TypeInfo kTypeInfos[] = {
    {1, true, ElemType::kInt8, "int8"},
    {2, true, ElemType::kInt16, "int16"},
    {4, true, ElemType::kInt32, "int32"},
    {2, true, ElemType::kFp16, "fp16"},
    {4, true, ElemType::kFp32, "fp32"},
    {8, true, ElemType::kInt64, "int64"},
    {8, true, ElemType::kUint64, "uint64"},
    {1, true, ElemType::kUint8, "uint8"},
    {2, true, ElemType::kUint16, "uint16"},
    {4, true, ElemType::kUint32, "uint32"},
    {8, true, ElemType::kFp32, "fp64"},  // reduced here, not by builtin
    {2, true, ElemType::kBf16, "bfp16"},
    {16, false, ElemType::kFp32, "int128"},
};

}  // namespace

TypeInfo type_info(int type) {
  constexpr int kCount = static_cast<int>(sizeof kTypeInfos / sizeof *kTypeInfos);
  if (type < 0 || type >= kCount) {
    fail(kPara, "dataType " + std::to_string(type) + " is not an HcclDataType");
  }
  return kTypeInfos[type];
}

// The HcclReduceOp `op` (0 SUM, 1 PROD, 2 MAX, 3 MIN) validated for type `t`.
int reduce_op(Call& c, int op, const TypeInfo& t, const char* api) {
  require(op >= 0 && op <= 3, kPara, "op " + std::to_string(op) + " is not an HcclReduceOp");
  if (!t.reducible) {
    c.runtime().report_unsupported((std::string(api) + " on " + t.name).c_str());
    fail(kNotSupport, std::string("reductions of ") + t.name + " are not supported");
  }
  return op;
}

// dst[i] = dst[i] (op) src[i]: the SDMA's reduce (runtime/core/builtin_tasks.h, with HCCL's PROD:
// integers wrap, fp16/bf16 multiplied in float and rounded to nearest even, fp32 IEEE), fp64 here.
void combine(int op, int type, void* dst, const void* src, std::size_t count) {
  if (type == 10) return combine_fp64(op, dst, src, count);
  constexpr ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMax, ReduceOp::kMin};
  builtin::reduce(kOps[op], type_info(type).elem, dst, src, count);
}

std::uint64_t checked_bytes(std::uint64_t count, std::size_t width) {
  require(count <= (std::uint64_t{1} << 40), kPara,
          "count " + std::to_string(count) + " is larger than npusim's HCCL takes (2^40)");
  return count * width;
}

// A device buffer of `device` holding [p, p + bytes).
Buffer device_buffer(Call& c, const void* p, std::uint64_t bytes, std::uint32_t device,
                     const char* what) {
  if (p == nullptr) fail(kPtr, std::string(what) + " is NULL");
  const Allocation* a = c.runtime().memory().find(p);
  require(a != nullptr && (a->kind == MemKind::kDevice || a->kind == MemKind::kManaged), kPara,
          std::string(what) + " is not device memory (aclrtMalloc)");
  require(a->device == device, kPara,
          std::string(what) + " is memory of device " + std::to_string(a->device) +
              ", the communicator's rank runs on device " + std::to_string(device));
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), bytes), kPara,
          std::string(what) + " holds fewer than the " + std::to_string(bytes) +
              " bytes the call reads or writes");
  return {static_cast<unsigned char*>(const_cast<void*>(p)), a->serial};
}

Locate locate(const std::shared_ptr<Domain>& d, const MemoryRegistry* memory, std::uint64_t seq,
              const Ref& ref) {
  return [d, memory, seq, ref]() -> unsigned char* {
    auto it = d->ops.find(seq);
    if (it == d->ops.end() || ref.rank >= it->second.args.size()) return nullptr;
    if (!ranks_agree(it->second)) return nullptr;
    const RankArgs& a = it->second.args[ref.rank];
    const Buffer& b = ref.which == Ref::kSend   ? a.send
                      : ref.which == Ref::kRecv ? a.recv
                                                : a.scratch;
    if (b.ptr == nullptr || (!b.remote && !memory->alive(b.serial))) return nullptr;
    std::uint64_t offset = ref.offset;
    if (ref.sdispl >= 0) {
      const auto i = static_cast<std::size_t>(ref.sdispl);
      // A receive count that differs from the peer's send count fails the pull.
      if (i >= a.sdispls.size() || a.scounts[i] * ref.width != ref.bytes) return nullptr;
      offset = a.sdispls[i] * ref.width;
    }
    return b.ptr + offset;
  };
}

// The timeline arrow from the notify record that sets flag (rank, channel) to `value` to the wait
// it releases: an id computed from the flag (not assigned in call order, which depends on how the
// rank threads interleave), so the same program writes the same ids.
std::uint64_t flow_key(std::uint64_t domain, std::uint32_t rank, std::uint64_t channel,
                       std::uint64_t value) {
  auto mix = [](std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t h = mix(domain);
  h = mix(h ^ rank);
  h = mix(h ^ channel);
  h = mix(h ^ value);
  return h == 0 ? 1 : h;
}

}  // namespace npusim::rt::hccl
