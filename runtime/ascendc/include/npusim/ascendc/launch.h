// SPDX-License-Identifier: Apache-2.0
// The seam between compiled kernels and the runtime.
//
// 1. `Kernel<<<blockDim, l2ctrl, stream>>>(args...)` in a kernel source is rewritten by
//    rewrite_launch.py into `::npusim::ascendc::launch(Kernel, "Kernel", blockDim, l2ctrl,
//    stream, args...)`. launch() binds the arguments by value and hands a KernelLaunch to
//    launch_kernel(), which the runtime implements (enqueue on the stream, return an aclError).
//    The runtime calls run_block() once per block with a BlockContext installed (ScopedBlock).
// 2. For binary loading (aclrtBinaryLoadFromFile / aclrtBinaryGetFunction) every __global__
//    kernel also gets NPUSIM_REGISTER_KERNEL(Kernel) appended by the same script: an exported,
//    constant-initialised `npusim_kernel_<Kernel>` KernelEntry that the runtime finds with
//    dlsym. KernelEntry::invoke decodes a packed argument block and runs the kernel for the
//    current block. Packing: parameters in order, each at the next offset aligned to its own
//    size (pointers: 8 bytes) — the layout aclrtKernelArgsAppend produces.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "npusim/ascendc/block_context.h"

namespace npusim::ascendc {

/// One `<<<>>>` launch as handed to the runtime.
struct KernelLaunch {
  const char* name = nullptr;    // kernel identifier as written in the source
  const void* kernel = nullptr;  // address of the __global__ function (identity only)
  std::uint32_t block_dim = 0;
  void* l2ctrl = nullptr;
  void* stream = nullptr;
  std::function<void()> run_block;  // runs the kernel body for the installed block
  /// Gives the bound arguments' bytes, prefixed by one 'k', when every parameter type has no
  /// padding or other bytes outside its value (pointers, integers, enums, float, double, packed
  /// structs): in timing-only mode equal bytes mean equal control flow, so the runtime may reuse
  /// the block traces of an earlier launch (runtime/core/trace_memo.h). Empty: never memoised. Valid
  /// during launch_kernel() only; the runtime calls it only when the memo can be used, so a
  /// functional launch builds no key.
  std::function<std::string()> memo_key;
};

namespace detail {

template <class T>
constexpr bool memo_bytes_v =
    std::is_trivially_copyable_v<T> &&
    (std::has_unique_object_representations_v<T> || std::is_same_v<T, float> ||
     std::is_same_v<T, double>);

template <class Tuple, std::size_t... I>
std::string memo_key_of(const Tuple& t, std::index_sequence<I...>) {
  std::string key(1, 'k');
  key.reserve(1 + (sizeof(std::tuple_element_t<I, Tuple>) + ... + 0));
  (key.append(reinterpret_cast<const char*>(&std::get<I>(t)), sizeof(std::get<I>(t))), ...);
  return key;
}

}  // namespace detail

/// Implemented by the runtime: validates and enqueues the launch; returns an aclError (0 = ok).
NPUSIM_KERNEL_API std::int32_t launch_kernel(KernelLaunch&& launch);

/// The kernel among overloaded kernel templates whose parameters are exactly A... decayed (the
/// launch rewrite of a library header names its template kernels so: K<T><<<n, l2, s>>>(a, b)
/// with K overloaded on its parameters).
template <class... A>
constexpr auto kernel_taking(void (*kernel)(std::decay_t<A>...)) {
  return kernel;
}

/// launch() with the block's body given: `body(bound args...)` runs each block instead of
/// `kernel(bound args...)` (kernel is the launch's identity; core_pass.h picks a build with it).
template <class... P, class Body, class... A>
std::int32_t launch_with(void (*kernel)(P...), const char* name, std::uint32_t block_dim,
                         void* l2ctrl, void* stream, Body body, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launch: wrong number of arguments");
  KernelLaunch l;
  l.name = name;
  l.kernel = reinterpret_cast<const void*>(kernel);
  l.block_dim = block_dim;
  l.l2ctrl = l2ctrl;
  l.stream = stream;
  std::tuple<std::decay_t<P>...> bound(std::forward<A>(args)...);
  if constexpr ((detail::memo_bytes_v<std::decay_t<P>> && ...)) {
    l.memo_key = [&bound] { return detail::memo_key_of(bound, std::index_sequence_for<P...>{}); };
  }
  l.run_block = [body, bound]() { std::apply(body, bound); };
  return launch_kernel(std::move(l));
}

/// The launch of `kernel(args...)` on block_dim blocks (launch_with, the kernel its own body).
template <class... P, class... A>
std::int32_t launch(void (*kernel)(P...), const char* name, std::uint32_t block_dim, void* l2ctrl,
                    void* stream, A&&... args) {
  return launch_with(kernel, name, block_dim, l2ctrl, stream, kernel, std::forward<A>(args)...);
}

/// Implemented by the runtime (runtime/core/aicpu_kernel.cpp): the `<<<>>>` launch of an AI CPU kernel,
/// `__global__ __aicpu__ uint32_t Kernel(void* args)` (aicpu_api.h). The launch passes a pointer
/// and the size of what it points to; those bytes become the kernel's argument block in device
/// memory and one AI CPU task is queued. Returns an aclError (0 = ok).
NPUSIM_KERNEL_API std::int32_t launch_aicpu_kernel(std::uint32_t (*kernel)(void*), const char* name,
                                                   std::uint32_t block_dim, void* stream,
                                                   const void* args, std::size_t size);

/// The same with the kernel's body given as a call on the device copy of the argument block.
NPUSIM_KERNEL_API std::int32_t launch_aicpu_call(const char* name, std::uint32_t block_dim,
                                                 void* stream, const void* args, std::size_t size,
                                                 std::function<std::uint32_t(void*)> body);

/// `Kernel<<<blockDim, l2ctrl, stream>>>(args)` of an AI CPU kernel taking one struct by value
/// (CANN 9, `__global__ __aicpu__ uint32_t Kernel(Args args)`): the struct's bytes become the
/// argument block, and the kernel receives a copy of them.
template <class S, class A, std::enable_if_t<!std::is_pointer_v<S>, int> = 0>
std::int32_t launch(std::uint32_t (*kernel)(S), const char* name, std::uint32_t block_dim,
                    void* /*l2ctrl*/, void* stream, A&& arg) {
  using Block = std::decay_t<S>;
  static_assert(std::is_trivially_copyable_v<Block>,
                "AI CPU kernel launch: the argument struct must be trivially copyable");
  const Block copy(std::forward<A>(arg));
  return launch_aicpu_call(name, block_dim, stream, &copy, sizeof(Block), [kernel](void* p) {
    return kernel(*static_cast<Block*>(p));
  });
}

/// `Kernel<<<blockDim, l2ctrl, stream>>>(&args, sizeof(args))` of an AI CPU kernel.
template <class T>
std::int32_t launch(std::uint32_t (*kernel)(void*), const char* name, std::uint32_t block_dim,
                    void* /*l2ctrl*/, void* stream, T* args, std::size_t size) {
  return launch_aicpu_kernel(kernel, name, block_dim, stream, static_cast<const void*>(args),
                             size);
}

/// One kernel parameter in the packed argument block.
struct KernelParam {
  std::uint32_t offset;
  std::uint32_t size;
  bool is_pointer;
};

/// What NPUSIM_REGISTER_KERNEL exports for the binary path.
struct KernelEntry {
  const char* name;
  std::uint32_t num_params;
  const KernelParam* params;                           // num_params entries
  std::uint32_t args_size;                             // bytes of the packed argument block
  void (*invoke)(const void* args, std::size_t size);  // KernelError if size < args_size
};

namespace detail {

constexpr std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

template <class... P>
constexpr std::array<std::uint32_t, sizeof...(P) + 1> param_offsets() {
  std::array<std::uint32_t, sizeof...(P) + 1> o{};
  std::uint32_t at = 0;
  std::size_t i = 0;
  ((at = align_up(at, sizeof(P)), o[i++] = at, at += sizeof(P)), ...);
  o[sizeof...(P)] = at;
  return o;
}

template <class... P>
constexpr std::array<KernelParam, sizeof...(P) + 1> param_table() {
  [[maybe_unused]] constexpr auto kOffsets = param_offsets<P...>();
  std::array<KernelParam, sizeof...(P) + 1> r{};
  std::size_t i = 0;
  ((r[i] = KernelParam{kOffsets[i], sizeof(P), std::is_pointer_v<P>}, ++i), ...);
  return r;
}

template <class... P>
struct ParamLayout {
  static constexpr auto kOffsets = param_offsets<P...>();
  static constexpr auto kParams = param_table<P...>();
  static constexpr std::uint32_t kSize = kOffsets[sizeof...(P)];
};

template <class T>
T read_param(const void* args, std::uint32_t offset) {
  T v;
  std::memcpy(&v, static_cast<const std::uint8_t*>(args) + offset, sizeof(T));
  return v;
}

[[noreturn]] NPUSIM_KERNEL_API void bad_args(std::size_t got, std::size_t need);

template <auto Kernel, class Fn>
struct EntryOf;

template <auto Kernel, class... P>
struct EntryOf<Kernel, void (*)(P...)> {
  using Layout = ParamLayout<std::decay_t<P>...>;

