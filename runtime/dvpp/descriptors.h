// SPDX-License-Identifier: Apache-2.0
// The DVPP descriptor objects behind acl/ops/acl_dvpp.h's opaque types (plain data; CANN's
// defaults). Shared by the image calls and the video calls (aclvdec*/aclvenc* use the picture
// and stream descriptors).
#pragma once

#include <cstdint>
#include <vector>

struct acldvppPicDesc {
  void* data = nullptr;
  std::uint32_t size = 0;
  std::uint32_t format = 0;  // acldvppPixelFormat; CANN's default PIXEL_FORMAT_YUV_400
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t width_stride = 0;
  std::uint32_t height_stride = 0;
  std::uint32_t ret_code = 0;
};

struct acldvppBatchPicDesc {
  std::vector<acldvppPicDesc> pics;
};

struct acldvppRoiConfig {
  std::uint32_t left = 0;
  std::uint32_t right = 0;
  std::uint32_t top = 0;
  std::uint32_t bottom = 0;
};

struct acldvppResizeConfig {
  std::uint32_t interpolation = 0;
};

struct acldvppJpegeConfig {
  std::uint32_t level = 100;  // CANN's default encoding quality
};

struct acldvppChannelDesc {
  std::uint64_t id = 0;
  std::uint32_t mode = 0;  // acldvppChannelMode bits; 0 = every image module
  bool created = false;    // acldvppCreateChannel succeeded, acldvppDestroyChannel not yet
  std::uint32_t csc_matrix = 0;
};

struct acldvppStreamDesc {
  void* data = nullptr;
  std::uint32_t size = 0;
  std::uint32_t format = 0;  // acldvppStreamFormat
  std::uint64_t timestamp = 0;
  std::uint32_t ret_code = 0;
  std::uint8_t eos = 0;
};
