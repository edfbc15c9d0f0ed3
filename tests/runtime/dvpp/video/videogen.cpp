// SPDX-License-Identifier: Apache-2.0
// npusim_videogen: writes the inputs the VDEC/VENC samples download, generated locally from the
// synthetic test pictures (tests/runtime/dvpp/video/synthetic_video.h).
//
//   npusim_videogen stream <h264|h265> <width> <height> <frames> <out>
//       an Annex-B elementary stream (IDR first, then P frames; one GOP)
//   npusim_videogen yuv <width> <height> <width_stride> <height_stride> <nv12|nv21> <out>
//       one YUV420SP picture laid out with the given strides (padding zero)
//   npusim_videogen decode <h264|h265> <in> <out>
//       the reference decode of a stream (libavcodec): every picture as NV12 in VDEC's layout
//       (width stride 16-aligned, height stride 2-aligned), concatenated; prints
//       "frames=N width=W height=H"
//   npusim_videogen psnr <a.yuv> <b.yuv> <width> <height> <width_stride> <height_stride>
//       the smallest per-picture PSNR of two files of NV12 pictures with that layout (the
//       shorter file's count; when b holds one picture, every picture of a against it); prints
//       "pictures=N min_psnr=P"; exit 1 if the counts differ
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "runtime/dvpp/video_codec.h"
#include "tests/runtime/dvpp/video/synthetic_video.h"

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
               "<nv12|nv21> <out>\n"
               "       npusim_videogen decode <h264|h265> <in> <out>\n"
               "       npusim_videogen psnr <a.yuv> <b.yuv> <width> <height> <width_stride> "
               "<height_stride>\n");
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

int decode(int argc, char** argv) {
  if (argc != 5) return usage();
  const std::string codec = argv[2];
  if (codec != "h264" && codec != "h265") return usage();
  std::ifstream in(argv[3], std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  std::vector<npusim::dvpp::YuvImage> pictures;
  std::string err;
  if (!npusim::dvpp::decode_stream(codec == "h264" ? VideoCodec::kH264 : VideoCodec::kH265,
                                   bytes.data(), bytes.size(), &pictures, &err)) {
    std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
    return 1;
  }
  std::vector<std::uint8_t> out;
  for (const auto& pic : pictures) {
    const Yuv420spLayout l = npusim::dvpp::vdec_layout(pic.width, pic.height, ChromaOrder::kNv12);
    std::vector<std::uint8_t> one(l.bytes(), 0);
    if (!npusim::dvpp::write_yuv420sp(pic, l, one.data(), one.size(), &err)) {
      std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
      return 1;
    }
    out.insert(out.end(), one.begin(), one.end());
  }
  std::printf("frames=%zu width=%u height=%u\n", pictures.size(), pictures[0].width,
              pictures[0].height);
  return write_file(argv[4], out) ? 0 : 1;
}

int psnr(int argc, char** argv) {
  if (argc != 8) return usage();
  Yuv420spLayout l;
  l.width = number(argv[4]);
  l.height = number(argv[5]);
  l.width_stride = number(argv[6]);
  l.height_stride = number(argv[7]);
  auto load = [](const char* path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(f)),
                                     std::istreambuf_iterator<char>());
  };
  const std::vector<std::uint8_t> a = load(argv[2]), b = load(argv[3]);
  const std::size_t one = l.bytes();
  if (one == 0) return usage();
  const std::size_t na = a.size() / one, nb = b.size() / one;
  const bool one_ref = nb == 1;  // every picture of a against b's only one
  const std::size_t n = one_ref ? na : std::min(na, nb);
  double worst = std::numeric_limits<double>::infinity();
  std::string err;
  for (std::size_t i = 0; i < n; ++i) {
    npusim::dvpp::YuvImage x, y;
    if (!npusim::dvpp::read_yuv420sp(a.data() + i * one, one, l, &x, &err) ||
        !npusim::dvpp::read_yuv420sp(b.data() + (one_ref ? 0 : i * one), one, l, &y, &err)) {
      std::fprintf(stderr, "npusim_videogen: %s\n", err.c_str());
      return 1;
    }
    worst = std::min(worst, npusim::dvpp::psnr(x, y));
  }
  std::printf("pictures=%zu min_psnr=%s\n", n,
              std::isinf(worst) ? "inf" : std::to_string(worst).c_str());
  return (one_ref || na == nb) && n > 0 ? 0 : 1;
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
  if (cmd == "decode") return decode(argc, argv);
  if (cmd == "psnr") return psnr(argc, argv);
  return usage();
}
