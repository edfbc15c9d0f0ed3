// SPDX-License-Identifier: Apache-2.0
// The kernel's host-side launcher, shared by the kernel source and the host program.
#ifndef SCALE_ADD_H_
#define SCALE_ADD_H_

#include <cstdint>

constexpr uint32_t kTile = 1024;  // floats per tile: 4 KiB in UB per buffer

// Queues z = alpha * x + y over tiles * kTile floats on `blocks` cores (tiles a multiple of
// blocks); returns the launch's aclError (0 = queued).
int32_t ScaleAddLaunch(uint32_t blocks, void* stream, float* x, float* y, float* z, float alpha,
                       uint32_t tiles);

#endif  // SCALE_ADD_H_
