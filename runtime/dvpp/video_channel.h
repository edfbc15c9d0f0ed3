// SPDX-License-Identifier: Apache-2.0
// VDEC and VENC channels (aclvdec*/aclvenc*; runtime/dvpp/acl_vdec.cpp and acl_venc.cpp are the
// C skin): plain C++ over the runtime's internal API and the codec layer (video_codec.h).
//
// A channel owns a codec, an internal stream in the creating thread's context and the
// subscription of the user's callback thread to it (aclrtSubscribeReport, as CANN does inside
// aclvdecCreateChannel). Each aclvdecSendFrame / aclvencSendFrame is one DVPP task of the VDEC /
// VENC module on that stream (the module times it: models/dvpp.h), followed by one media
// callback report per picture / packet it released (callback.h, Report::api_allowed): the user's
// thread runs the callback from aclrtProcessReport, and may call the runtime inside it. The
// reports do not block the stream, so the module decodes ahead of the callbacks as the hardware
// does (one frame at a time per channel: a channel's tasks share its stream).
//
// Functionally, the codec runs when the frame is sent (it reads the input then, as the hardware
// takes the frame); the decoded picture is written into the output buffer by the task's effect
// (at the task's simulated end); the encoded packet is copied into the channel's output buffer
// just before its callback runs (callbacks of a channel run one at a time, so one buffer serves).
//
// Output matching (VDEC): pictures leave the decoder in display order; each takes the oldest
// output picture description not yet used. At end of stream (an EOS stream description, or
// aclvdecDestroyChannel) the decoder is flushed; output descriptions left without a picture get
// their callback with retCode kVideoNoPicture. EOS and destroy return when every callback of the
// channel has returned.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "runtime/dvpp/video_codec.h"

namespace npusim::rt {
class Call;
}

namespace npusim::rt::dvpp {

using ::npusim::dvpp::ChromaOrder;
using ::npusim::dvpp::EncoderParams;
using ::npusim::dvpp::H264Profile;
using ::npusim::dvpp::VideoCodec;
using ::npusim::dvpp::VideoDecoder;
using ::npusim::dvpp::VideoEncoder;
using ::npusim::dvpp::Yuv420spLayout;
using ::npusim::dvpp::YuvImage;

/// retCode of an output description that got no picture (its frame was skipped, the stream ended
/// before the decoder released one, or the frame could not be decoded).
constexpr std::uint32_t kVideoNoPicture = 1;
/// retCode of an output buffer too small for the picture.
constexpr std::uint32_t kVideoBufferTooSmall = 2;

/// An acldvppPicDesc as the call saw it (read before the call takes the lock).
struct PicInfo {
  acldvppPicDesc* desc = nullptr;
  void* data = nullptr;
  std::uint32_t size = 0;
  int format = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t width_stride = 0;
  std::uint32_t height_stride = 0;
};
/// Reads `desc` through the public getters (no lock may be held). desc may be NULL.
PicInfo read_pic(acldvppPicDesc* desc);

/// An acldvppStreamDesc as the call saw it.
struct StreamInfo {
  acldvppStreamDesc* desc = nullptr;
  void* data = nullptr;
  std::uint32_t size = 0;
  bool eos = false;
};
StreamInfo read_stream(acldvppStreamDesc* desc);

/// Shared by a channel and its callbacks in flight (which may outlive a failed destroy).
struct CallbackCount {
  std::atomic<int> outstanding{0};
};

struct VdecConfig {
  std::uint32_t channel_id = 0;
  std::uint64_t thread = 0;
  aclvdecCallback callback = nullptr;
  int en_type = H265_MAIN_LEVEL;
  int out_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  std::uint32_t out_width = 0;   // 0 = the stream's
  std::uint32_t out_height = 0;
};

class VdecChannel {
 public:
  /// aclvdecCreateChannel's body: validates, makes the decoder, stream and subscription.
  static std::shared_ptr<VdecChannel> create(Call& call, const VdecConfig& config);
  /// aclvdecSendFrame / aclvdecSendSkippedFrame (output.desc NULL and skipped) bodies.
  void send(Call& call, const StreamInfo& input, const PicInfo& output, void* user_data,
            bool skipped);
  /// End of stream: flush, deliver, and wait until every callback returned.
  void end_of_stream(Call& call);
  /// aclvdecDestroyChannel's body: end of stream, then unsubscribes and destroys the stream.
  void destroy(Call& call);

