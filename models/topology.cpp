// SPDX-License-Identifier: Apache-2.0
#include "models/topology.h"

#include <algorithm>
#include <cctype>

namespace npusim::models {
namespace {

bool parse_index(const std::string& s, std::uint32_t& out) {
  if (s.empty() || s.size() > 4) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  out = static_cast<std::uint32_t>(std::stoul(s));
  return true;
}

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::vector<LinkPair> parse_link_list(const std::string& text, std::string& why) {
  why.clear();
  std::vector<LinkPair> pairs;
  if (text == "full_mesh" || text == "none") return pairs;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    const std::string item = strip(text.substr(start, comma == std::string::npos ? std::string::npos
                                                                                 : comma - start));
    const std::size_t dash = item.find('-');
    LinkPair p;
    if (dash == std::string::npos || !parse_index(strip(item.substr(0, dash)), p.a) ||
        !parse_index(strip(item.substr(dash + 1)), p.b) || p.a == p.b) {
      why = "expected full_mesh, none or pairs of different device indices such as \"0-1,2-3\", "
            "got \"" + text + "\"";
      return {};
    }
    if (p.a > p.b) std::swap(p.a, p.b);
    const bool dup = std::any_of(pairs.begin(), pairs.end(),
                                 [&p](const LinkPair& q) { return q.a == p.a && q.b == p.b; });
    if (dup) {
      why = "the pair " + std::to_string(p.a) + "-" + std::to_string(p.b) + " is listed twice";
      return {};
    }
    pairs.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return pairs;
}

Topology::Topology(const ChipConfig& cfg)
    : devices_(static_cast<std::uint32_t>(std::max<std::int64_t>(cfg.soc.num_devices, 1))) {
  const TopologyConfig& t = cfg.topology;
  const LinkKind kind = t.link == "pcie" ? LinkKind::kPcie : LinkKind::kHccs;
  const auto count = static_cast<std::uint32_t>(std::max<std::int64_t>(t.links_per_pair, 1));
  std::vector<LinkPair> pairs;
  if (t.links == "full_mesh") {
    for (std::uint32_t a = 0; a < devices_; ++a) {
      for (std::uint32_t b = a + 1; b < devices_; ++b) pairs.push_back({a, b});
    }
  } else {
    std::string why;
    pairs = parse_link_list(t.links, why);
  }
  index_.assign(static_cast<std::size_t>(devices_) * devices_, -1);
  for (const LinkPair& p : pairs) {
    if (p.b >= devices_) continue;  // validation rejects these
    const int i = static_cast<int>(links_.size());
    links_.push_back(Link{p, kind, count});
    index_[p.a * devices_ + p.b] = i;
    index_[p.b * devices_ + p.a] = i;
  }
}

const Link* Topology::link(std::uint32_t a, std::uint32_t b) const {
  if (a >= devices_ || b >= devices_) return nullptr;
  const int i = index_[a * devices_ + b];
  return i < 0 ? nullptr : &links_[static_cast<std::size_t>(i)];
}

}  // namespace npusim::models
