// SPDX-License-Identifier: Apache-2.0
// The links of a system of chips, as the `topology` config section describes them: which device
// pairs have a direct link and of what kind. Every device also has its own PCIe link to the host
// (models/host_link.h), which is not listed here. Plain C++ (the runtime asks it whether two
// devices can reach each other's memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/chip_config.h"

namespace npusim::models {

enum class LinkKind : std::uint8_t { kHccs, kPcie };

/// Two devices, a < b.
struct LinkPair {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
};

/// Parses topology.links: "full_mesh" and "none" give no explicit pairs (see Topology); else a
/// comma-separated list of "a-b" pairs of device indices. On a malformed list `why` gets the
/// reason and the result is empty.
std::vector<LinkPair> parse_link_list(const std::string& text, std::string& why);

struct Link {
  LinkPair ends;
  LinkKind kind = LinkKind::kHccs;
  std::uint32_t count = 1;  // parallel links between the pair
};

class Topology {
 public:
  /// The links of `cfg` over soc.num_devices devices (cfg is validated already).
  explicit Topology(const ChipConfig& cfg);

  std::uint32_t devices() const { return devices_; }
  const std::vector<Link>& links() const { return links_; }
  /// The direct link between `a` and `b` (either order), or nullptr.
  const Link* link(std::uint32_t a, std::uint32_t b) const;

 private:
  std::uint32_t devices_;
  std::vector<Link> links_;
  std::vector<int> index_;  // devices_ x devices_: index into links_ or -1
};

}  // namespace npusim::models