 private:
  struct Pending {
    acldvppStreamDesc* input = nullptr;
    PicInfo output;
    void* user_data = nullptr;
    bool skipped = false;
    bool failed = false;  // the frame could not be decoded
  };
  struct Delivery;

  struct Batch;  // what one emit submits: the task's work and writes, the callbacks

  VdecChannel(const VdecConfig& config, std::unique_ptr<VideoDecoder> decoder);
  /// Matches `pictures` to pending outputs, submits the VDEC task and the callbacks.
  void emit(Call& call, std::vector<YuvImage> pictures, std::uint32_t read_bytes,
            bool end_of_stream);
  /// A callback for pending output `p` (retCode "no picture" until a picture fills it).
  Delivery* deliver(Batch& b, const Pending& p);
  /// Failed frames release no picture: their outputs report at once, in order.
  void flush_failed(Batch& b);
  /// Every pending output reports "no picture" (end of stream).
  void deliver_all(Batch& b);
  /// The next pending output gets `pic` (written by the task unless the frame was skipped).
  void take_picture(Batch& b, YuvImage& pic, std::uint32_t read_bytes);
  void submit_work(Call& call, Batch& b, std::uint32_t read_bytes);
  void wait_callbacks(Call& call);

  VdecConfig config_;
  std::unique_ptr<VideoDecoder> decoder_;
  void* stream_ = nullptr;
  std::deque<Pending> pending_;
  std::uint32_t last_width_ = 0;
  std::uint32_t last_height_ = 0;
  std::shared_ptr<CallbackCount> callbacks_ = std::make_shared<CallbackCount>();
};

struct VencConfig {
  std::uint64_t thread = 0;
  aclvencCallback callback = nullptr;
  int en_type = H265_MAIN_LEVEL;
  int pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t key_frame_interval = 16;
  std::uint32_t rc_mode = 0;  // 0 = default (VBR), 1 = VBR, 2 = CBR
  std::uint32_t src_rate = 0;       // frames per second; 0 = 30
  std::uint32_t max_bit_rate = 0;   // kbit/s; 0 = 2000
  void* buf_addr = nullptr;  // the user's output buffer (aclvencSetChannelDescBufAddr), or NULL
  std::uint32_t buf_size = 0;
};

class VencChannel {
 public:
  /// aclvencCreateChannel's body. `out_desc` is the stream description the callbacks get
  /// (created by the caller through acldvppCreateStreamDesc).
  static std::shared_ptr<VencChannel> create(Call& call, const VencConfig& config,
                                             acldvppStreamDesc* out_desc);
  /// aclvencSendFrame with a picture.
  void send(Call& call, const PicInfo& input, bool force_idr, void* user_data);
  /// aclvencSendFrame with EOS (and aclvencDestroyChannel): flush, deliver, wait for callbacks.
  void end_of_stream(Call& call);
  void destroy(Call& call);
  acldvppStreamDesc* out_desc() const { return out_desc_; }

 private:
  struct Delivery;
  VencChannel(const VencConfig& config, std::unique_ptr<VideoEncoder> encoder,
              acldvppStreamDesc* out_desc);
  void emit(Call& call, std::vector<std::vector<std::uint8_t>> packets, acldvppPicDesc* input,
            void* user_data, std::uint64_t pixels, std::uint64_t read_bytes);

  VencConfig config_;
  std::unique_ptr<VideoEncoder> encoder_;
  acldvppStreamDesc* out_desc_ = nullptr;
  void* stream_ = nullptr;
  void* out_buf_ = nullptr;  // device memory for the packet of the running callback
  std::uint32_t out_size_ = 0;
  bool own_buf_ = false;
  bool ended_ = false;
  std::shared_ptr<CallbackCount> callbacks_ = std::make_shared<CallbackCount>();
};

}  // namespace npusim::rt::dvpp
