// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/video_channel.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "runtime/core/api_call.h"
#include "runtime/dvpp/codec_client.h"
#include "runtime/dvpp/descriptors.h"
#include "runtime/dvpp/dvpp_task.h"
#include "runtime/core/errors.h"
#include "runtime/core/host_callback.h"
#include "runtime/core/memory.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/stream.h"
#include "sim/log.h"

namespace npusim::rt::dvpp {
namespace {

using ::npusim::dvpp::read_yuv420sp;
using ::npusim::dvpp::vdec_layout;
using ::npusim::dvpp::video_codec_name;

constexpr std::uint32_t kMaxChannelId = 256;  // VDEC and JPEGD share 256 channels (CANN)
constexpr std::uint32_t kMinSide = 128;       // VDEC input / VENC picture: 128 x 128 ...
constexpr std::uint32_t kMaxSide = 4096;      // ... to 4096 x 4096 (Atlas inference products)

std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

ChromaOrder order_of(int format) {
  return format == PIXEL_FORMAT_YVU_SEMIPLANAR_420 ? ChromaOrder::kNv21 : ChromaOrder::kNv12;
}

/// NV12 / NV21 are what npusim's VDEC writes and VENC reads; the RGB outputs some products offer
/// are not implemented (documented code); anything else is not a video format.
void check_yuv420sp(int format, const char* what, const char* api) {
  if (format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_420) return;
  if (format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_BGR_888) {
    fail(ACL_ERROR_FEATURE_UNSUPPORTED,
         std::string(api) + ": " + what + " RGB888/BGR888 is not supported by npusim (NV12 and NV21 are)");
  }
  fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + what + " " + std::to_string(format) +
                                    " is not a video format (1 = NV12, 2 = NV21)");
}

VideoCodec codec_of(int en_type) {
  return en_type == H265_MAIN_LEVEL ? VideoCodec::kH265 : VideoCodec::kH264;
}

void check_en_type(int en_type, const char* api) {
  require(en_type >= H265_MAIN_LEVEL && en_type <= H264_HIGH_LEVEL, ACL_ERROR_INVALID_PARAM,
          std::string(api) + ": enType " + std::to_string(en_type) +
              " is not a stream format (0 = H.265 main, 1..3 = H.264 baseline/main/high)");
}

/// Device memory of `bytes` at `p` the DVPP may read (write).
const Allocation& device_buffer(Call& call, const void* p, std::uint64_t bytes, bool write,
                                const char* what) {
  require(p != nullptr, ACL_ERROR_INVALID_PARAM, std::string(what) + " data is NULL");
  MemoryRegistry& mem = call.runtime().memory();
  const Allocation* a = mem.find(p);
  require(a != nullptr && a->kind != MemKind::kHostPinned &&
              a->contains(reinterpret_cast<std::uintptr_t>(p), bytes),
          ACL_ERROR_INVALID_PARAM,
          std::string(what) + " (" + std::to_string(bytes) + " bytes) is not in device memory" +
              (write ? " the DVPP can write" : ""));
  return *a;
}

/// Runs when a media callback returned: one fewer in flight (the runtime then wakes the waiters:
/// Runtime::media_callback_end).
void callback_returned(const std::shared_ptr<CallbackCount>& count) { --count->outstanding; }

/// Waits (in the calling API call) until every callback of the channel returned.
void wait_returned(Call& call, const std::shared_ptr<CallbackCount>& count, const char* what) {
  if (count->outstanding.load() == 0) return;
  const WaitResult r = call.wait([count] { return count->outstanding.load() == 0; }, kForever,
                                 [what] { return std::string(what) + " waits for its callbacks"; });
  require(r == WaitResult::kDone, ACL_ERROR_RT_INTERNAL_ERROR,
          std::string(what) + ": the channel's callbacks did not return (is the callback thread "
                              "still calling aclrtProcessReport?)");
}

void* open_stream(Call& call, std::uint64_t thread) {
  void* stream = create_stream(call, 0, 0);
  try {
    subscribe_reports(call, ReportKind::kCallback, thread, stream);
  } catch (...) {
    destroy_stream(call, stream, true);
    throw;
  }
  return stream;
}

void close_stream(Call& call, void* stream, std::uint64_t thread) {
  unsubscribe_reports(call, ReportKind::kCallback, thread, stream);
  destroy_stream(call, stream, false);
}

/// Launches callback `d` on `stream` (D::run deletes it), counted in `count` until it returns.
template <class D>
void launch_callback(Call& call, void* stream, std::unique_ptr<D> d, CallbackCount& count) {
  ++count.outstanding;
  D* raw = d.release();
  try {
    launch_report(call, stream, ReportKind::kCallback, &D::run, raw, false, true);
  } catch (...) {
    --count.outstanding;
    delete raw;
    throw;
  }
}

}  // namespace

