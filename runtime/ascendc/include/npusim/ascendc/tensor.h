// SPDX-License-Identifier: Apache-2.0
// TPosition, LocalTensor and GlobalTensor of the Ascend C twin.
//
// A LocalTensor is a typed view into one of the block's local memories (BlockContext arenas) and
// remembers which TPipe buffer (slot) it lives in, so every twin instruction can report the
// buffers it touches. A GlobalTensor is a typed host pointer: GM is ordinary process memory.
// GetValue/SetValue are scalar-unit accesses and are recorded as S-pipe instructions.
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "npusim/chip_arch.h"
#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/half.h"
#include "npusim/ascendc/int4.h"
#include "npusim/ascendc/shape_info.h"
#include "npusim/ascendc/trace.h"

namespace AscendC {

enum class TPosition : std::uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX
};
using QuePosition = TPosition;

}  // namespace AscendC

namespace npusim::ascendc {

/// The physical memory behind a logical position on the configured __NPU_ARCH__.
constexpr Mem mem_of(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  constexpr bool kSplitCore = npusim::arch::of(__NPU_ARCH__).split_cores;
  constexpr bool kOldCore = npusim::arch::of(__NPU_ARCH__).old_core;
  switch (pos) {
    case P::VECIN:
    case P::VECOUT:
    case P::VECCALC:
      return Mem::kUb;
    case P::A1:
    case P::B1:
    case P::TSCM:
      return Mem::kL1;
    case P::A2:
      return Mem::kL0a;
    case P::B2:
      return Mem::kL0b;
    case P::CO1:
      return Mem::kL0c;
    case P::C1:
      return kSplitCore ? Mem::kL1 : Mem::kUb;
    case P::C2:
      return kOldCore ? Mem::kL0c : Mem::kBiasTable;
    case P::CO2:
      return kOldCore ? Mem::kUb : Mem::kGm;
    case P::SPM:
      return kOldCore ? Mem::kL1 : Mem::kGm;
    case P::C2PIPE2GM:
    case P::C2PIPE2LOCAL:
      return Mem::kFixpipeBuf;
    default:
      return Mem::kGm;
  }
}

inline const char* position_name(AscendC::TPosition pos) {
  static const char* const kNames[] = {
      "GM",    "A1",     "A2",      "B1",  "B2",   "C1",        "C2",           "CO1", "CO2",
      "VECIN", "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  return kNames[static_cast<int>(pos)];
}

/// LocalTensor::SetShapeInfo / GetShapeInfo: the block's records by first element (bookkeeping).
inline void set_shape_info(const void* at, const AscendC::ShapeInfo& info) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  for (auto& rec : ctx.shape_infos) {
    if (rec.first == at) {
      rec.second = info;
      return;
    }
  }
  ctx.shape_infos.emplace_back(at, info);
}
inline AscendC::ShapeInfo get_shape_info(const void* at) {
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  for (const auto& rec : ctx.shape_infos) {
    if (rec.first == at) return rec.second;
  }
  return AscendC::ShapeInfo{};
}

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return DType::kBool;
  else if constexpr (std::is_same_v<T, Half>)
    return DType::kFp16;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return DType::kBf16;
  else if constexpr (std::is_same_v<T, float>)
    return DType::kFp32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::kFp64;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 1)
    return std::is_signed_v<T> ? DType::kInt8 : DType::kUInt8;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 2)
    return std::is_signed_v<T> ? DType::kInt16 : DType::kUInt16;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4)
    return std::is_signed_v<T> ? DType::kInt32 : DType::kUInt32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
    return std::is_signed_v<T> ? DType::kInt64 : DType::kUInt64;
  else
    return DType::kUnknown;
}

/// Throws KernelError "<op>: <message>" with printf-style details and the block index.
template <class... Args>
[[noreturn]] inline void fail(const char* op, const char* fmt, Args... args) {
  char detail[256];
  std::snprintf(detail, sizeof detail, fmt, args...);
  char msg[320];
  BlockContext* ctx = current_block();
  std::snprintf(msg, sizeof msg, "%s: %s (block %u)", op, detail,
                ctx != nullptr ? ctx->block_idx() : 0u);
  throw KernelError(msg);
}

/// Checks a GM range with the runtime's hook (if any).
inline void check_gm(BlockContext& ctx, const void* addr, std::uint64_t bytes, bool write,
                     const char* op) {
  if (addr == nullptr && bytes != 0) fail(op, "null global memory address");
  if (ctx.gm_check && bytes != 0 && !ctx.gm_check(addr, bytes, write)) {
    fail(op, "%s %llu bytes at %p: outside any device allocation", write ? "writes" : "reads",
         static_cast<unsigned long long>(bytes), addr);
  }
}

