// SPDX-License-Identifier: Apache-2.0
// C skin of VENC (acl/ops/acl_dvpp.h: aclvenc*): the channel and frame configuration
// descriptions, and the channel calls (model: runtime/dvpp/video_channel.h). The pictures sent
// are read when the call is made; the stream description each callback gets is the channel's.
#include <cstring>
#include <memory>
#include <string>

#include "runtime/dvpp/video_descs.h"

using namespace npusim::rt;         // NOLINT(google-build-using-namespace): the C skin only
using namespace npusim::rt::dvpp;   // NOLINT(google-build-using-namespace)

extern "C" {

// ---- VENC channel description ----

aclvencChannelDesc* aclvencCreateChannelDesc() {
  return api_value<aclvencChannelDesc*>("aclvencCreateChannelDesc", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvencChannelDesc; });
}

aclError aclvencDestroyChannelDesc(aclvencChannelDesc* channelDesc) {
  return api_any("aclvencDestroyChannelDesc", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is still open: call aclvencDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc* channelDesc, uint64_t threadId) {
  return set_thread("aclvencSetChannelDescThreadId", channelDesc, threadId);
}

aclError aclvencSetChannelDescCallback(aclvencChannelDesc* channelDesc, aclvencCallback callback) {
  return set_callback("aclvencSetChannelDescCallback", channelDesc, callback);
}

aclError aclvencSetChannelDescEnType(aclvencChannelDesc* channelDesc, acldvppStreamFormat enType) {
  return set_en_type("aclvencSetChannelDescEnType", channelDesc, as_int(enType));
}

aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc* channelDesc,
                                        acldvppPixelFormat picFormat) {
  const int v = as_int(picFormat);
  return set_field("aclvencSetChannelDescPicFormat", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.pic_format = v; });
}

aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc* channelDesc, uint32_t picWidth) {
  return set_field("aclvencSetChannelDescPicWidth", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.width = picWidth; });
}

aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc* channelDesc, uint32_t picHeight) {
  return set_field("aclvencSetChannelDescPicHeight", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.height = picHeight; });
}

aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc* channelDesc,
                                               uint32_t keyFrameInterval) {
  return set_field("aclvencSetChannelDescKeyFrameInterval", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.key_frame_interval = keyFrameInterval; });
}

aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc* channelDesc, void* bufAddr) {
  return set_field("aclvencSetChannelDescBufAddr", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.buf_addr = bufAddr; });
}

aclError aclvencSetChannelDescBufSize(aclvencChannelDesc* channelDesc, uint32_t bufSize) {
  return set_field("aclvencSetChannelDescBufSize", channelDesc,
                   [&](aclvencChannelDesc& d) { d.config.buf_size = bufSize; });
}

aclError aclvencSetChannelDescRcMode(aclvencChannelDesc* channelDesc, uint32_t rcMode) {
  return set_field("aclvencSetChannelDescRcMode", channelDesc, [&](aclvencChannelDesc& d) {
    require(rcMode <= 2, ACL_ERROR_INVALID_PARAM,
            "rcMode " + std::to_string(rcMode) + " is not 0 (default), 1 (VBR) or 2 (CBR)");
    d.config.rc_mode = rcMode;
  });
}

aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc* channelDesc, uint32_t srcRate) {
  return set_field("aclvencSetChannelDescSrcRate", channelDesc, [&](aclvencChannelDesc& d) {
    require(srcRate <= 120, ACL_ERROR_INVALID_PARAM,
            "srcRate " + std::to_string(srcRate) + " is above 120 frames per second");
    d.config.src_rate = srcRate;
  });
}

aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc* channelDesc, uint32_t maxBitRate) {
  return set_field("aclvencSetChannelDescMaxBitRate", channelDesc, [&](aclvencChannelDesc& d) {
    require(maxBitRate <= 614400, ACL_ERROR_INVALID_PARAM,
            "maxBitRate " + std::to_string(maxBitRate) + " kbit/s is above 614400");
    d.config.max_bit_rate = maxBitRate;
  });
}

void* aclvencGetChannelDescBufAddr(const aclvencChannelDesc* channelDesc) {
  return get_field<void*>("aclvencGetChannelDescBufAddr", channelDesc, nullptr,
                          [](const aclvencChannelDesc& d) { return d.config.buf_addr; });
}

uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescBufSize", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.buf_size; });
}

uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescChannelId", channelDesc, 0u,
                             [](const aclvencChannelDesc&) { return 0u; });
}

uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc* channelDesc) {
  return get_field<uint64_t>("aclvencGetChannelDescThreadId", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.thread; });
}

aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc* channelDesc) {
  return get_field<aclvencCallback>("aclvencGetChannelDescCallback", channelDesc, nullptr,
                                    [](const aclvencChannelDesc& d) { return d.config.callback; });
}

acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc* channelDesc) {
  return get_field<acldvppStreamFormat>(
      "aclvencGetChannelDescEnType", channelDesc, H265_MAIN_LEVEL,
      [](const aclvencChannelDesc& d) { return enum_value<acldvppStreamFormat>(d.config.en_type); });
}

acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc* channelDesc) {
  return get_field<acldvppPixelFormat>(
      "aclvencGetChannelDescPicFormat", channelDesc, PIXEL_FORMAT_YUV_SEMIPLANAR_420,
      [](const aclvencChannelDesc& d) {
        return enum_value<acldvppPixelFormat>(d.config.pic_format);
      });
}

uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescPicWidth", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.width; });
}

uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescPicHeight", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.height; });
}

uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescKeyFrameInterval", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.key_frame_interval; });
}

uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescRcMode", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.rc_mode; });
}

uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescSrcRate", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.src_rate; });
}

uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc* channelDesc) {
  return get_field<uint32_t>("aclvencGetChannelDescMaxBitRate", channelDesc, 0u,
                             [](const aclvencChannelDesc& d) { return d.config.max_bit_rate; });
}

aclError aclvencSetChannelDescParam(aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    const void* param) {
  const int type = as_int(paramType);
  return set_field("aclvencSetChannelDescParam", channelDesc, [&](aclvencChannelDesc& d) {
    require_not_null(param, "param");
    auto take = [&](auto& field) {
      require(length == sizeof field, ACL_ERROR_INVALID_PARAM,
              "length " + std::to_string(length) + " differs from the parameter's size " +
                  std::to_string(sizeof field));
      std::memcpy(&field, param, sizeof field);
    };
    switch (type) {
      case ACL_VENC_THREAD_ID_UINT64: take(d.config.thread); break;
      case ACL_VENC_CALLBACK_PTR: take(d.config.callback); break;
      case ACL_VENC_PIXEL_FORMAT_UINT32: take(d.config.pic_format); break;
      case ACL_VENC_ENCODE_TYPE_UINT32: {
        int v = 0;
        take(v);
        check_stream_format(v);
        d.config.en_type = v;
        break;
      }
      case ACL_VENC_PIC_WIDTH_UINT32: take(d.config.width); break;
      case ACL_VENC_PIC_HEIGHT_UINT32: take(d.config.height); break;
      case ACL_VENC_KEY_FRAME_INTERVAL_UINT32: take(d.config.key_frame_interval); break;
      case ACL_VENC_BUF_ADDR_PTR: take(d.config.buf_addr); break;
      case ACL_VENC_BUF_SIZE_UINT32: take(d.config.buf_size); break;
      case ACL_VENC_RC_MODE_UINT32: take(d.config.rc_mode); break;
      case ACL_VENC_SRC_RATE_UINT32: take(d.config.src_rate); break;
      case ACL_VENC_MAX_BITRATE_UINT32: take(d.config.max_bit_rate); break;
      case ACL_VENC_MAX_IP_PROP_UINT32: take(d.ip_prop); break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "paramType " + std::to_string(type) + " is unknown");
    }
  });
}

