// SPDX-License-Identifier: Apache-2.0
// The vector kernel of aclnnConvolution (conv_kernels.cpp): im2col into the workspace.
//
// For image b the (cin*kh*kw) x (oh*ow) matrix col[b] holds, in row (c, i, j) and column
// (y, x), input[b][c][y*strideH - padH + i*dilH][x*strideW - padW + j*dilW] (0 where that lies
// in the padding). The matmul kernel (matmul_kernels.h) then computes out[b] (cout x oh*ow, the
// NCHW layout) = weight (cout x cin*kh*kw) * col[b] (+ bias per output channel, multiplied by
// the row of `onesLen` ones this kernel writes after the last image's matrix). With groups, the
// rows of group g (its cin/groups channels) are consecutive, and each group is its own product.
// Work item (b, row) goes to block (b * rows + row) % blockNum; per output row y the kernel
// copies the valid run of the input row GM -> UB -> GM (one burst, or one burst per element when
// the column stride is not 1) and writes the padding columns from a zero buffer.
#pragma once

#include <cstdint>

namespace npusim::aclnn {

struct Im2colTiling {
  std::int64_t batch = 0, cin = 0, h = 0, w = 0;
  std::int64_t kh = 0, kw = 0, oh = 0, ow = 0;
  std::int64_t strideH = 1, strideW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1;
  std::int64_t inStride[4] = {};  // input's element strides (N, C, H, W)
  std::int64_t colStride = 0;     // elements between images in col
  std::int64_t onesLen = 0;       // ones written at col + batch * colStride (0: none)
  std::uint32_t chunk = 64;       // UB piece: chunk * 32 bytes (7 pieces: 3 queues of 2, fill)
};

/// Element types: 0 = FLOAT16, 1 = BFLOAT16, 2 = FLOAT (as MmType).
void im2col_kernel(int type, std::uint8_t* x, std::uint8_t* col, const Im2colTiling& t);
const void* im2col_kernel_identity(int type);

}  // namespace npusim::aclnn
