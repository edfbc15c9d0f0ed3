// SPDX-License-Identifier: Apache-2.0
// C skin of VDEC (acl/ops/acl_dvpp.h: aclvdec*): the channel and frame configuration
// descriptions, and the channel calls (model: runtime/dvpp/video_channel.h). Picture and stream
// descriptions (runtime/dvpp/descriptors.h) are read when the call is made and updated just
// before the callback that hands them back runs.
#include <memory>
#include <string>

#include "runtime/dvpp/video_descs.h"

using namespace npusim::rt;         // NOLINT(google-build-using-namespace): the C skin only
using namespace npusim::rt::dvpp;   // NOLINT(google-build-using-namespace)

extern "C" {

// ---- VDEC channel description ----

aclvdecChannelDesc* aclvdecCreateChannelDesc() {
  return api_value<aclvdecChannelDesc*>("aclvdecCreateChannelDesc", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvdecChannelDesc; });
}

aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc* channelDesc) {
  return api_any("aclvdecDestroyChannelDesc", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is still open: call aclvdecDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc* channelDesc, uint32_t channelId) {
  return set_field("aclvdecSetChannelDescChannelId", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.channel_id = channelId; });
}

aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc* channelDesc, uint64_t threadId) {
  return set_thread("aclvdecSetChannelDescThreadId", channelDesc, threadId);
}

aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc* channelDesc, aclvdecCallback callback) {
  return set_callback("aclvdecSetChannelDescCallback", channelDesc, callback);
}

aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc* channelDesc, acldvppStreamFormat enType) {
  return set_en_type("aclvdecSetChannelDescEnType", channelDesc, as_int(enType));
}

aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc* channelDesc,
                                           acldvppPixelFormat outPicFormat) {
  const int v = as_int(outPicFormat);
  return set_field("aclvdecSetChannelDescOutPicFormat", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_format = v; });
}

aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc* channelDesc, uint32_t outPicWidth) {
  return set_field("aclvdecSetChannelDescOutPicWidth", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_width = outPicWidth; });
}

aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc* channelDesc, uint32_t outPicHeight) {
  return set_field("aclvdecSetChannelDescOutPicHeight", channelDesc,
                   [&](aclvdecChannelDesc& d) { d.config.out_height = outPicHeight; });
}

aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc* channelDesc, uint32_t refFrameNum) {
  return set_field("aclvdecSetChannelDescRefFrameNum", channelDesc, [&](aclvdecChannelDesc& d) {
    require(refFrameNum <= 16, ACL_ERROR_INVALID_PARAM,
            "refFrameNum " + std::to_string(refFrameNum) + " is above 16");
    d.ref_frame_num = refFrameNum;
  });
}

aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc* channelDesc, uint32_t bitDepth) {
  return set_field("aclvdecSetChannelDescBitDepth", channelDesc, [&](aclvdecChannelDesc& d) {
    require(bitDepth == 0 || bitDepth == 1, ACL_ERROR_INVALID_PARAM,
            "bitDepth " + std::to_string(bitDepth) + " is not 0 (8 bits) or 1 (10 bits)");
    d.bit_depth = bitDepth;
  });
}

aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc* channelDesc, uint32_t outMode) {
  return set_field("aclvdecSetChannelDescOutMode", channelDesc, [&](aclvdecChannelDesc& d) {
    require(outMode <= 1, ACL_ERROR_INVALID_PARAM,
            "outMode " + std::to_string(outMode) + " is not 0 (default) or 1 (fast output)");
    d.out_mode = outMode;
  });
}

uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescChannelId", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.channel_id; });
}

uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint64_t>("aclvdecGetChannelDescThreadId", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.thread; });
}

aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc* channelDesc) {
  return get_field<aclvdecCallback>("aclvdecGetChannelDescCallback", channelDesc, nullptr,
                                    [](const aclvdecChannelDesc& d) { return d.config.callback; });
}

acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc* channelDesc) {
  return get_field<acldvppStreamFormat>(
      "aclvdecGetChannelDescEnType", channelDesc, H265_MAIN_LEVEL,
      [](const aclvdecChannelDesc& d) { return enum_value<acldvppStreamFormat>(d.config.en_type); });
}

acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc* channelDesc) {
  return get_field<acldvppPixelFormat>(
      "aclvdecGetChannelDescOutPicFormat", channelDesc, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
      [](const aclvdecChannelDesc& d) {
        return enum_value<acldvppPixelFormat>(d.config.out_format);
      });
}

uint32_t aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutPicWidth", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.out_width; });
}

uint32_t aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutPicHeight", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.config.out_height; });
}

uint32_t aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescRefFrameNum", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.ref_frame_num; });
}

uint32_t aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescBitDepth", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.bit_depth; });
}

uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvdecGetChannelDescOutMode", channelDesc, 0u,
                             [](const aclvdecChannelDesc& d) { return d.out_mode; });
}

aclvdecFrameConfig* aclvdecCreateFrameConfig() {
  return api_value<aclvdecFrameConfig*>("aclvdecCreateFrameConfig", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvdecFrameConfig; });
}

aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig* vdecFrameConfig) {
  return api_any("aclvdecDestroyFrameConfig", [&](Call&) {
    require_not_null(vdecFrameConfig, "vdecFrameConfig");
    delete vdecFrameConfig;
  });
}

// ---- VDEC channel ----

aclError aclvdecCreateChannel(aclvdecChannelDesc* channelDesc) {
  return api("aclvdecCreateChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is already created");
    channelDesc->channel = VdecChannel::create(c, channelDesc->config);
  });
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc* channelDesc) {
  return api("aclvdecDestroyChannel", [&](Call& c) {
    std::shared_ptr<VdecChannel> ch = open_channel(channelDesc, "aclvdecCreateChannel");
    ch->destroy(c);
    channelDesc->channel.reset();
  });
}

aclError aclvdecSendFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                          acldvppPicDesc* output, aclvdecFrameConfig* config, void* userData) {
  (void)config;  // no per-frame settings
  const StreamInfo in = read_stream(input);
  const PicInfo out = read_pic(output);
  return api("aclvdecSendFrame", [&](Call& c) {
    std::shared_ptr<VdecChannel> ch = open_channel(channelDesc, "aclvdecCreateChannel");
    require_not_null(input, "input");
    if (in.eos) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, out, userData, false);
  });
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc* channelDesc, acldvppStreamDesc* input,
                                 aclvdecFrameConfig* config, void* userData) {
  (void)config;
  const StreamInfo in = read_stream(input);
  return api("aclvdecSendSkippedFrame", [&](Call& c) {
    std::shared_ptr<VdecChannel> ch = open_channel(channelDesc, "aclvdecCreateChannel");
    require_not_null(input, "input");
    if (in.eos) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, PicInfo{}, userData, true);
  });
}

}  // extern "C"
