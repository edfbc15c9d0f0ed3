// SPDX-License-Identifier: Apache-2.0
// npusim_videogen: writes the inputs the VDEC/VENC samples download, generated locally from the
// synthetic test pictures (tests/video/synthetic_video.h).
//
//   npusim_videogen stream <h264|h265> <width> <height> <frames> <out>
//       an Annex-B elementary stream (IDR first, then P frames; one GOP)
//   npusim_videogen yuv <width> <height> <width_stride> <height_stride> <nv12|nv21> <out>
//       one YUV420SP picture laid out with the given strides (padding zero)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/dvpp/video_codec.h"
#include "tests/video/synthetic_video.h"

namespace {

using npusim::dvpp::ChromaOrder;
using npusim::dvpp::EncoderParams;
using npusim::dvpp::VideoCodec;
using npusim::dvpp::VideoEncoder;
using npusim::dvpp::Yuv420spLayout;
using npusim::dvpp::testing::synthetic_frame;

int usage() {
  std::fprintf(stderr,
               "usage: npusim_videogen stream <h264|h265> <width> <height> <frames> <out>\n"
               "       npusim_videogen yuv <width> <height> <width_stride> <height_stride> "
               "<nv12|nv21> <out>\n");
  return 2;
}

std::uint32_t number(const char* s) { return static_cast<std::uint32_t>(std::strtoul(s, nullptr, 10)); }

bool write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

int stream(int argc, char** argv) {
  if (argc != 7) return usage();
  const std::string codec = argv[2];
  if (codec != "h264" && codec != "h265") return usage();
  EncoderParams p;
  p.codec = codec == "h264" ? VideoCodec::kH264 : VideoCodec::kH265;
  p.width = number(argv[3]);
  p.height = number(argv[4]);
  const std::uint32_t frames = number(argv[5]);
  p.key_frame_interval = frames == 0 ? 1 : frames;
  p.bit_rate_kbps = 8000;
  std::string err;
  auto enc = VideoEncoder::create(p, &err);
  if (enc == nullptr) {
    std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
    return 1;
  }
  std::vector<std::vector<std::uint8_t>> packets;
  for (std::uint32_t i = 0; i < frames; ++i)
    if (!enc->encode(synthetic_frame(p.width, p.height, i), false, &packets, &err)) {
      std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
      return 1;
    }
  if (!enc->flush(&packets, &err)) {
    std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
    return 1;
  }
  std::vector<std::uint8_t> bytes;
  for (const auto& pkt : packets) bytes.insert(bytes.end(), pkt.begin(), pkt.end());
  return write_file(argv[6], bytes) ? 0 : 1;
}

int yuv(int argc, char** argv) {
  if (argc != 8) return usage();
  Yuv420spLayout l;
  l.width = number(argv[2]);
  l.height = number(argv[3]);
  l.width_stride = number(argv[4]);
  l.height_stride = number(argv[5]);
  const std::string order = argv[6];
  if (order != "nv12" && order != "nv21") return usage();
  l.order = order == "nv12" ? ChromaOrder::kNv12 : ChromaOrder::kNv21;
  std::vector<std::uint8_t> bytes(l.bytes(), 0);
  std::string err;
  if (!npusim::dvpp::write_yuv420sp(synthetic_frame(l.width, l.height, 0), l, bytes.data(),
                                    bytes.size(), &err)) {
    std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
    return 1;
  }
  return write_file(argv[7], bytes) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  if (cmd == "stream") return stream(argc, argv);
  if (cmd == "yuv") return yuv(argc, argv);
  return usage();
}
