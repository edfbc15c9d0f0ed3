// SPDX-License-Identifier: Apache-2.0
// A kernel source written like the CANN samples (<<<>>> launches, asm volatile) that the build
// passes through runtime/ascendc/rewrite_launch.py before compiling; launch_test.cpp checks the
// result. Do not reformat: launch_test.cpp looks for the LINE-MARKER comment below.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void fixture_fill(GM_ADDR out, int32_t value)
{
    auto* p = reinterpret_cast<__gm__ int32_t*>(out);
    p[block_idx] = value + static_cast<int32_t>(block_idx);
}

extern "C" __global__ __aicore__ void fixture_trap() { asm volatile("trap"); }

namespace fixture_ns {
__global__ __aicore__ void scaled(__gm__ float* x, float s) { x[block_idx] *= s; }
__global__ __aicore__ void declared_only(__gm__ float* x);
}  // namespace fixture_ns

int32_t FillDo(uint32_t blockDim, void* stream, int32_t* out, int32_t value)
{
    // A launch in a comment stays: fixture_fill<<<1, nullptr, stream>>>(out, value);
    return fixture_fill<<<blockDim, nullptr,
        stream>>>(reinterpret_cast<uint8_t*>(out),
                  value);
}

int32_t TrapDo(uint32_t blockDim, void* stream) { return fixture_trap<<<blockDim, nullptr, stream>>>(); }

int32_t ScaleDo(uint32_t blockDim, void* stream, float* x, float s)
{
    return static_cast<int32_t>(fixture_ns::scaled<<<blockDim, nullptr, stream>>>(x, s));
}

const char* FixtureText() { return "not<<<a, launch>>>()"; }

int FixtureLine() { return __LINE__; }  // LINE-MARKER

// A template kernel launched with its template arguments (CANN 9 single-source style).
template <typename T, int kScale>
__global__ __aicore__ void scale_by(__gm__ T* x) { x[block_idx] *= static_cast<T>(kScale); }

int32_t TemplateDo(uint32_t blockDim, void* stream, int32_t* x)
{
    return scale_by<int32_t, 3><<<blockDim, nullptr, stream>>>(x);
}

// The stream omitted (the default stream), and l2ctrl too.
int32_t DefaultStreamDo(uint32_t blockDim, int32_t* x)
{
    const int32_t first = scale_by<int32_t, 2><<<blockDim, nullptr>>>(x);
    return first != 0 ? first : scale_by<int32_t, 5><<<blockDim>>>(x);
}