PicInfo read_pic(acldvppPicDesc* desc) {
  PicInfo p;
  p.desc = desc;
  if (desc == nullptr) return p;
  p.data = desc->data;
  p.size = desc->size;
  p.format = static_cast<int>(desc->format);
  p.width = desc->width;
  p.height = desc->height;
  p.width_stride = desc->width_stride;
  p.height_stride = desc->height_stride;
  return p;
}

StreamInfo read_stream(acldvppStreamDesc* desc) {
  StreamInfo s;
  s.desc = desc;
  if (desc == nullptr) return s;
  s.data = desc->data;
  s.size = desc->size;
  s.eos = desc->eos != 0;
  return s;
}

// ---------------------------------------------------------------------------------------------
// VDEC

/// One callback: what the user's function gets, filled in by the task's effect.
struct VdecChannel::Delivery {
  aclvdecCallback callback = nullptr;
  acldvppStreamDesc* input = nullptr;
  acldvppPicDesc* output = nullptr;
  void* user_data = nullptr;
  std::shared_ptr<CallbackCount> count;
  // The output description's new fields.
  std::uint32_t ret_code = 0;
  Yuv420spLayout layout;
  int format = 0;

  static void run(void* arg) {
    std::unique_ptr<Delivery> d(static_cast<Delivery*>(arg));
    if (d->output != nullptr) {  // the user's description: nobody else touches it now
      acldvppPicDesc& o = *d->output;
      o.ret_code = d->ret_code;
      if (d->ret_code == 0) {
        o.width = d->layout.width;
        o.height = d->layout.height;
        o.width_stride = d->layout.width_stride;
        o.height_stride = d->layout.height_stride;
        o.size = static_cast<std::uint32_t>(d->layout.bytes());
        o.format = static_cast<std::uint32_t>(d->format);
      }
    }
    d->callback(d->input, d->output, d->user_data);
    callback_returned(d->count);
  }
};

VdecChannel::VdecChannel(const VdecConfig& config, std::unique_ptr<VideoDecoder> decoder)
    : config_(config), decoder_(std::move(decoder)) {}

std::shared_ptr<VdecChannel> VdecChannel::create(Call& call, const VdecConfig& config) {
  static const char* const kApi = "aclvdecCreateChannel";
  check_module(call, DvppModule::kVdec, kApi);
  require(config.callback != nullptr, ACL_ERROR_INVALID_PARAM,
          "the channel description has no callback (aclvdecSetChannelDescCallback)");
  require(config.thread != 0, ACL_ERROR_INVALID_PARAM,
          "the channel description has no callback thread (aclvdecSetChannelDescThreadId)");
  require(config.channel_id < kMaxChannelId, ACL_ERROR_INVALID_PARAM,
          "channel id " + std::to_string(config.channel_id) + " is out of range [0, 256)");
  check_en_type(config.en_type, kApi);
  check_yuv420sp(config.out_format, "output format", kApi);
  require((config.out_width == 0) == (config.out_height == 0), ACL_ERROR_INVALID_PARAM,
          "set both output width and height, or neither");
  if (config.out_width != 0) {
    require(config.out_width >= 10 && config.out_width <= kMaxSide && config.out_height >= 6 &&
                config.out_height <= kMaxSide && config.out_width % 2 == 0 &&
                config.out_height % 2 == 0,
            ACL_ERROR_INVALID_PARAM,
            "output size " + std::to_string(config.out_width) + "x" +
                std::to_string(config.out_height) + " must be even, from 10x6 to 4096x4096");
  }
  std::string err;
  std::unique_ptr<VideoDecoder> decoder = codec::create_decoder(codec_of(config.en_type), &err);
  require(decoder != nullptr, ACL_ERROR_FEATURE_UNSUPPORTED, err);
  std::shared_ptr<VdecChannel> ch(new VdecChannel(config, std::move(decoder)));
  ch->stream_ = open_stream(call, config.thread);
  return ch;
}

