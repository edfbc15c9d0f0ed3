// SPDX-License-Identifier: Apache-2.0
// The checks the DVPP image calls share (image_args.h).
#include "runtime/dvpp/image_args.h"

#include "runtime/core/context.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"

namespace npusim::rt::dvpp {

using models::DvppModule;

std::uint32_t channel_bit(DvppModule m) {
  switch (m) {
    case DvppModule::kVpc:
      return DVPP_CHNMODE_VPC;
    case DvppModule::kJpegd:
      return DVPP_CHNMODE_JPEGD;
    case DvppModule::kJpege:
      return DVPP_CHNMODE_JPEGE;
    case DvppModule::kPngd:
      return DVPP_CHNMODE_PNGD;
    default:
      return 0;
  }
}

void check_channel(Call& c, const acldvppChannelDesc* ch, DvppModule module, const char* api) {
  require_not_null(ch, "channelDesc");
  require(ch->created, ACL_ERROR_INVALID_PARAM,
          "channelDesc was not created with acldvppCreateChannel (or was destroyed)");
  require(ch->mode == 0 || (ch->mode & channel_bit(module)) != 0, ACL_ERROR_INVALID_PARAM,
          std::string("the channel's mode does not include ") +
              npusim::models::dvpp_module_name(module));
  dvpp::check_module(c, module, api);
}

Range device_range(Call& c, const void* p, std::uint64_t bytes, const std::string& what) {
  require(p != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const Allocation* a = c.runtime().memory().find(p);
  require(a != nullptr && (a->kind == MemKind::kDevice || a->kind == MemKind::kManaged),
          ACL_ERROR_INVALID_PARAM, what + " is not device memory (allocate it with acldvppMalloc)");
  const std::uint32_t device = c.context().device;
  require(a->device == device, ACL_ERROR_INVALID_PARAM,
          what + " is memory of device " + std::to_string(a->device) +
              ", not of the current device " + std::to_string(device));
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), bytes), ACL_ERROR_INVALID_PARAM,
          what + " + " + std::to_string(bytes) + " bytes runs past the end of its allocation");
  return Range{a->serial};
}

bool yuv420sp(std::uint32_t f) {
  return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

Image::Kind kind_of(std::uint32_t f) {
  switch (f) {
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
      return Image::kNv21;
    case PIXEL_FORMAT_RGB_888:
      return Image::kRgb;
    case PIXEL_FORMAT_BGR_888:
      return Image::kBgr;
    case PIXEL_FORMAT_RGBA_8888:
      return Image::kRgba;
    default:
      return Image::kNv12;
  }
}

std::uint64_t picture_bytes(Image::Kind kind, std::uint32_t ws, std::uint32_t hs) {
  const std::uint64_t plane = static_cast<std::uint64_t>(ws) * hs;
  return kind == Image::kNv12 || kind == Image::kNv21 ? plane * 3 / 2 : plane;
}

Image image_of(const acldvppPicDesc& d, Image::Kind kind, std::uint32_t width,
               std::uint32_t height) {
  Image img;
  img.kind = kind;
  img.data = static_cast<std::uint8_t*>(d.data);
  img.width = width;
  img.height = height;
  img.width_stride = d.width_stride;
  img.height_stride = d.height_stride;
  return img;
}

namespace {

/// The VPC's format, size and stride rules for `d` (`rgb`: an RGB888/BGR888 picture).
void check_vpc_layout(const acldvppPicDesc& d, const std::string& what, bool rgb) {
  require(d.width >= 10 && d.width <= 4096 && d.height >= 6 && d.height <= 4096,
          ACL_ERROR_INVALID_PARAM,
          what + ": " + std::to_string(d.width) + "x" + std::to_string(d.height) +
              " is outside [10, 4096] x [6, 4096]");
  const std::uint32_t row = rgb ? 3 * d.width : d.width;
  require(d.width_stride % 16 == 0 && d.width_stride >= row, ACL_ERROR_INVALID_PARAM,
          what + ": widthStride " + std::to_string(d.width_stride) +
              " must be a multiple of 16 and at least " + std::to_string(row));
  require(d.height_stride % 2 == 0 && d.height_stride >= d.height, ACL_ERROR_INVALID_PARAM,
          what + ": heightStride " + std::to_string(d.height_stride) +
              " must be a multiple of 2 and at least the height " + std::to_string(d.height));
}

}  // namespace

Pic vpc_picture(Call& c, const acldvppPicDesc* d, const std::string& what, bool rgb_ok) {
  require(d != nullptr, ACL_ERROR_INVALID_PARAM, what + " is NULL");
  const bool rgb = d->format == PIXEL_FORMAT_RGB_888 || d->format == PIXEL_FORMAT_BGR_888;
  require(yuv420sp(d->format) || (rgb_ok && rgb), ACL_ERROR_INVALID_PARAM,
          what + ": format " + std::to_string(d->format) +
              (rgb_ok ? " is not YUV420SP (1, 2) or RGB888/BGR888 (12, 13)"
                      : " is not YUV420SP NV12 (1) or NV21 (2)"));
  check_vpc_layout(*d, what, rgb);
  Pic p;
  p.image = image_of(*d, kind_of(d->format), d->width, d->height);
  const std::uint64_t bytes = picture_bytes(p.image.kind, d->width_stride, d->height_stride);
  require(d->size >= bytes, ACL_ERROR_INVALID_PARAM,
          what + ": size " + std::to_string(d->size) + " is smaller than the picture's " +
              std::to_string(bytes) + " bytes");
  p.range = device_range(c, d->data, bytes, what + " data");
  return p;
}

}  // namespace npusim::rt::dvpp
