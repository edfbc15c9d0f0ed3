// SPDX-License-Identifier: Apache-2.0
// The VDEC and VENC descriptions of the C skin (acl_vdec.cpp, acl_venc.cpp) and the helpers their
// setters and getters share. Picture and stream descriptions: runtime/dvpp/descriptors.h.
#ifndef NPUSIM_RUNTIME_DVPP_VIDEO_DESCS_H_
#define NPUSIM_RUNTIME_DVPP_VIDEO_DESCS_H_

#include <cstring>
#include <memory>
#include <string>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/video_channel.h"

struct aclvdecChannelDesc {
  npusim::rt::dvpp::VdecConfig config;
  std::uint32_t ref_frame_num = 0;
  std::uint32_t bit_depth = 0;
  std::uint32_t out_mode = 0;
  // Open between aclvdecCreateChannel and aclvdecDestroyChannel.
  std::shared_ptr<npusim::rt::dvpp::VdecChannel> channel;
};

struct aclvdecFrameConfig {
  int reserved = 0;
};

struct aclvencChannelDesc {
  npusim::rt::dvpp::VencConfig config;
  std::uint32_t ip_prop = 0;
  std::shared_ptr<npusim::rt::dvpp::VencChannel> channel;
};

struct aclvencFrameConfig {
  std::uint8_t force_i_frame = 0;
  std::uint8_t eos = 0;
};

namespace npusim::rt::dvpp {

template <class T>
T enum_value(int v) {
  T e;
  std::memcpy(&e, &v, sizeof e);
  return e;
}

/// A setter on a description: checks it and runs `set`.
template <class D, class F>
aclError set_field(const char* name, D* desc, F&& set) {
  return api_any(name, [&](Call&) {
    require_not_null(desc, "channelDesc");
    set(*desc);
  });
}

/// A getter: the field, or CANN's default `fallback` for a NULL description (plain host objects,
/// as the picture and stream descriptions' getters: no lock, no trace).
template <class T, class D, class F>
T get_field(const char* /*name*/, const D* desc, T fallback, F&& get) {
  return desc == nullptr ? fallback : get(*desc);
}

inline void check_stream_format(int v) {
  require(v >= H265_MAIN_LEVEL && v <= H264_HIGH_LEVEL, ACL_ERROR_INVALID_PARAM,
          "enType " + std::to_string(v) +
              " is not a stream format (0 = H.265 main, 1..3 = H.264 baseline/main/high)");
}


/// The setters VDEC and VENC descriptions share (both keep them in `config`).
template <class D>
aclError set_thread(const char* name, D* desc, std::uint64_t thread) {
  return set_field(name, desc, [&](D& d) { d.config.thread = thread; });
}

template <class D, class Callback>
aclError set_callback(const char* name, D* desc, Callback callback) {
  return set_field(name, desc, [&](D& d) {
    require(callback != nullptr, ACL_ERROR_INVALID_PARAM, "callback is NULL");
    d.config.callback = callback;
  });
}

template <class D>
aclError set_en_type(const char* name, D* desc, int en_type) {
  return set_field(name, desc, [&](D& d) {
    check_stream_format(en_type);
    d.config.en_type = en_type;
  });
}

/// The open channel of a description (`create`: the call that opens it, for the error).
template <class D>
auto open_channel(D* desc, const char* create) {
  require_not_null(desc, "channelDesc");
  require(desc->channel != nullptr, ACL_ERROR_INVALID_PARAM,
          std::string("the channel was not created (") + create + ")");
  return desc->channel;
}

}  // namespace npusim::rt::dvpp

#endif  // NPUSIM_RUNTIME_DVPP_VIDEO_DESCS_H_
