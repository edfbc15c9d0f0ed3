// SPDX-License-Identifier: Apache-2.0
// The visitors behind sim/config.h: ApplyVisitor (YAML document or override → struct, collecting
// every problem with origin, line, dotted key and reason), DumpVisitor (struct → re-loadable YAML
// with descriptions as comments) and ReferenceVisitor (the key table `npusim info` prints).
// yaml-cpp is used only here.
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

namespace npusim::sim {
namespace {

// ---------------------------------------------------------------------------------------------
// Values: parse from a YAML scalar's text, format for the dump, name the type.

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::optional<std::string> parse_value(const std::string& text, std::int64_t& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b < e && *b == '+' && e - b > 1 && b[1] != '-') ++b;
  int base = 10;
  if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
    base = 16;
    b += 2;
  }
  std::int64_t v = 0;
  auto r = std::from_chars(b, e, v, base);
  if (r.ec == std::errc::result_out_of_range) return "integer out of range, got " + quoted(text);
  if (b == e || r.ec != std::errc() || r.ptr != e) return "expected an integer, got " + quoted(text);
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, double& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b < e && *b == '+') ++b;
  double v = 0;
  auto r = std::from_chars(b, e, v);
  if (b == e || r.ec != std::errc() || r.ptr != e || !std::isfinite(v))
    return "expected a number, got " + quoted(text);
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, bool& out) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t == "true" || t == "yes" || t == "on") {
    out = true;
  } else if (t == "false" || t == "no" || t == "off") {
    out = false;
  } else {
    return "expected true or false, got " + quoted(text);
  }
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, std::string& out) {
  out = text;
  return std::nullopt;
}

template <class Q>
std::optional<std::string> parse_value(const std::string& text, Q& out) {
  return parse_quantity(text, out);
}

std::string format_value(std::int64_t v) { return std::to_string(v); }
std::string format_value(bool v) { return v ? "true" : "false"; }
std::string format_value(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}
std::string format_value(const std::string& v) {
  YAML::Emitter e;
  e << v;  // quotes only when YAML needs it ("", "a: b", leading '#'...)
  return e.c_str();
}
template <class Q>
std::string format_value(const Q& v) {
  return to_string(v);
}

const char* type_name(const std::int64_t&) { return "integer"; }
const char* type_name(const double&) { return "number"; }
const char* type_name(const bool&) { return "bool"; }
const char* type_name(const std::string&) { return "string"; }
template <class Q>
const char* type_name(const Q& v) {
  return unit_name(v);
}

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
// Rules: what a key accepts (sim::Rule), checked in the value's base unit.

/// The rule a key gets when it declares none.
Rule default_rule(const std::int64_t&) { return at_least(0); }
Rule default_rule(const double&) { return at_least(0); }
Rule default_rule(const bool&) { return Rule{true}; }
Rule default_rule(const std::string&) { return Rule{true}; }
Rule default_rule(const Bytes&) { return above(0); }
Rule default_rule(const Bandwidth&) { return above(0); }
Rule default_rule(const Duration&) { return at_least(0); }
Rule default_rule(const Frequency&) { return above(0); }

template <class T>
Rule effective_rule(const Rule& declared, const T& v) {
  return declared.declared ? declared : default_rule(v);
}

double base_value(std::int64_t v) { return static_cast<double>(v); }
double base_value(double v) { return v; }
double base_value(const Bytes& v) { return static_cast<double>(v.value); }
double base_value(const Bandwidth& v) { return v.bytes_per_sec; }
double base_value(const Duration& v) { return static_cast<double>(v.ps); }
double base_value(const Frequency& v) { return v.hz; }