void VdecChannel::send(Call& call, const StreamInfo& input, const PicInfo& output,
                       void* user_data, bool skipped) {
  static const char* const kApi = "aclvdecSendFrame";
  check_module(call, DvppModule::kVdec, kApi);
  require(input.size > 0, ACL_ERROR_INVALID_PARAM, "the input stream size is 0");
  device_buffer(call, input.data, input.size, false, "the input stream");
  if (!skipped) {
    require(output.desc != nullptr, ACL_ERROR_INVALID_PARAM, "output is NULL");
    require(output.size > 0, ACL_ERROR_INVALID_PARAM, "the output picture size is 0");
    device_buffer(call, output.data, output.size, true, "the output picture");
    if (output.format != 0) check_yuv420sp(output.format, "output picture format", kApi);
  }
  Pending p;
  p.input = input.desc;
  p.output = output;
  p.user_data = user_data;
  p.skipped = skipped;
  std::vector<YuvImage> pictures;
  std::string err;
  if (!decoder_->send(static_cast<const std::uint8_t*>(input.data), input.size, &pictures, &err)) {
    sim::log_warn(std::string(kApi) + ": channel " + std::to_string(config_.channel_id) +
                  ": frame not decoded (" + err + "); its callback reports retCode " +
                  std::to_string(kVideoNoPicture));
    p.failed = true;
  }
  pending_.push_back(p);
  emit(call, std::move(pictures), input.size, false);
}

struct VdecChannel::Batch {
  struct Write {
    Delivery* d;
    YuvImage picture;
    void* data;
    std::uint32_t size;
    std::uint64_t serial;

    // Writes the picture in its layout: retCode 0, or "buffer too small".
    void run() {
      std::string err;
      if (codec::write_yuv420sp(picture, d->layout, static_cast<std::uint8_t*>(data), size,
                                &err)) {
        d->ret_code = 0;
      } else {
        d->ret_code = kVideoBufferTooSmall;
        sim::log_warn("VDEC: " + err);
      }
    }
  };
  MemoryRegistry* mem;
  std::vector<std::unique_ptr<Delivery>> deliveries;
  std::vector<DvppFrame> work;
  std::shared_ptr<std::vector<Write>> writes = std::make_shared<std::vector<Write>>();
};

VdecChannel::Delivery* VdecChannel::deliver(Batch& b, const Pending& p) {
  auto d = std::make_unique<Delivery>();
  d->callback = config_.callback;
  d->input = p.input;
  d->output = p.skipped ? nullptr : p.output.desc;
  d->user_data = p.user_data;
  d->count = callbacks_;
  d->ret_code = kVideoNoPicture;
  b.deliveries.push_back(std::move(d));
  return b.deliveries.back().get();
}

void VdecChannel::deliver_all(Batch& b) {
  while (!pending_.empty()) {
    deliver(b, pending_.front());
    pending_.pop_front();
  }
}

void VdecChannel::flush_failed(Batch& b) {
  while (!pending_.empty() && pending_.front().failed) {
    deliver(b, pending_.front());
    pending_.pop_front();
  }
}

