// SPDX-License-Identifier: Apache-2.0
// Typed configuration: YAML → structs that declare their fields once through visit().
//
// A config struct declares, in one place, each key with its type and description:
//   template <class V> void visit(V& v) { v.field("latency", latency, "..."); v.group("pcie", pcie, "..."); }
// Defaults are the members' initialisers. From that one declaration this file derives parsing
// (unknown keys and bad values are errors naming origin, key and reason), "a.b=value"
// overrides, the effective-config dump, and the key reference printed by `npusim info`.
// Plain C++ (yaml-cpp inside config.cpp only).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/quantity.h"

namespace npusim::sim {

/// A configuration problem. what() reads "<origin>:<line>: <key>: <reason>" (line when known), e.g.
/// "configs/x.yaml:7: pcie.h2d_bandwidth: expected a bandwidth such as 25GB/s, got \"fast\"".
/// Several problems found at once are reported one per line.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What values a key accepts, declared with the key in visit(). Integers, numbers and quantities
/// are compared in their base unit (B, B/s, ps, Hz) against [min, max] (min exclusive when
/// `above`); strings must be one of `choices` ("priority|fifo"); `check`, when set, gets the value
/// as written in YAML and returns why it is wrong ("" = fine). A key declared without a rule gets
/// its type's rule: integers, numbers and durations >= 0, sizes, bandwidths and frequencies > 0,
/// numbers finite; strings anything.
struct Rule {
  bool declared = false;
  double min = 0;
  double max = 0;
  bool above = false;
  bool has_max = false;
  const char* choices = nullptr;
  std::string (*check)(const std::string& value) = nullptr;
};
/// [lo, hi]
constexpr Rule range(double lo, double hi) { return Rule{true, lo, hi, false, true, nullptr, nullptr}; }
/// >= lo
constexpr Rule at_least(double lo) { return Rule{true, lo, 0, false, false, nullptr, nullptr}; }
/// > lo
constexpr Rule above(double lo) { return Rule{true, lo, 0, true, false, nullptr, nullptr}; }
/// one of "a|b|c"
constexpr Rule one_of(const char* choices) { return Rule{true, 0, 0, false, false, choices, nullptr}; }
/// anything `check` accepts
constexpr Rule checked(std::string (*check)(const std::string&)) {
  return Rule{true, 0, 0, false, false, nullptr, check};
}

/// The one visitor interface all config operations implement. Field types are closed: integers,
/// floating point, bool, string and the quantities of quantity.h. Config structs call field() and
/// group(); visitors implement on().
class FieldVisitor {
 public:
  virtual ~FieldVisitor() = default;

  template <class T>
  void field(const char* key, T& value, const char* desc, const Rule& rule = Rule{}) {
    on(key, value, desc, rule);
  }
  template <class T>
  void group(const char* key, T& section, const char* desc) {
    begin_group(key, desc);
    section.visit(*this);
    end_group();
  }

  virtual void on(const char* key, std::int64_t& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, double& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, bool& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, std::string& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, Bytes& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, Bandwidth& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, Duration& value, const char* desc, const Rule& rule) = 0;
  virtual void on(const char* key, Frequency& value, const char* desc, const Rule& rule) = 0;
  virtual void begin_group(const char* key, const char* desc) = 0;
  virtual void end_group() = 0;
};

/// Apply a YAML document (text) onto `root`. Keys not declared by `root` are errors; so are values
/// of the wrong type or unit. `origin` (a path or "preset:name") prefixes every error:
/// "<origin>:<line>: <dotted.key>: <reason>", one line per problem (all problems are reported).
/// Top-level keys listed in `skip_top_keys` are ignored (the loader's `base`, see
/// models/chip_config.cpp for base chains). On error `root` is left unchanged.
template <class Root>
void apply_yaml(Root& root, const std::string& yaml_text, const std::string& origin,
                const std::vector<std::string>& skip_top_keys = {});

/// Apply "a.b.c=value" onto `root` (value read as a YAML scalar, so it may be quoted); unknown key
/// or bad value → ConfigError "<origin>: <dotted.key>: <reason>". On error `root` is unchanged.
template <class Root>
void apply_override(Root& root, const std::string& assignment, const std::string& origin = "override");

/// The effective configuration as YAML (every key, current values), re-loadable by apply_yaml.
template <class Root>
std::string dump_yaml(Root& root);

/// A reference of every key: "key  type/unit  default  range  description", one per line.
template <class Root>
std::string reference(Root& root);

/// Checks every value of `root` against its key's Rule. Throws ConfigError listing every problem,
/// one per line: "<origin>: <dotted.key>: <reason>".
template <class Root>
void validate(Root& root, const std::string& origin);

/// A top-level scalar of a YAML document (e.g. `base: ascend910b`) with its 1-based line.
struct YamlScalar {
  std::string value;
  int line = 0;
};
/// Finds top-level `key` in `yaml_text`: nullopt if absent; ConfigError naming `origin` if the
/// document does not parse or the value is not a scalar.
std::optional<YamlScalar> find_top_level_scalar(const std::string& yaml_text, const std::string& key,
                                                const std::string& origin);

}  // namespace npusim::sim

#include "sim/config_impl.h"  // template definitions over the visitor classes