/// check_gm for twin bodies (NPUSIM_TWIN_FN code calls only marked or out-of-line functions).
NPUSIM_TWIN_FN inline void check_gm_range(BlockContext& ctx, const void* addr, std::uint64_t bytes,
                                          bool write, const char* op) {
  if (addr == nullptr && bytes != 0) fail(op, "null global memory address");
  if (bytes != 0 && !ctx.gm_accessible(addr, bytes, write)) {
    fail(op, "%s %llu bytes at %p: outside any device allocation", write ? "writes" : "reads",
         static_cast<unsigned long long>(bytes), addr);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

/// Where a LocalTensor's elements are: what CANN kernels copy from one tensor to another with
/// `t.SetAddr(other.address_)` (a typed view of another tensor's memory). dataLen counts bytes;
/// the twin keeps the host address and the TPipe buffer (slot) with it.
struct TBuffAddr {
  std::uint32_t dataLen = 0;
  TPosition logicPos = TPosition::VECCALC;
  void* twinData = nullptr;
  std::int32_t twinSlot = -1;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  /// Twin constructor (used by TQue/TBuf).
  LocalTensor(T* data, std::uint32_t size, TPosition pos, std::int32_t slot)
      : address_{static_cast<std::uint32_t>(size * sizeof(T)), pos, data, slot},
        data_(data), size_(size), pos_(pos), slot_(slot) {}
  /// CANN 9's address form: `size` elements at byte address `addr` of the physical memory behind
  /// `pos` (static-tensor kernels place their tensors themselves). A KernelError names the
  /// position, address and size when they leave the memory. int4b_t: `size` counts 4-bit
  /// elements and the tensor holds their bytes (two per byte; GetSize() then counts bytes).
  LocalTensor(TPosition pos, std::uint32_t addr, std::uint32_t size)
      : data_(place(pos, addr, size)), size_(size), pos_(pos) {
    if constexpr (npusim::ascendc::IsInt4<T>::value) size_ = size = (size + 1) / 2;
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // placing a tensor is bookkeeping, not kernel work
    slot_ = ctx.add_slot(mem(), addr, static_cast<std::uint32_t>(size * sizeof(T)));
    address_ = {static_cast<std::uint32_t>(size_ * sizeof(T)), pos_, data_, slot_};
  }

  /// This tensor becomes a view of T over the memory `addr` describes (another tensor's
  /// address_, of any element type): dataLen / sizeof(T) elements. Bookkeeping, no instruction.
  void SetAddr(const TBuffAddr& addr) {
    address_ = addr;
    data_ = static_cast<T*>(addr.twinData);
    size_ = static_cast<std::uint32_t>(addr.dataLen / sizeof(T));
    pos_ = addr.logicPos;
    slot_ = addr.twinSlot;
  }

  /// int4b_t: `offset` counts 4-bit elements (even: a byte boundary).
  LocalTensor operator[](std::uint32_t offset) const {
    if constexpr (npusim::ascendc::IsInt4<T>::value) {
      if (offset % 2 != 0)
        npusim::ascendc::fail("LocalTensor::operator[]", "int4b_t offset %u is odd", offset);
      offset /= 2;
    }
    if (offset > size_)
      npusim::ascendc::fail("LocalTensor::operator[]", "offset %u beyond size %u", offset, size_);
    return LocalTensor(data_ + offset, size_ - offset, pos_, slot_);
  }

  /// `dst = src0 + src1` and the other whole-tensor operator forms (npusim/ascendc/symbol_ops.h):
  /// the expression's operation with count = this tensor's size.
  template <class Expr, std::enable_if_t<Expr::kIsTensorSymbolExpr &&
                                             std::is_same_v<typename Expr::ElemType, T>,
                                         int> = 0>
  LocalTensor& operator=(const Expr& expr) {
    expr.assign_to(*this);
    return *this;
  }

  T GetValue(std::uint32_t index) const {
    check_index(index, "LocalTensor::GetValue");
    record(npusim::ascendc::Op::kScalarRead, false);
    return data_[index];
  }
  void SetValue(std::uint32_t index, T value) const {
    check_index(index, "LocalTensor::SetValue");
    record(npusim::ascendc::Op::kScalarWrite, true);
    data_[index] = value;
  }
  T& operator()(std::uint32_t index) const {
    check_index(index, "LocalTensor::operator()");
    return data_[index];
  }

  std::uint32_t GetSize() const { return size_; }
  std::uint32_t GetLength() const { return size_ * static_cast<std::uint32_t>(sizeof(T)); }
  void SetSize(std::uint32_t size) {
    size_ = size;
    address_.dataLen = static_cast<std::uint32_t>(size * sizeof(T));
  }
  TPosition GetPosition() const { return pos_; }
  /// Byte offset inside the physical local memory (what the device's address would be).
  std::uint64_t GetPhyAddr() const {
    auto& ctx = npusim::ascendc::block();
    return static_cast<std::uint64_t>(reinterpret_cast<std::uint8_t*>(data_) - ctx.base(mem()));
  }
  std::int32_t GetUserTag() const { return tag_; }
  void SetUserTag(std::int32_t tag) { tag_ = tag; }
  /// The logical shape attached to the tensor's first element for the block (shape_info.h);
  /// GetShapeInfo of a tensor starting there (any copy) returns it, else an empty ShapeInfo.
  void SetShapeInfo(const ShapeInfo& info) const { npusim::ascendc::set_shape_info(data_, info); }
  ShapeInfo GetShapeInfo() const { return npusim::ascendc::get_shape_info(data_); }

  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(data_),
                          static_cast<std::uint32_t>(GetLength() / sizeof(U)), pos_, slot_);
  }

  /// CANN's public address member (SetAddr); kept in step with the tensor.
  TBuffAddr address_;

  // ---- twin internals ----
  T* twin_data() const { return data_; }
  std::int32_t twin_slot() const { return slot_; }
  npusim::ascendc::Mem mem() const { return npusim::ascendc::mem_of(pos_); }

 private:
  static T* place(TPosition pos, std::uint32_t addr, std::uint32_t size) {
    auto& ctx = npusim::ascendc::block();
    const npusim::ascendc::Mem m = npusim::ascendc::mem_of(pos);
    std::uint64_t end = addr + static_cast<std::uint64_t>(size) * sizeof(T);
    if constexpr (npusim::ascendc::IsInt4<T>::value) end = addr + (size + 1ull) / 2;
    if (m == npusim::ascendc::Mem::kGm || m == npusim::ascendc::Mem::kNone) {
      npusim::ascendc::fail("LocalTensor(TPosition, addr, size)", "position %s is not a local "
                            "memory", npusim::ascendc::position_name(pos));
    }
    if (end > ctx.capacity(m)) {
      npusim::ascendc::fail("LocalTensor(TPosition, addr, size)",
                            "%u elements of %zu bytes at address %u of %s end at %llu, beyond "
                            "its %u bytes", size, sizeof(T), addr,
                            npusim::ascendc::position_name(pos),
                            static_cast<unsigned long long>(end), ctx.capacity(m));
    }
    return reinterpret_cast<T*>(ctx.base(m) + addr);
  }
  void check_index(std::uint32_t index, const char* op) const {
    if (data_ == nullptr)
      npusim::ascendc::fail(op, "tensor has no buffer (not from AllocTensor/Get)");
    if (index >= size_) npusim::ascendc::fail(op, "index %u out of range (size %u)", index, size_);
  }
  void record(npusim::ascendc::Op op, bool write) const {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);
    npusim::ascendc::Instr ins;
    ins.pipe = npusim::ascendc::Pipe::kScalar;
    ins.op = op;
    ins.dtype = npusim::ascendc::dtype_of<T>();
    (write ? ins.dst : ins.src) = mem();
    ins.count = 1;
    ins.bytes = sizeof(T);
    ctx.emit(ins, {{slot_, write}});
  }

  T* data_ = nullptr;
  std::uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  std::int32_t slot_ = -1;
  std::int32_t tag_ = 0;
};

