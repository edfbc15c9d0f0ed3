// SPDX-License-Identifier: Apache-2.0
// JPEG and PNG decoding/encoding over libjpeg-turbo and libpng, as image_ops.h documents them
// (jpeg_info, jpeg_decode, jpeg_encode, png_info, png_decode there have these semantics). Compiled
// into the codec library libacl_dvpp.so only; the runtime reaches them through its C table
// (codec_abi.h), never by linking them.
#pragma once

#include "runtime/dvpp/image_ops.h"

namespace npusim::rt::dvpp::codecs {

bool jpeg_info(const void* data, std::size_t size, JpegInfo& info, std::string& why);
bool jpeg_decode(const void* data, std::size_t size, const Image& out, std::string& why);
bool jpeg_encode(const Image& in, int quality, void* dst, std::size_t capacity,
                 std::size_t& written, std::string& why);
bool png_info(const void* data, std::size_t size, PngInfo& info, std::string& why);
bool png_decode(const void* data, std::size_t size, const Image& out, std::string& why);

}  // namespace npusim::rt::dvpp::codecs