void VdecChannel::take_picture(Batch& b, YuvImage& pic, std::uint32_t read_bytes) {
  const Pending p = pending_.front();
  pending_.pop_front();
  Delivery* d = deliver(b, p);
  const std::uint32_t w = config_.out_width != 0 ? config_.out_width : pic.width;
  const std::uint32_t h = config_.out_width != 0 ? config_.out_height : pic.height;
  // Written: the whole picture in its layout (strides included); skipped frames write nothing.
  b.work.push_back(frame(pic.width, pic.height, b.work.empty() ? read_bytes : 0, w, h,
                         p.skipped ? 0 : vdec_layout(w, h, order_of(config_.out_format)).bytes()));
  if (p.skipped) {
    d->ret_code = 0;  // skipped: decoded for reference, no output
    return;
  }
  d->format = config_.out_format;
  d->layout = vdec_layout(w, h, order_of(config_.out_format));
  const Allocation* a = b.mem->find(p.output.data);
  b.writes->push_back(Batch::Write{d, std::move(pic), p.output.data, p.output.size,
                                   a != nullptr ? a->serial : 0});
}

void VdecChannel::submit_work(Call& call, Batch& b, std::uint32_t read_bytes) {
  if (b.work.empty() && read_bytes > 0) {
    // The frame was taken in (its picture comes later, or never): decoding work all the same.
    const std::uint32_t w = last_width_ != 0 ? last_width_ : 1920;
    const std::uint32_t h = last_height_ != 0 ? last_height_ : 1080;
    b.work.push_back(frame(w, h, read_bytes, w, h, 0));
  }
  if (b.work.empty()) return;
  MemoryRegistry* mem = b.mem;
  submit(call, stream_, DvppModule::kVdec, std::move(b.work), "VDEC",
         [mem, writes = b.writes]() -> int {
           for (Batch::Write& w : *writes) {
             if (mem->alive(w.serial)) w.run();  // freed before the picture came: no output
           }
           return 0;
         });
}

void VdecChannel::emit(Call& call, std::vector<YuvImage> pictures, std::uint32_t read_bytes,
                       bool end_of_stream) {
  Batch b{&call.runtime().memory(), {}, {}};
  flush_failed(b);
  for (YuvImage& pic : pictures) {
    last_width_ = pic.width;
    last_height_ = pic.height;
    if (pending_.empty()) break;  // more pictures than outputs: the hardware drops them too
    take_picture(b, pic, read_bytes);
    flush_failed(b);
  }
  if (end_of_stream) deliver_all(b);  // outputs no picture will fill
  submit_work(call, b, read_bytes);
  for (auto& d : b.deliveries) launch_callback(call, stream_, std::move(d), *callbacks_);
}

void VdecChannel::wait_callbacks(Call& call) {
  synchronize_stream(call, stream_, -1);
  wait_returned(call, callbacks_, "aclvdec end of stream");
}

void VdecChannel::end_of_stream(Call& call) {
  std::vector<YuvImage> pictures;
  std::string err;
  if (!decoder_->flush(&pictures, &err)) sim::log_warn("VDEC flush: " + err);
  emit(call, std::move(pictures), 0, true);
  wait_callbacks(call);
}

void VdecChannel::destroy(Call& call) {
  end_of_stream(call);
  close_stream(call, stream_, config_.thread);
  stream_ = nullptr;
}

// ---------------------------------------------------------------------------------------------
// VENC

struct VencChannel::Delivery {
  aclvencCallback callback = nullptr;
  acldvppPicDesc* input = nullptr;
  acldvppStreamDesc* output = nullptr;
  void* user_data = nullptr;
  std::shared_ptr<CallbackCount> count;
  std::vector<std::uint8_t> packet;
  void* buf = nullptr;
  std::uint32_t buf_size = 0;

  static void run(void* arg) {
    std::unique_ptr<Delivery> d(static_cast<Delivery*>(arg));
    std::uint32_t ret = 0;
    std::uint32_t size = static_cast<std::uint32_t>(d->packet.size());
    if (d->packet.size() > d->buf_size) {
      ret = kVideoBufferTooSmall;
      size = 0;
    } else if (!d->packet.empty()) {
      std::memcpy(d->buf, d->packet.data(), d->packet.size());
    }
    acldvppStreamDesc& o = *d->output;
    o.data = d->buf;
    o.size = size;
    o.ret_code = ret;
    o.eos = 0;
    d->callback(d->input, d->output, d->user_data);
    callback_returned(d->count);
  }
};