aclError aclvencGetChannelDescParam(const aclvencChannelDesc* channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    size_t* paramRetSize, void* param) {
  const int type = as_int(paramType);
  return api_any("aclvencGetChannelDescParam", [&](Call&) {
    require_not_null(channelDesc, "channelDesc");
    require_not_null(paramRetSize, "paramRetSize");
    require_not_null(param, "param");
    const aclvencChannelDesc& d = *channelDesc;
    auto give = [&](const auto& field) {
      require(length >= sizeof field, ACL_ERROR_INVALID_PARAM,
              "length " + std::to_string(length) + " is below the parameter's size " +
                  std::to_string(sizeof field));
      std::memcpy(param, &field, sizeof field);
      *paramRetSize = sizeof field;
    };
    switch (type) {
      case ACL_VENC_THREAD_ID_UINT64: give(d.config.thread); break;
      case ACL_VENC_CALLBACK_PTR: give(d.config.callback); break;
      case ACL_VENC_PIXEL_FORMAT_UINT32: give(d.config.pic_format); break;
      case ACL_VENC_ENCODE_TYPE_UINT32: give(d.config.en_type); break;
      case ACL_VENC_PIC_WIDTH_UINT32: give(d.config.width); break;
      case ACL_VENC_PIC_HEIGHT_UINT32: give(d.config.height); break;
      case ACL_VENC_KEY_FRAME_INTERVAL_UINT32: give(d.config.key_frame_interval); break;
      case ACL_VENC_BUF_ADDR_PTR: give(d.config.buf_addr); break;
      case ACL_VENC_BUF_SIZE_UINT32: give(d.config.buf_size); break;
      case ACL_VENC_RC_MODE_UINT32: give(d.config.rc_mode); break;
      case ACL_VENC_SRC_RATE_UINT32: give(d.config.src_rate); break;
      case ACL_VENC_MAX_BITRATE_UINT32: give(d.config.max_bit_rate); break;
      case ACL_VENC_MAX_IP_PROP_UINT32: give(d.ip_prop); break;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "paramType " + std::to_string(type) + " is unknown");
    }
  });
}

// ---- VENC frame configuration ----

aclvencFrameConfig* aclvencCreateFrameConfig() {
  return api_value<aclvencFrameConfig*>("aclvencCreateFrameConfig", Needs::kNothing, nullptr,
                                        [](Call&) { return new aclvencFrameConfig; });
}

aclError aclvencDestroyFrameConfig(aclvencFrameConfig* config) {
  return api_any("aclvencDestroyFrameConfig", [&](Call&) {
    require_not_null(config, "config");
    delete config;
  });
}

aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig* config, uint8_t forceIFrame) {
  return api_any("aclvencSetFrameConfigForceIFrame", [&](Call&) {
    require_not_null(config, "config");
    require(forceIFrame <= 1, ACL_ERROR_INVALID_PARAM, "forceIFrame must be 0 or 1");
    config->force_i_frame = forceIFrame;
  });
}

aclError aclvencSetFrameConfigEos(aclvencFrameConfig* config, uint8_t eos) {
  return api_any("aclvencSetFrameConfigEos", [&](Call&) {
    require_not_null(config, "config");
    require(eos <= 1, ACL_ERROR_INVALID_PARAM, "eos must be 0 or 1");
    config->eos = eos;
  });
}

uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig* config) {
  return config == nullptr ? 0 : config->force_i_frame;
}

uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig* config) {
  return config == nullptr ? 0 : config->eos;
}

// ---- VENC channel ----

aclError aclvencCreateChannel(aclvencChannelDesc* channelDesc) {
  auto out = std::make_unique<acldvppStreamDesc>();  // what the callbacks get
  bool made = false;
  const aclError rc = api("aclvencCreateChannel", [&](Call& c) {
    require_not_null(channelDesc, "channelDesc");
    require(channelDesc->channel == nullptr, ACL_ERROR_INVALID_PARAM,
            "the channel is already created");
    channelDesc->channel = VencChannel::create(c, channelDesc->config, out.get());
    made = true;
  });
  if (made) (void)out.release();  // the channel's until aclvencDestroyChannel
  return rc;
}

aclError aclvencDestroyChannel(aclvencChannelDesc* channelDesc) {
  acldvppStreamDesc* out = nullptr;
  const aclError rc = api("aclvencDestroyChannel", [&](Call& c) {
    std::shared_ptr<VencChannel> ch = open_channel(channelDesc, "aclvencCreateChannel");
    ch->destroy(c);
    out = ch->out_desc();
    channelDesc->channel.reset();
  });
  delete out;
  return rc;
}

aclError aclvencSendFrame(aclvencChannelDesc* channelDesc, acldvppPicDesc* input, void* reserve,
                          aclvencFrameConfig* config, void* userdata) {
  (void)reserve;  // reserved by CANN
  const PicInfo in = read_pic(input);
  return api("aclvencSendFrame", [&](Call& c) {
    std::shared_ptr<VencChannel> ch = open_channel(channelDesc, "aclvencCreateChannel");
    require_not_null(config, "config");
    if (config->eos != 0) {
      ch->end_of_stream(c);
      return;
    }
    ch->send(c, in, config->force_i_frame != 0, userdata);
  });
}

}  // extern "C"
