// SPDX-License-Identifier: Apache-2.0
// CANN 9's static-tensor programming of the Ascend C twin: InitSocState and LocalMemAllocator.
//
// A static-tensor kernel builds no TPipe or queues: it takes LocalTensors from a
// LocalMemAllocator per physical memory (UB, L1, L0A/B/C, bias table, fixpipe buffer), each
// allocation following the last from address 0, and orders its pipes itself with
// SetFlag/WaitFlag and PipeBarrier (tpipe.h), which the trace records as dependencies for the
// timing model. Mixing an allocator with a TPipe in one kernel, or two allocations that do not
// fit the memory, is a KernelError naming the call.
#pragma once

#include <cstdint>
#include <cstdio>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

namespace AscendC {

/// The physical memories of an AI Core.
enum class Hardware : std::uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

/// Initialises the core's global state at kernel start (atomic accumulation off, normal mask
/// mode, full vector mask, no LoadData padding or boundary). Of these the twin models only the
/// vector mask register and its mode (vector_mask.h; the C API's repeat forms read it too): normal
/// mode, all ones. Outside a kernel block: KernelError.
inline void InitSocState() {
  auto& regs = npusim::ascendc::block().regs;
  regs.mask[0] = regs.mask[1] = ~std::uint64_t{0};
  regs.counter_mode = false;
}

}  // namespace AscendC

namespace npusim::ascendc {

constexpr Mem mem_of(AscendC::Hardware h) {
  using H = AscendC::Hardware;
  constexpr Mem kMems[] = {Mem::kGm,  Mem::kUb,  Mem::kL1,        Mem::kL0a,
                           Mem::kL0b, Mem::kL0c, Mem::kBiasTable, Mem::kFixpipeBuf};
  return h < H::MAX ? kMems[static_cast<int>(h)] : Mem::kNone;
}

/// The logical position a tensor allocated in `h` gets when the allocation names none.
constexpr AscendC::TPosition default_position(AscendC::Hardware h) {
  using H = AscendC::Hardware;
  using P = AscendC::TPosition;
  constexpr P kPositions[] = {P::GM,  P::VECCALC, P::A1, P::A2,
                              P::B2,  P::CO1,     P::C2, P::C2PIPE2GM};
  return h < H::MAX ? kPositions[static_cast<int>(h)] : P::MAX;
}

inline const char* hardware_name(AscendC::Hardware h) {
  static const char* const kNames[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BIAS", "FIXBUF"};
  return h < AscendC::Hardware::MAX ? kNames[static_cast<int>(h)] : "MAX";
}

}  // namespace npusim::ascendc

namespace AscendC {

template <Hardware kHard = Hardware::UB>
class LocalMemAllocator {
  static_assert(kHard != Hardware::GM && kHard < Hardware::MAX,
                "LocalMemAllocator: the hardware must be a local memory (UB, L1, L0A, L0B, L0C, "
                "BIAS, FIXBUF)");

 public:
  LocalMemAllocator() = default;

  /// The first free address of the memory (0 before the first allocation).
  std::uint32_t GetCurAddr() const {
    return npusim::ascendc::block().used(npusim::ascendc::mem_of(kHard));
  }

  template <class T, std::uint32_t kTile>
  LocalTensor<T> Alloc() {
    return allocate<T>(npusim::ascendc::default_position(kHard), kTile);
  }
  template <TPosition kPos, class T, std::uint32_t kTile>
  LocalTensor<T> Alloc() {
    return allocate<T>(kPos, kTile);
  }
  template <class T>
  LocalTensor<T> Alloc(std::uint32_t tile) {
    return allocate<T>(npusim::ascendc::default_position(kHard), tile);
  }
  template <TPosition kPos, class T>
  LocalTensor<T> Alloc(std::uint32_t tile) {
    return allocate<T>(kPos, tile);
  }

 private:
  template <class T>
  LocalTensor<T> allocate(TPosition pos, std::uint32_t count) {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // allocation is twin bookkeeping, not kernel work
    const npusim::ascendc::Mem mem = npusim::ascendc::mem_of(kHard);
    char what[96];
    std::snprintf(what, sizeof what, "LocalMemAllocator<%s>::Alloc(%u elements of %zu bytes)",
                  npusim::ascendc::hardware_name(kHard), count, sizeof(T));
    if (ctx.current_tpipe != nullptr) {
      npusim::ascendc::fail(what, "a kernel using a TPipe cannot also use a LocalMemAllocator");
    }
    if (npusim::ascendc::mem_of(pos) != mem) {
      npusim::ascendc::fail(what, "position %s is not in %s", npusim::ascendc::position_name(pos),
                            npusim::ascendc::hardware_name(kHard));
    }
    const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
    const std::uint32_t offset = ctx.allocate(mem, bytes, what);
    const std::int32_t slot = ctx.add_slot(mem, offset, static_cast<std::uint32_t>(bytes));
    return LocalTensor<T>(reinterpret_cast<T*>(ctx.base(mem) + offset), count, pos, slot);
  }
};

}  // namespace AscendC