VencChannel::VencChannel(const VencConfig& config, std::unique_ptr<VideoEncoder> encoder,
                         acldvppStreamDesc* out_desc)
    : config_(config), encoder_(std::move(encoder)), out_desc_(out_desc) {}

std::shared_ptr<VencChannel> VencChannel::create(Call& call, const VencConfig& config,
                                                 acldvppStreamDesc* out_desc) {
  static const char* const kApi = "aclvencCreateChannel";
  check_module(call, DvppModule::kVenc, kApi);
  require(config.callback != nullptr, ACL_ERROR_INVALID_PARAM,
          "the channel description has no callback (aclvencSetChannelDescCallback)");
  require(config.thread != 0, ACL_ERROR_INVALID_PARAM,
          "the channel description has no callback thread (aclvencSetChannelDescThreadId)");
  check_en_type(config.en_type, kApi);
  check_yuv420sp(config.pic_format, "picture format", kApi);
  require(config.width >= kMinSide && config.width <= kMaxSide && config.height >= kMinSide &&
              config.height <= kMaxSide && config.width % 2 == 0 && config.height % 2 == 0,
          ACL_ERROR_INVALID_PARAM,
          "picture size " + std::to_string(config.width) + "x" + std::to_string(config.height) +
              " must be even, from 128x128 to 4096x4096");
  require(config.en_type == H265_MAIN_LEVEL ||
              std::uint64_t{config.width} * config.height <= std::uint64_t{4096} * 2304,
          ACL_ERROR_INVALID_PARAM,
          "an H.264 picture may have at most 4096 x 2304 pixels (" + std::to_string(config.width) +
              "x" + std::to_string(config.height) + ")");
  require(config.rc_mode <= 2, ACL_ERROR_INVALID_PARAM,
          "rcMode " + std::to_string(config.rc_mode) + " is not 0 (default), 1 (VBR) or 2 (CBR)");
  require(out_desc != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "no output stream description");
  EncoderParams p;
  p.codec = codec_of(config.en_type);
  p.h264_profile = config.en_type == H264_BASELINE_LEVEL ? H264Profile::kBaseline
                   : config.en_type == H264_HIGH_LEVEL   ? H264Profile::kHigh
                                                         : H264Profile::kMain;
  p.width = config.width;
  p.height = config.height;
  p.key_frame_interval = config.key_frame_interval == 0 ? 16 : config.key_frame_interval;
  p.frame_rate = config.src_rate == 0 ? 30 : config.src_rate;
  p.bit_rate_kbps = config.max_bit_rate == 0 ? 2000 : config.max_bit_rate;
  p.constant_bit_rate = config.rc_mode == 2;
  if (!codec::encoder_available(p.codec)) {
    fail(ACL_ERROR_FEATURE_UNSUPPORTED, std::string(kApi) + ": this build has no " +
                                            video_codec_name(p.codec) +
                                            " encoder (libavcodec without libx264/libx265)");
  }
  std::string err;
  std::unique_ptr<VideoEncoder> enc = codec::create_encoder(p, &err);
  require(enc != nullptr, ACL_ERROR_INVALID_PARAM, err);
  std::shared_ptr<VencChannel> ch(new VencChannel(config, std::move(enc), out_desc));
  if (config.buf_addr != nullptr) {
    device_buffer(call, config.buf_addr, config.buf_size, true, "the channel's output buffer");
    ch->out_buf_ = config.buf_addr;
    ch->out_size_ = config.buf_size;
  } else {
    // Room for any packet of this size (an I frame at the worst quality stays below the raw
    // picture plus headers).
    ch->out_size_ = config.width * config.height * 3 / 2 + 64 * 1024;
    ch->out_buf_ = malloc_device(call, ch->out_size_, ACL_MEM_MALLOC_HUGE_FIRST, true);
    ch->own_buf_ = true;
  }
  try {
    ch->stream_ = open_stream(call, config.thread);
  } catch (...) {
    if (ch->own_buf_) free_device(call, ch->out_buf_);
    throw;
  }
  return ch;
}

