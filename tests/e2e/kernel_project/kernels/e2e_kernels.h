// SPDX-License-Identifier: Apache-2.0
// Host-side launchers of the e2e kernels (defined beside the kernels, as in the CANN samples).
// Each returns the launch's error code (0 = queued).
#ifndef NPUSIM_E2E_KERNELS_H_
#define NPUSIM_E2E_KERNELS_H_

#include <cstdint>

// Elements per tile of the vector-add kernels; a launch covers `tiles` tiles, spread over blocks.
constexpr uint32_t kVaddTile = 256;
// Columns of a softmax row (fp16).
constexpr uint32_t kSoftmaxCols = 128;

int32_t VaddFloatDo(uint32_t blockDim, void* stream, float* a, float* b, float* c, uint32_t tiles);
int32_t VaddFloatSingleBufferDo(uint32_t blockDim, void* stream, float* a, float* b, float* c,
                                uint32_t tiles);
int32_t VaddHalfDo(uint32_t blockDim, void* stream, uint16_t* a, uint16_t* b, uint16_t* c,
                   uint32_t tiles);
int32_t SoftmaxHalfDo(uint32_t blockDim, void* stream, uint16_t* x, uint16_t* y, uint32_t rows);
int32_t TrapDo(uint32_t blockDim, void* stream, uint32_t* marks);
int32_t PrintDo(uint32_t blockDim, void* stream, uint32_t tag);

#endif  // NPUSIM_E2E_KERNELS_H_