enum class CacheMode : std::uint8_t {
  CACHE_MODE_DISABLE,
  CACHE_MODE_NORMAL,
  CACHE_MODE_LAST,
  CACHE_MODE_PERSISTENT
};

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;

  void SetGlobalBuffer(__gm__ T* buffer, std::uint64_t size) {
    data_ = buffer;
    size_ = size;
  }
  void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

  /// int4b_t: `offset` counts 4-bit elements (even: a byte boundary).
  GlobalTensor operator[](std::uint64_t offset) const {
    std::uint64_t step = offset;  // in T objects
    if constexpr (npusim::ascendc::IsInt4<T>::value) {
      if (offset % 2 != 0)
        npusim::ascendc::fail("GlobalTensor::operator[]", "int4b_t offset %llu is odd",
                              static_cast<unsigned long long>(offset));
      step = offset / 2;
    }
    GlobalTensor g;
    g.data_ = data_ + step;
    g.size_ = size_ > offset ? size_ - offset : 0;
    return g;
  }

  T GetValue(std::uint64_t index) const {
    record(index, npusim::ascendc::Op::kScalarRead, false);
    return data_[index];
  }
  void SetValue(std::uint64_t index, T value) const {
    record(index, npusim::ascendc::Op::kScalarWrite, true);
    data_[index] = value;
  }
  T& operator()(std::uint64_t index) const { return data_[index]; }

  __gm__ T* GetPhyAddr() const { return data_; }
  __gm__ T* GetPhyAddr(std::uint64_t offset) const { return data_ + offset; }
  std::uint64_t GetSize() const { return size_; }
  template <CacheMode kMode = CacheMode::CACHE_MODE_NORMAL>
  void SetL2CacheHint() {}
  void SetL2CacheHint(CacheMode) {}

 private:
  void record(std::uint64_t index, npusim::ascendc::Op op, bool write) const {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);
    npusim::ascendc::check_gm(ctx, data_ + index, sizeof(T), write,
                             write ? "GlobalTensor::SetValue" : "GlobalTensor::GetValue");
    npusim::ascendc::Instr ins;
    ins.pipe = npusim::ascendc::Pipe::kScalar;
    ins.op = op;
    ins.dtype = npusim::ascendc::dtype_of<T>();
    (write ? ins.dst : ins.src) = npusim::ascendc::Mem::kGm;
    ins.count = 1;
    ins.bytes = sizeof(T);
    ins.gm_addr = reinterpret_cast<std::uintptr_t>(data_ + index);
    ctx.emit(ins, {});
  }

  T* data_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace AscendC
