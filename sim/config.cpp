// SPDX-License-Identifier: Apache-2.0
// The visitor behind sim/config.h's apply_yaml and apply_override: ApplyVisitor (YAML document or
// override → struct, collecting every problem with origin, line, dotted key and reason). Values
// and rules: config_values.h; dump, reference and validation: config_report.cpp.
// yaml-cpp is used only here and in config_values.cpp.
#include "sim/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <optional>
#include <set>
#include <type_traits>

#include "sim/config_values.h"

namespace npusim::sim {
namespace {

using namespace config_values;

/// What a value of this type looks like, for "got a map" errors.
const char* expectation(const std::int64_t&) { return "an integer"; }
const char* expectation(const double&) { return "a number"; }
const char* expectation(const bool&) { return "true or false"; }
const char* expectation(const std::string&) { return "a string"; }
const char* expectation(const Bytes&) { return "a size such as 64KiB"; }
const char* expectation(const Bandwidth&) { return "a bandwidth such as 25GB/s"; }
const char* expectation(const Duration&) { return "a duration such as 1us"; }
const char* expectation(const Frequency&) { return "a frequency such as 1.8GHz"; }

std::string describe_node(const YAML::Node& n) {
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  if (n.IsScalar()) return "the value " + quoted(n.Scalar());
  return "nothing";
}

// ---------------------------------------------------------------------------------------------
// Problems: every error found in one document, reported together.

int line_of(const YAML::Node& n) {
  YAML::Mark m = n.Mark();
  return m.is_null() ? 0 : m.line + 1;
}

class Problems {
 public:
  Problems(std::string origin, bool with_lines) : origin_(std::move(origin)), lines_(with_lines) {}

  void add(int line, const std::string& key, const std::string& reason) {
    std::string text = origin_;
    if (lines_ && line > 0) text += ":" + std::to_string(line);
    text += ": ";
    if (!key.empty()) text += key + ": ";
    items_.push_back({lines_ ? line : 0, text + reason});
  }

  void throw_if_any() {
    if (items_.empty()) return;
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
      return (a.line == 0 ? INT32_MAX : a.line) < (b.line == 0 ? INT32_MAX : b.line);
    });
    std::string all;
    for (const Item& i : items_) all += (all.empty() ? "" : "\n") + i.text;
    throw ConfigError(all);
  }

 private:
  struct Item {
    int line;
    std::string text;
  };
  std::string origin_;
  bool lines_;
  std::vector<Item> items_;
};

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string unknown_key_reason(const std::string& name, const std::string& prefix,
                               const std::vector<std::string>& known) {
  const std::string* best = nullptr;
  std::size_t best_d = 0;
  for (const std::string& k : known) {
    std::size_t d = edit_distance(name, k);
    if (!best || d < best_d) best = &k, best_d = d;
  }
  std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  if (best && best_d <= limit) return "unknown key (did you mean " + quoted(prefix + *best) + "?)";
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return "unknown key (known keys" + (prefix.empty() ? "" : " in " + prefix.substr(0, prefix.size() - 1)) +
         ": " + list + ")";
}

// ---------------------------------------------------------------------------------------------
// ApplyVisitor: a YAML map tree onto the struct tree.

class ApplyVisitor final : public FieldVisitor {
 public:
  ApplyVisitor(const YAML::Node& root, Problems& problems, std::vector<std::string> skip_top)
      : problems_(problems), skip_top_(std::move(skip_top)) {
    stack_.push_back({root, "", {}});
  }

  void on(const char* key, std::int64_t& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, double& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, bool& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, std::string& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, Bytes& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, Bandwidth& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, Duration& v, const char*, const Rule&) override { apply(key, v); }
  void on(const char* key, Frequency& v, const char*, const Rule&) override { apply(key, v); }

  void begin_group(const char* key, const char*) override;
  void end_group() override {
    check_unknown(stack_.back(), {});
    stack_.pop_back();
  }
  /// Reports unknown keys of the top level; call after the walk.
  void finish() { check_unknown(stack_.front(), skip_top_); }

 private:
  struct Level {
    YAML::Node map;  // not a map (e.g. undefined) when the group is absent
    std::string prefix;
    std::vector<std::string> known;
  };
  struct Entry {
    YAML::Node key, value;
  };

  std::optional<Entry> lookup(const char* key);
  void check_unknown(const Level& level, const std::vector<std::string>& skip);
  template <class T>
  void apply(const char* key, T& value);

  Problems& problems_;
  std::vector<std::string> skip_top_;
  std::vector<Level> stack_;
};

