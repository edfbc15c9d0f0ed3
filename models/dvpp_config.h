// SPDX-License-Identifier: Apache-2.0
// DVPP: the unit's configuration group (dvpp.*), declared beside the unit (models/dvpp.h) and
// registered in models/unit_configs.cpp (models/unit_config.h). Plain C++: the runtime reads it
// (which modules the chip has).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "models/config_types.h"
#include "models/dvpp_work.h"

namespace npusim::models {

/// One DVPP module (VPC, JPEGD...): its channels and its published throughput
/// (models/dvpp.h states the timing model). channels = 0: the chip has no such module.
struct DvppModuleConfig {
  std::int64_t channels = 0;
  std::int64_t ref_width = 1920;
  std::int64_t ref_height = 1080;
  double fps = 1;
  double total_fps = 1;
  Duration frame_overhead{0};

  template <class V>
  void visit(V& v) {
    v.field("channels", channels,
            "frames the module processes at once (its hardware channels; tasks queue when all "
            "are busy); 0 = the chip has no such module and its API calls are rejected",
            sim::range(0, 1024));
    v.field("ref_width", ref_width, "width of the published table's reference resolution",
            sim::range(1, 65536));
    v.field("ref_height", ref_height, "height of the published table's reference resolution",
            sim::range(1, 65536));
    v.field("fps", fps,
            "frames per second of one channel at the reference resolution (time scales with "
            "the frame's pixels)",
            sim::above(0));
    v.field("total_fps", total_fps,
            "frames per second of the whole module at the reference resolution (caps the sum "
            "over channels)",
            sim::above(0));
    v.field("frame_overhead", frame_overhead,
            "fixed part of a frame's time on a channel (the rest scales with its pixels, so a "
            "reference frame still takes 1 / fps); must be below 1 / fps; 0 = time linear in "
            "pixels");
  }
};

/// DVPP: the media unit (models/dvpp.h). Defaults: the Atlas A2 training product (no VENC).
struct DvppConfig {
  static constexpr const char* kGroup = "dvpp";
  static constexpr const char* kDescription = "DVPP media unit (image and video processing)";

  DvppModuleConfig vpc{12, 1920, 1080, 360, 4320};
  DvppModuleConfig jpegd{16, 1920, 1080, 128, 2048};
  DvppModuleConfig jpege{8, 1920, 1080, 128, 1024};
  DvppModuleConfig pngd{6, 1920, 1080, 4, 24};
  DvppModuleConfig vdec{4, 1920, 1080, 300, 1200};
  DvppModuleConfig venc{0, 1920, 1080, 240, 720};

  /// The group of one module.
  const DvppModuleConfig& module(DvppModule m) const {
    static constexpr DvppModuleConfig DvppConfig::*kModules[kDvppModules] = {
        &DvppConfig::vpc,  &DvppConfig::jpegd, &DvppConfig::jpege,
        &DvppConfig::pngd, &DvppConfig::vdec,  &DvppConfig::venc};
    return this->*kModules[static_cast<int>(m)];
  }

  template <class V>
  void visit(V& v) {
    v.group("vpc", vpc, "VPC: crop, resize, crop-and-paste, colour conversion");
    v.group("jpegd", jpegd, "JPEG decoder");
    v.group("jpege", jpege, "JPEG encoder");
    v.group("pngd", pngd, "PNG decoder");
    v.group("vdec", vdec, "H.264/H.265 video decoder");
    v.group("venc", venc, "H.264/H.265 video encoder");
  }

  /// Every module's fixed part must leave time to scale: frame_overhead < 1 / fps.
  void check(const std::string& origin) const {
    const std::pair<const char*, const DvppModuleConfig*> modules[] = {
        {"vpc", &vpc}, {"jpegd", &jpegd}, {"jpege", &jpege},
        {"pngd", &pngd}, {"vdec", &vdec}, {"venc", &venc}};
    for (const auto& [name, m] : modules) {
      const double overhead_s = static_cast<double>(m->frame_overhead.ps) * 1e-12;
      if (overhead_s * m->fps < 1.0) continue;
      throw sim::ConfigError(origin + ": dvpp." + name + ".frame_overhead: must be below " +
                             "1 / fps (" + std::to_string(1e6 / m->fps) + " us), got " +
                             std::to_string(static_cast<double>(m->frame_overhead.ps) * 1e-6) +
                             " us");
    }
  }
};

}  // namespace npusim::models