void VencChannel::send(Call& call, const PicInfo& input, bool force_idr, void* user_data) {
  static const char* const kApi = "aclvencSendFrame";
  check_module(call, DvppModule::kVenc, kApi);
  require(input.desc != nullptr, ACL_ERROR_INVALID_PARAM, "input is NULL");
  require(!ended_, ACL_ERROR_INVALID_PARAM,
          "the channel's stream has ended (EOS was sent); destroy the channel");
  const int format = input.format != 0 ? input.format : config_.pic_format;
  check_yuv420sp(format, "input picture format", kApi);
  Yuv420spLayout l;
  l.width = input.width != 0 ? input.width : config_.width;
  l.height = input.height != 0 ? input.height : config_.height;
  l.width_stride = input.width_stride != 0 ? input.width_stride : align_up(l.width, 16);
  // CANN (VENC restrictions): the height stride need not be set; the input is width stride x
  // height x 3/2 bytes, chroma right after the height's luma rows.
  l.height_stride = l.height;
  l.order = order_of(format);
  require(l.width == config_.width && l.height == config_.height, ACL_ERROR_INVALID_PARAM,
          "input picture " + std::to_string(l.width) + "x" + std::to_string(l.height) +
              " differs from the channel's " + std::to_string(config_.width) + "x" +
              std::to_string(config_.height));
  require(input.size > 0, ACL_ERROR_INVALID_PARAM, "the input picture size is 0");
  device_buffer(call, input.data, input.size, false, "the input picture");
  YuvImage image;
  std::string err;
  require(read_yuv420sp(static_cast<const std::uint8_t*>(input.data), input.size, l, &image, &err),
          ACL_ERROR_INVALID_PARAM, err);
  std::vector<std::vector<std::uint8_t>> packets;
  require(encoder_->encode(image, force_idr, &packets, &err), ACL_ERROR_INVALID_PARAM, err);
  emit(call, std::move(packets), input.desc, user_data, std::uint64_t{l.width} * l.height,
       input.size);
}

void VencChannel::emit(Call& call, std::vector<std::vector<std::uint8_t>> packets,
                       acldvppPicDesc* input, void* user_data, std::uint64_t pixels,
                       std::uint64_t read_bytes) {
  std::uint64_t written = 0;
  for (const auto& p : packets) written += p.size();
  if (pixels != 0) {
    submit(call, stream_, DvppModule::kVenc,
           {frame(config_.width, config_.height, read_bytes, config_.width, config_.height,
                  written)},
           "VENC", {});
  }
  for (auto& packet : packets) {
    auto d = std::make_unique<Delivery>();
    d->callback = config_.callback;
    d->input = input;
    d->output = out_desc_;
    d->user_data = user_data;
    d->count = callbacks_;
    d->packet = std::move(packet);
    d->buf = out_buf_;
    d->buf_size = out_size_;
    launch_callback(call, stream_, std::move(d), *callbacks_);
  }
}

void VencChannel::end_of_stream(Call& call) {
  if (!ended_) {
    std::vector<std::vector<std::uint8_t>> packets;
    std::string err;
    if (!encoder_->flush(&packets, &err)) sim::log_warn("VENC flush: " + err);
    emit(call, std::move(packets), nullptr, nullptr, 0, 0);
    ended_ = true;
  }
  synchronize_stream(call, stream_, -1);
  wait_returned(call, callbacks_, "aclvenc end of stream");
}

void VencChannel::destroy(Call& call) {
  end_of_stream(call);
  close_stream(call, stream_, config_.thread);
  stream_ = nullptr;
  if (own_buf_) free_device(call, out_buf_);
  out_buf_ = nullptr;
}

}  // namespace npusim::rt::dvpp
