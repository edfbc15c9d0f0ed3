// SPDX-License-Identifier: Apache-2.0
// Kernel code compiled once per core type (npusim-asc's per-core build; its docstring says when
// and how): the launch seam of such a source and the registry that joins its two builds.
//
// CANN's compiler builds the kernel code of a source twice, for the AIC and for the AIV, with
// g_coreType a constant in each (`if constexpr (g_coreType == AscendC::AIV)`,
// `template <int32_t CORE_TYPE = g_coreType>`). npusim-asc does the same for a source that needs
// it: it compiles the rewritten source with NPUSIM_ASC_CORE_PASS=1 (AIC) and =2 (AIV); g_coreType
// is then that literal (sub_block.h), the AIC object's symbols are renamed apart and both objects
// are joined into one. The AIV build is the program's (its host code runs); the AIC build's host
// code is never called.
//
// Each `K<<<...>>>(...)` launch of such a source becomes launch_passes<K>(kind, ...): both builds
// instantiate it, and each registers its own K under a key both share (the mangled name of K,
// through typeid), at load time. A block then runs the build of the core it is on:
//   kind kPassMix      (__mix__(c, v) kernels): each sub-block of the mix launch runs the build of
//                      its core (the first block runs the AIV build as a plain block, whose
//                      kernel_mix() makes the launch a mix launch, as for every __mix__ kernel);
//   kind kPassImplicit (a kernel with no core qualifier the rewrite could see, e.g. CATLASS's
//                      `__global__ __aicore__` through a macro): runs as __mix__(1, 2), which is
//                      what CANN makes of a kernel with code for both cores;
//   kind kPassAic / kPassAiv (__cube__ / __vector__): always that core's build.
// A build missing from the program is a kernel error naming the kernel.
#pragma once

#include <cstdint>
#include <typeinfo>
#include <type_traits>

#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/sub_block.h"

namespace npusim::ascendc {

enum CorePassKind : int { kPassMix = 0, kPassImplicit = 1, kPassAic = 2, kPassAiv = 3 };

using ErasedKernel = void (*)();

/// Build `core` (kCoreAic / kCoreAiv) of the kernel whose key is `key` is `fn` (load time).
NPUSIM_KERNEL_API void core_pass_register(std::int32_t core, const char* key, ErasedKernel fn);
/// Build `core` of kernel `key`: KernelError naming `name` when the program has none.
NPUSIM_KERNEL_API ErasedKernel core_pass_find(std::int32_t core, const char* key,
                                              const char* name);

namespace detail {

template <auto F>
struct CorePassTag {};

#ifdef NPUSIM_ASC_CORE_PASS
/// Registers this build's F (an inline variable: instantiated by launch_passes<F>, initialised
/// when the object is loaded).
template <auto F>
struct CorePassEntry {
  static inline const bool registered = (core_pass_register(NPUSIM_ASC_CORE_PASS,
                                                            typeid(CorePassTag<F>).name(),
                                                            reinterpret_cast<ErasedKernel>(F)),
                                         true);
};
#endif

}  // namespace detail

#ifdef NPUSIM_ASC_CORE_PASS
/// The build of kernel F (of kind Kind) that the running block or sub-block runs; for
/// kPassImplicit in a plain block, MixKernel (the launch becomes a __mix__(1, 2) launch).
template <auto F, int Kind>
decltype(F) core_pass_pick(const char* name) {
  (void)detail::CorePassEntry<F>::registered;
  std::int32_t core = current_sub_block().core_type;
  if (Kind == kPassAic) core = kCoreAic;
  if (Kind == kPassAiv) core = kCoreAiv;
  if (Kind == kPassImplicit) kernel_mix(1, 2);  // a plain block: MixKernel
  if (core == NPUSIM_ASC_CORE_PASS) return F;
  return reinterpret_cast<decltype(F)>(
      core_pass_find(core, typeid(detail::CorePassTag<F>).name(), name));
}

template <int Kind>
struct PassKindTag {};
// The launch rewrite names the kind with one of these (a template argument list would put a
// comma into the launch expression, which may be a macro's argument: CHECK(K<<<...>>>(...))).
inline constexpr PassKindTag<kPassMix> pass_kind_mix{};
inline constexpr PassKindTag<kPassImplicit> pass_kind_implicit{};
inline constexpr PassKindTag<kPassAic> pass_kind_aic{};
inline constexpr PassKindTag<kPassAiv> pass_kind_aiv{};

namespace detail {
template <class Fn>
struct AiCoreKernel : std::false_type {};
template <class... P>
struct AiCoreKernel<void (*)(P...)> : std::true_type {};
}  // namespace detail

/// The launch of kernel F from a source built once per core type (see the header comment). An
/// AI CPU kernel (not void) launches as in every source: it has no core type.
template <auto F, int Kind, class... A>
std::int32_t launch_passes(PassKindTag<Kind>, const char* name, std::uint32_t block_dim,
                           void* l2ctrl, void* stream, A&&... args) {
  if constexpr (!detail::AiCoreKernel<decltype(F)>::value) {
    return launch(F, name, block_dim, l2ctrl, stream, std::forward<A>(args)...);
  } else {
    return launch_with(
        F, name, block_dim, l2ctrl, stream,
        [name](auto&&... bound) { core_pass_pick<F, Kind>(name)(bound...); },
        std::forward<A>(args)...);
  }
}

namespace detail {

/// NPUSIM_REGISTER_KERNEL_PASSES: launch.h's EntryOf for a kernel built once per core type (the
/// binary path runs the build of the block's core, as launch_passes does).
template <auto Kernel, int Kind, class Fn>
struct PassEntryOf;

template <auto Kernel, int Kind, class... P>
struct PassEntryOf<Kernel, Kind, void (*)(P...)> {
  using Layout = ParamLayout<std::decay_t<P>...>;

  static void invoke(const void* args, std::size_t size) {
    call(args, size, std::index_sequence_for<P...>{});
  }
  static constexpr KernelEntry make(const char* n) {
    return KernelEntry{n, sizeof...(P), Layout::kParams.data(), Layout::kSize, &invoke};
  }

 private:
  template <std::size_t... I>
  static void call([[maybe_unused]] const void* args, std::size_t size, std::index_sequence<I...>) {
    if (size < Layout::kSize) bad_args(size, Layout::kSize);
    core_pass_pick<Kernel, Kind>("(loaded from a binary)")(
        read_param<std::decay_t<P>>(args, Layout::kOffsets[I])...);
  }
};

}  // namespace detail
#endif

}  // namespace npusim::ascendc

#ifdef NPUSIM_ASC_CORE_PASS
/// NPUSIM_REGISTER_KERNEL_AS for a source built once per core type (the rewrite appends it).
#define NPUSIM_REGISTER_KERNEL_PASSES(npusim_symbol, npusim_fn, npusim_kind)                     \
  extern "C" NPUSIM_KERNEL_API const ::npusim::ascendc::KernelEntry                               \
      npusim_kernel_##npusim_symbol = ::npusim::ascendc::detail::PassEntryOf<                      \
          &npusim_fn, npusim_kind, decltype(&npusim_fn)>::make(#npusim_symbol);
#endif
