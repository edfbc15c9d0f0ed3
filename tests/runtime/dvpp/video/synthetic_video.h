// SPDX-License-Identifier: Apache-2.0
// Synthetic test pictures for VDEC/VENC: smooth gradients and a moving square, so encoders
// reach high PSNR and P-frames carry motion.
#pragma once

#include <cstdint>

#include "runtime/dvpp/video_codec.h"

namespace npusim::dvpp::testing {

inline YuvImage synthetic_frame(std::uint32_t width, std::uint32_t height, std::uint32_t index) {
  YuvImage img = YuvImage::blank(width, height);
  const std::uint32_t side = height / 4 == 0 ? 1 : height / 4;
  const std::uint32_t x0 = (index * 4) % (width > side ? width - side : 1);
  const std::uint32_t y0 = (index * 2) % (height > side ? height - side : 1);
  for (std::uint32_t r = 0; r < height; ++r)
    for (std::uint32_t c = 0; c < width; ++c) {
      const bool square = c >= x0 && c < x0 + side && r >= y0 && r < y0 + side;
      img.y[std::size_t{r} * width + c] =
          static_cast<std::uint8_t>(square ? 220 : 32 + (c * 160 / width + r * 32 / height));
    }
  const std::uint32_t cw = img.chroma_width(), ch = img.chroma_height();
  for (std::uint32_t r = 0; r < ch; ++r)
    for (std::uint32_t c = 0; c < cw; ++c) {
      img.u[std::size_t{r} * cw + c] = static_cast<std::uint8_t>(64 + c * 128 / cw);
      img.v[std::size_t{r} * cw + c] = static_cast<std::uint8_t>(192 - r * 128 / ch);
    }
  return img;
}

}  // namespace npusim::dvpp::testing