/// A bound written in the key's own unit ("4GiB", "1us", "16").
std::string bound_text(double b, const std::int64_t&) { return std::to_string(static_cast<long long>(b)); }
std::string bound_text(double b, const double&) { return format_value(b); }
std::string bound_text(double b, const Bytes&) { return to_string(Bytes{static_cast<std::uint64_t>(b)}); }
std::string bound_text(double b, const Bandwidth&) { return to_string(Bandwidth{b}); }
std::string bound_text(double b, const Duration&) { return to_string(Duration{static_cast<SimTime>(b)}); }
std::string bound_text(double b, const Frequency&) { return to_string(Frequency{b}); }

/// "1..16", ">= 0", "> 0", "priority|fifo", "" (no limit worth printing).
template <class T>
std::string rule_text(const Rule& r, const T& v) {
  if (r.choices != nullptr) return r.choices;
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
    return "";
  } else {
    if (r.has_max) return bound_text(r.min, v) + ".." + bound_text(r.max, v);
    return (r.above ? "> " : ">= ") + bound_text(r.min, v);
  }
}

bool is_choice(const char* choices, const std::string& v) {
  std::string all(choices);
  std::size_t start = 0;
  while (true) {
    std::size_t bar = all.find('|', start);
    if (all.compare(start, bar == std::string::npos ? std::string::npos : bar - start, v) == 0 &&
        (bar == std::string::npos ? all.size() - start : bar - start) == v.size())
      return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

/// "a|b|c" -> "a, b or c".
std::string choice_list(const char* choices) {
  std::string out(choices);
  const std::size_t last = out.rfind('|');
  if (last != std::string::npos) out.replace(last, 1, " or ");
  for (std::size_t bar = out.find('|'); bar != std::string::npos; bar = out.find('|', bar))
    out.replace(bar, 1, ", ");
  return out;
}

/// Why `v` breaks `declared` (or its type's default rule); "" when it does not.
template <class T>
std::string problem(const Rule& declared, const T& v) {
  const Rule r = effective_rule(declared, v);
  if (r.check != nullptr) {
    std::string why;
    if constexpr (std::is_same_v<T, std::string>) {
      why = r.check(v);
    } else {
      why = r.check(format_value(v));
    }
    if (!why.empty()) return why;
  }
  if constexpr (std::is_same_v<T, bool>) {
    return "";
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (r.choices != nullptr && !is_choice(r.choices, v))
      return "expected " + choice_list(r.choices) + ", got " + quoted(v);
    return "";
  } else {
    const double x = base_value(v);
    if (!std::isfinite(x)) return "must be a finite number";
    const bool low = r.above ? !(x > r.min) : !(x >= r.min);
    const bool high = r.has_max && x > r.max;
    if (!low && !high) return "";
    std::string got = ", got " + format_value(v);
    if (r.has_max) return "must be between " + bound_text(r.min, v) + " and " + bound_text(r.max, v) + got;
    if (r.above) return "must be greater than " + (r.min == 0 ? "0" : bound_text(r.min, v)) + got;
    return (r.min == 0 ? std::string("must not be negative") : "must be at least " + bound_text(r.min, v)) + got;
  }
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

// ---------------------------------------------------------------------------------------------
// DumpVisitor: the struct as YAML, descriptions as comments.

class DumpVisitor final : public FieldVisitor {
 public:
  void on(const char* key, std::int64_t& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, double& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, bool& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, std::string& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, Bytes& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, Bandwidth& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, Duration& v, const char* d, const Rule&) override { emit(key, v, d); }
  void on(const char* key, Frequency& v, const char* d, const Rule&) override { emit(key, v, d); }

  void begin_group(const char* key, const char* desc) override {
    if (depth_ == 0 && !out_.empty()) out_ += "\n";
    comment(desc);
    out_ += indent() + key + ":\n";
    ++depth_;
  }
  void end_group() override { --depth_; }

  const std::string& text() const { return out_; }

 private:
  std::string indent() const { return std::string(2 * static_cast<std::size_t>(depth_), ' '); }
  void comment(const char* desc) {
    if (desc && *desc) out_ += indent() + "# " + desc + "\n";
  }
  template <class T>
  void emit(const char* key, const T& v, const char* desc) {
    comment(desc);
    out_ += indent() + key + ": " + format_value(v) + "\n";
  }

  std::string out_;
  int depth_ = 0;
};

// ---------------------------------------------------------------------------------------------
// KeyPath: the dotted prefix of the group a visitor is in ("pcie.").

class KeyPath {
 public:
  void enter(const char* group) { prefix_ += std::string(group) + "."; }
  void leave() {
    const std::size_t dot = prefix_.find_last_of('.', prefix_.size() - 2);
    prefix_.resize(dot == std::string::npos ? 0 : dot + 1);
  }
  std::string of(const char* key) const { return prefix_ + key; }

 private:
  std::string prefix_;
};

// ---------------------------------------------------------------------------------------------
// ReferenceVisitor: one row per key (and per group), aligned in columns.

class ReferenceVisitor final : public FieldVisitor {
 public:
  void on(const char* key, std::int64_t& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, double& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, bool& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, std::string& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, Bytes& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, Bandwidth& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, Duration& v, const char* d, const Rule& r) override { row(key, v, d, r); }
  void on(const char* key, Frequency& v, const char* d, const Rule& r) override { row(key, v, d, r); }

  void begin_group(const char* key, const char* desc) override {
    rows_.push_back({path_.of(key), "group", "", "", desc ? desc : ""});
    path_.enter(key);
  }
  void end_group() override { path_.leave(); }

  std::string text() const;

 private:
  struct Row {
    std::string key, type, value, range, desc;
  };
  template <class T>
  void row(const char* key, const T& v, const char* desc, const Rule& rule) {
    rows_.push_back({path_.of(key), type_name(v), format_value(v),
                     rule_text(effective_rule(rule, v), v), desc ? desc : ""});
  }

  KeyPath path_;
  std::vector<Row> rows_;
};

std::string ReferenceVisitor::text() const {
  std::size_t wk = 3, wt = 4, wv = 7, wr = 5;
  for (const Row& r : rows_) {
    wk = std::max(wk, r.key.size());
    wt = std::max(wt, r.type.size());
    wv = std::max(wv, r.value.size());
    wr = std::max(wr, r.range.size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - s.size() + 2, ' '); };
  std::string out =
      pad("KEY", wk) + pad("TYPE", wt) + pad("DEFAULT", wv) + pad("RANGE", wr) + "DESCRIPTION\n";
  for (const Row& r : rows_) {
    out += pad(r.key, wk) + pad(r.type, wt) + pad(r.value, wv) + pad(r.range, wr) + r.desc + "\n";
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ValidateVisitor: every value against its key's rule.

class ValidateVisitor final : public FieldVisitor {
 public:
  void on(const char* key, std::int64_t& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, double& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, bool& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, std::string& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, Bytes& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, Bandwidth& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, Duration& v, const char*, const Rule& r) override { check(key, v, r); }
  void on(const char* key, Frequency& v, const char*, const Rule& r) override { check(key, v, r); }
  void begin_group(const char* key, const char*) override { path_.enter(key); }
  void end_group() override { path_.leave(); }

  std::vector<std::string> problems;

 private:
  template <class T>
  void check(const char* key, const T& v, const Rule& r) {
    std::string why = problem(r, v);
    if (!why.empty()) problems.push_back(path_.of(key) + ": " + why);
  }

  KeyPath path_;
};

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

std::string dump_yaml(const Walk& walk) {
  DumpVisitor v;
  walk(v);
  return v.text();
}

std::string reference(const Walk& walk) {
  ReferenceVisitor v;
  walk(v);
  return v.text();
}

void validate(const Walk& walk, const std::string& origin) {
  ValidateVisitor v;
  walk(v);
  if (v.problems.empty()) return;
  std::string all;
  for (const std::string& p : v.problems) all += (all.empty() ? "" : "\n") + origin + ": " + p;
  throw ConfigError(all);
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
