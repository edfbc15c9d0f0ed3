// SPDX-License-Identifier: Apache-2.0
// A template library's header written in CANN's kernel language the way CATLASS writes its own:
// kernel_operator.h only under __CCE__, a host-and-device function marked
// `__forceinline__[host, aicore]`, two kernel templates overloaded on their parameters, and the
// <<<>>> launch inside the header (npusim-asc rewrites such headers: rewrite_headers.py).
#pragma once
#include <cstdint>

#include "acl/acl.h"
#if defined(__CCE__)
#include <kernel_operator.h>
#endif

#ifdef __CCE__
#define TILELIB_HOST_DEVICE __forceinline__[host, aicore]
#else
#define TILELIB_HOST_DEVICE
#endif

namespace tilelib {

TILELIB_HOST_DEVICE constexpr uint32_t Twice(uint32_t x) { return 2 * x; }

/// out[i] = value for the block's `per_block` elements.
template <class T>
__global__ __aicore__ void Fill(GM_ADDR out, T value, uint32_t per_block) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + AscendC::GetBlockIdx() * per_block,
                    per_block);
  for (uint32_t i = 0; i < per_block; ++i) g.SetValue(i, value);
}

/// The same with value doubled (Twice): the overload the launch below must not pick.
template <class T>
__global__ __aicore__ void Fill(GM_ADDR out, T value, uint32_t per_block, uint64_t unused) {
  Fill<T>(out, static_cast<T>(Twice(static_cast<uint32_t>(value))), per_block);
}

template <class T>
void LaunchFill(uint32_t blocks, aclrtStream stream, uint8_t* out, T value, uint32_t per_block) {
  Fill<T><<<blocks, nullptr, stream>>>(out, value, per_block);
}

}  // namespace tilelib
