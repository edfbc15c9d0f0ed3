// SPDX-License-Identifier: Apache-2.0
// The checks the DVPP image calls share (acl_dvpp_image.cpp: channels, JPEG, PNG;
// acl_dvpp_vpc.cpp: the VPC): channel modes, device ranges and picture descriptions. Each check
// fails the call with ACL_ERROR_INVALID_PARAM and a reason (acl_dvpp_image.cpp lists the rules).
#ifndef NPUSIM_RUNTIME_DVPP_IMAGE_ARGS_H_
#define NPUSIM_RUNTIME_DVPP_IMAGE_ARGS_H_

#include <cstdint>
#include <string>

#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/dvpp/dvpp_task.h"
#include "runtime/core/api_call.h"
#include "runtime/core/memory_registry.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/image_ops.h"

namespace npusim::rt::dvpp {

inline std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

/// The DVPP_CHNMODE_* bit of an image module (0 for the others).
std::uint32_t channel_bit(models::DvppModule m);

/// The channel runs `module`'s work: created, its mode includes the module, the chip has it.
void check_channel(Call& c, const acldvppChannelDesc* ch, models::DvppModule module,
                   const char* api);

/// A device range the task will touch: checked now, re-checked (alive) when the task runs.
struct Range {
  std::uint64_t serial = 0;
};

Range device_range(Call& c, const void* p, std::uint64_t bytes, const std::string& what);

/// Both ranges are still allocated (a task checks this before it touches them).
inline bool alive(const MemoryRegistry* mem, const Range& a, const Range& b) {
  return mem->alive(a.serial) && mem->alive(b.serial);
}

bool yuv420sp(std::uint32_t format);
Image::Kind kind_of(std::uint32_t format);

/// Bytes a picture of `kind` occupies with these strides.
std::uint64_t picture_bytes(Image::Kind kind, std::uint32_t ws, std::uint32_t hs);

/// The bytes of a picture with its own strides.
inline std::uint64_t picture_bytes(const Image& img) {
  return picture_bytes(img.kind, img.width_stride, img.height_stride);
}

struct Pic {
  Image image;
  Range range;
};

/// The picture `d` describes as an image of `kind`, `width` x `height` (its strides and data).
Image image_of(const acldvppPicDesc& d, Image::Kind kind, std::uint32_t width,
               std::uint32_t height);

/// A VPC picture (acl_dvpp_image.cpp's rules); `rgb_ok`: RGB888/BGR888 are accepted too.
Pic vpc_picture(Call& c, const acldvppPicDesc* d, const std::string& what, bool rgb_ok);

}  // namespace npusim::rt::dvpp

#endif  // NPUSIM_RUNTIME_DVPP_IMAGE_ARGS_H_
