// SPDX-License-Identifier: Apache-2.0
// Launch wrappers of the trace memo test kernels (memo_kernels.cpp).
#pragma once

#include <cstdint>

/// Kernel bodies the probe kernels ran (one per block run; reused traces do not count).
extern int g_memo_probe_runs;

/// Each block: `tiles` x (256 floats GM -> UB, Adds, UB -> GM) at x + block * tiles * 256,
/// then prints "probe <block> <tiles>".
int32_t MemoProbeDo(uint32_t block_dim, void* stream, float* x, uint32_t tiles);
/// Like MemoProbeDo with 2 tiles, but takes its arguments in a struct with padding bytes.
int32_t MemoPaddedDo(uint32_t block_dim, void* stream, float* x, uint8_t tag);
/// Block `fail_block` traps after its copy; the others copy 256 floats.
int32_t MemoFailDo(uint32_t block_dim, void* stream, float* x, uint32_t fail_block);
