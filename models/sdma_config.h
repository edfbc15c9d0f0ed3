// SPDX-License-Identifier: Apache-2.0
// SDMA: the unit's configuration group (sdma.*), declared beside the unit (models/sdma_engine.h;
// the HCCS links use its channels and burst too) and registered in models/unit_configs.cpp
// (models/unit_config.h). Plain C++: the runtime may read it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "models/config_types.h"

namespace npusim::models {

/// System DMA engine: device-side copies (D2D) and memsets.
struct SdmaConfig {
  static constexpr const char* kGroup = "sdma";
  static constexpr const char* kDescription = "system DMA engine";

  std::int64_t channels = 4;
  Duration setup{500 * sim::kNs};
  Bytes burst{64 * 1024};

  /// What the engines driving the channels (SDMA, the HCCS links) use: at least one byte per
  /// burst, at least one channel's state.
  std::uint64_t burst_bytes() const { return std::max<std::uint64_t>(burst.value, 1); }
  std::size_t channel_slots() const {
    return static_cast<std::size_t>(std::max<std::int64_t>(channels, 1));
  }

  template <class V>
  void visit(V& v) {
    v.field("channels", channels, "number of SDMA channels that run copies/memsets concurrently",
            sim::range(1, 64));
    v.field("setup", setup, "per-task setup latency of an SDMA channel");
    v.field("burst", burst, "burst size of SDMA transfers");
  }
};

}  // namespace npusim::models
