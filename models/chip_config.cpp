// SPDX-License-Identifier: Apache-2.0
// ChipConfig loading: presets and files, `base:` chains (relative to the including file, cycles
// rejected), overrides, range validation (a visitor, so every key is checked by its dotted name).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/chip_config_loader.h"
#include "models/presets.h"
#include "models/topology.h"

namespace npusim::models {
namespace {

namespace fs = std::filesystem;
using sim::ConfigError;

/// One YAML document of a chain.
struct Document {
  std::string text;
  std::string origin;    // "preset:ascend910b" or the path as resolved
  std::string identity;  // "preset:ascend910b" or the canonical path, for cycle detection
  fs::path dir;          // where a relative `base:` is resolved (empty: current directory)
};

const Preset* find_preset(const std::string& name) {
  for (const Preset& p : presets()) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Opens a preset or a file. `context` prefixes errors ("a.yaml:3: base: " for a base).
Document open_document(const std::string& source, const fs::path& relative_to,
                       const std::string& context) {
  bool path_like = source.find('/') != std::string::npos || ends_with(source, ".yaml") ||
                   ends_with(source, ".yml");
  if (const Preset* p = path_like ? nullptr : find_preset(source)) {
    std::string id = std::string("preset:") + p->name;
    return {p->yaml, id, id, {}};
  }
  fs::path path(source);
  if (path.is_relative() && !relative_to.empty()) path = relative_to / path;
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw ConfigError(context + path.string() + ": no such file or preset (presets: " +
                      preset_names() + ")");
  if (!fs::is_regular_file(path, ec)) throw ConfigError(context + path.string() + ": not a file");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw ConfigError(context + path.string() + ": cannot read the file");
  fs::path canonical = fs::weakly_canonical(path, ec);
  return {text.str(), path.string(), (ec ? path : canonical).string(), path.parent_path()};
}

/// Applies `doc` onto `config` after its base chain. `chain` holds the documents being loaded.
void load_chain(ChipConfig& config, const Document& doc, std::vector<const Document*>& chain) {
  chain.push_back(&doc);
  if (auto base = sim::find_top_level_scalar(doc.text, "base", doc.origin)) {
    std::string context = doc.origin + ":" + std::to_string(base->line) + ": base: ";
    if (base->value.empty()) throw ConfigError(context + "expected a preset name or a file path");
    Document next = open_document(base->value, doc.dir, context);
    for (const Document* d : chain) {
      if (d->identity != next.identity) continue;
      std::string cycle;
      for (const Document* c : chain) cycle += c->origin + " -> ";
      throw ConfigError(context + "cycle of bases: " + cycle + next.origin);
    }
    load_chain(config, next, chain);
  }
  sim::apply_yaml(config, doc.text, doc.origin, {"base"});
  chain.pop_back();
}

std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

std::string preset_names() {
  std::string names;
  for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

std::string check_soc_name(const std::string& v) {
  if (!v.empty() && v.size() <= 63) return "";
  return "expected a name of 1 to 63 characters, got \"" + v + "\"";
}

std::string check_npu_arch(const std::string& v) {
  std::string known;
  for (const arch::Generation& g : arch::kGenerations) {
    if (std::to_string(g.npu_arch) == v) return "";
    known += (known.empty() ? "" : ", ") + std::to_string(g.npu_arch) + " (" + g.family + ")";
  }
  return "unknown NPU architecture " + v + "; known: " + known;
}

std::string check_version(const std::string& v) {
  int parts = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = v.find('.', start);
    std::string part = v.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) break;
    ++parts;
    if (dot == std::string::npos) {
      if (parts == 3) return "";
      break;
    }
    start = dot + 1;
  }
  return "expected a version x.y.z such as 8.5.0, got \"" + v + "\"";
}

std::string check_link_list(const std::string& v) {
  std::string why;
  parse_link_list(v, why);
  return why;
}

void validate_chip_config(const ChipConfig& config, const std::string& origin) {
  ChipConfig copy = config;  // visit() is not const
  sim::validate(copy, origin);
  const auto pow2 = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  const L2Config& l2 = config.l2;
  const auto l2_error = [&](const std::string& key, const std::string& why) {
    throw ConfigError(origin + ": l2." + key + ": " + why);
  };
  if (!pow2(l2.line_size.value))
    l2_error("line_size", "must be a power of two, got " + std::to_string(l2.line_size.value));
  if (!pow2(l2.sector_size.value) || l2.sector_size.value > l2.line_size.value ||
      l2.line_size.value / l2.sector_size.value > 8) {
    l2_error("sector_size", "must be a power of two dividing line_size (" +
                                std::to_string(l2.line_size.value) +
                                ") into 1 to 8 sectors, got " +
                                std::to_string(l2.sector_size.value));
  }
  const std::uint64_t set_bytes = l2.line_size.value * static_cast<std::uint64_t>(l2.ways);
  if (l2.size.value < set_bytes || l2.size.value % set_bytes != 0) {
    l2_error("size", "must be a non-zero multiple of line_size x ways (" +
                         std::to_string(set_bytes) + " B), got " +
                         std::to_string(l2.size.value));
  }
  config.units.check(origin);  // each unit group's own cross-key rules
  std::string why;
  for (const LinkPair& p : parse_link_list(config.topology.links, why)) {
    if (p.b >= config.soc.num_devices) {
      throw ConfigError(origin + ": topology.links: device " + std::to_string(p.b) +
                        " does not exist (soc.num_devices is " +
                        std::to_string(config.soc.num_devices) + ")");
    }
  }
}

ChipConfig load_chip_config(const std::string& source, const std::vector<std::string>& overrides,
                            const std::string& overrides_origin) {
  Document doc = open_document(source.empty() ? kDefaultPreset : source, {}, "");
  ChipConfig config;
  std::vector<const Document*> chain;
  load_chain(config, doc, chain);
  for (const std::string& o : overrides) sim::apply_override(config, o, overrides_origin);
  validate_chip_config(config, overrides.empty() ? doc.origin : doc.origin + " + " + overrides_origin);
  return config;
}

std::vector<std::string> split_overrides(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of(";\n", start);
    if (end == std::string::npos) end = text.size();
    std::string item = trim(text.substr(start, end - start));
    if (!item.empty()) out.push_back(item);
    start = end + 1;
  }
  return out;
}

ChipConfig config_from_env() {
  return load_chip_config(env_or_empty("NPUSIM_CONFIG"),
                          split_overrides(env_or_empty("NPUSIM_SET")), "NPUSIM_SET");
}

std::string describe_config_source(const std::string& source,
                                   const std::vector<std::string>& overrides) {
  std::string s = source.empty() ? std::string("preset ") + kDefaultPreset
                  : find_preset(source) ? "preset " + source
                                        : "file " + source;
  if (!overrides.empty()) {
    s += " + overrides:";
    for (const std::string& o : overrides) s += " " + o;
  }
  return s;
}

std::string config_origin_from_env() {
  return describe_config_source(env_or_empty("NPUSIM_CONFIG"),
                                split_overrides(env_or_empty("NPUSIM_SET")));
}

std::string effective_config_yaml(const ChipConfig& config, const std::string& origin) {
  ChipConfig copy = config;
  return "# npusim effective chip configuration\n# source: " + origin + "\n\n" +
         sim::dump_yaml(copy);
}

}  // namespace npusim::models
