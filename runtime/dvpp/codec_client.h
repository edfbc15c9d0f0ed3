// SPDX-License-Identifier: Apache-2.0
// The runtime's view of the video codecs: VideoDecoder / VideoEncoder (video_codec.h) backed by
// the codec library's C table (codec_abi.h, loaded by codec_loader.h). image_ops.h's jpeg_* and
// png_* are forwarded the same way (codec_client.cpp).
//
// create_decoder() and encoder_available() are called inside API calls: when the codec library
// cannot be loaded they fail the call (ApiError, ACL_ERROR_FEATURE_UNSUPPORTED). The functions
// used later, in tasks (write_yuv420sp, the objects' methods), return false with the reason.
#pragma once

#include <memory>
#include <string>

#include "runtime/dvpp/video_codec.h"

namespace npusim::rt::dvpp::codec {

std::unique_ptr<::npusim::dvpp::VideoDecoder> create_decoder(::npusim::dvpp::VideoCodec codec,
                                                             std::string* error);
bool encoder_available(::npusim::dvpp::VideoCodec codec);
std::unique_ptr<::npusim::dvpp::VideoEncoder> create_encoder(
    const ::npusim::dvpp::EncoderParams& params, std::string* error);
bool write_yuv420sp(const ::npusim::dvpp::YuvImage& image,
                    const ::npusim::dvpp::Yuv420spLayout& layout, std::uint8_t* dst,
                    std::size_t dst_size, std::string* error);

}  // namespace npusim::rt::dvpp::codec