  static void invoke(const void* args, std::size_t size) {
    call(args, size, std::index_sequence_for<P...>{});
  }
  static constexpr KernelEntry make(const char* name) {
    return KernelEntry{name, sizeof...(P), Layout::kParams.data(), Layout::kSize, &invoke};
  }

 private:
  template <std::size_t... I>
  static void call([[maybe_unused]] const void* args, std::size_t size, std::index_sequence<I...>) {
    if (size < Layout::kSize) bad_args(size, Layout::kSize);
    Kernel(read_param<std::decay_t<P>>(args, Layout::kOffsets[I])...);
  }
};

}  // namespace detail
}  // namespace npusim::ascendc

/// Exports `npusim_kernel_<symbol>` (a KernelEntry) for the kernel function defined above it;
/// NPUSIM_REGISTER_KERNEL(name) is the usual form (symbol = name).
#define NPUSIM_REGISTER_KERNEL_AS(npusim_symbol, npusim_fn)                                        \
  extern "C" NPUSIM_KERNEL_API const ::npusim::ascendc::KernelEntry npusim_kernel_##npusim_symbol = \
      ::npusim::ascendc::detail::EntryOf<&npusim_fn, decltype(&npusim_fn)>::make(#npusim_symbol);
#define NPUSIM_REGISTER_KERNEL(name) NPUSIM_REGISTER_KERNEL_AS(name, name)