std::optional<ApplyVisitor::Entry> ApplyVisitor::lookup(const char* key) {
  Level& top = stack_.back();
  top.known.emplace_back(key);
  if (!top.map.IsMap()) return std::nullopt;
  for (auto it = top.map.begin(); it != top.map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return Entry{it->first, it->second};
  }
  return std::nullopt;
}

template <class T>
void ApplyVisitor::apply(const char* key, T& value) {
  std::string path = stack_.back().prefix + key;
  std::optional<Entry> e = lookup(key);
  if (!e) return;
  int line = line_of(e->key);
  if (!e->value.IsScalar()) {
    problems_.add(line, path,
                  std::string("expected ") + expectation(value) + ", got " + describe_node(e->value));
    return;
  }
  if (auto err = parse_value(e->value.Scalar(), value)) problems_.add(line, path, *err);
}

void ApplyVisitor::begin_group(const char* key, const char*) {
  std::string prefix = stack_.back().prefix + key + ".";
  std::optional<Entry> e = lookup(key);
  YAML::Node map;
  if (e && e->value.IsMap()) {
    map.reset(e->value);
  } else if (e && !e->value.IsNull()) {  // `pcie:` with nothing below is an empty group
    problems_.add(line_of(e->key), prefix.substr(0, prefix.size() - 1),
                  "expected a group of keys, got " + describe_node(e->value));
  }
  stack_.push_back({map, prefix, {}});
}

void ApplyVisitor::check_unknown(const Level& level, const std::vector<std::string>& skip) {
  if (!level.map.IsMap()) return;
  std::set<std::string> seen;
  for (auto it = level.map.begin(); it != level.map.end(); ++it) {
    int line = line_of(it->first);
    if (!it->first.IsScalar()) {
      problems_.add(line, level.prefix, "keys must be plain names, got " + describe_node(it->first));
      continue;
    }
    const std::string& name = it->first.Scalar();
    const std::string path = level.prefix + name;
    if (!seen.insert(name).second) {
      problems_.add(line, path, "duplicate key");
    } else if (std::find(skip.begin(), skip.end(), name) != skip.end()) {
      continue;
    } else if (std::find(level.known.begin(), level.known.end(), name) == level.known.end()) {
      problems_.add(line, path, unknown_key_reason(name, level.prefix, level.known));
    }
  }
}

YAML::Node load_yaml(const std::string& text, const std::string& origin) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::string where = origin;
    if (!e.mark.is_null()) where += ":" + std::to_string(e.mark.line + 1);
    throw ConfigError(where + ": YAML syntax error: " + e.msg);
  }
}
std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

/// "a.b.c" → {"a","b","c"}; empty if any part is empty.
std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = key.find('.', start);
    std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) return {};
    parts.push_back(part);
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

}  // namespace

namespace detail {

void apply_yaml(const Walk& walk, const std::string& yaml_text, const std::string& origin,
                const std::vector<std::string>& skip_top_keys) {
  YAML::Node doc = load_yaml(yaml_text, origin);
  Problems problems(origin, true);
  if (!doc.IsNull() && !doc.IsMap()) {
    problems.add(line_of(doc), "", "expected a map of keys at the top level, got " + describe_node(doc));
    problems.throw_if_any();
  }
  ApplyVisitor v(doc, problems, skip_top_keys);
  walk(v);
  v.finish();
  problems.throw_if_any();
}

void apply_override(const Walk& walk, const std::string& assignment, const std::string& origin) {
  std::size_t eq = assignment.find('=');
  std::string key = trim(assignment.substr(0, eq));
  std::vector<std::string> parts = split_key(key);
  if (eq == std::string::npos || parts.empty())
    throw ConfigError(origin + ": expected key=value (e.g. pcie.h2d_bandwidth=16GB/s), got " +
                      quoted(assignment));
  std::string value = trim(assignment.substr(eq + 1));
  YAML::Node node;
  try {
    node = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ": " + key + ": cannot read value " + quoted(value) + ": " + e.msg);
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    YAML::Node map(YAML::NodeType::Map);
    map[*it] = node;
    node.reset(map);
  }
  Problems problems(origin, false);
  ApplyVisitor v(node, problems, {});
  walk(v);
  v.finish();
  problems.throw_if_any();
}


}  // namespace detail

std::optional<YamlScalar> find_top_level_scalar(const std::string& yaml_text, const std::string& key,
                                                const std::string& origin) {
  YAML::Node doc = load_yaml(yaml_text, origin);
  if (!doc.IsMap()) return std::nullopt;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
    int line = line_of(it->first);
    if (!it->second.IsScalar()) {
      Problems p(origin, true);
      p.add(line, key, "expected a single value, got " + describe_node(it->second));
      p.throw_if_any();
    }
    return YamlScalar{it->second.Scalar(), line};
  }
  return std::nullopt;
}

}  // namespace npusim::sim
