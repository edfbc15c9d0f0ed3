// SPDX-License-Identifier: Apache-2.0
// The visitors that read a config struct without a YAML input: DumpVisitor (struct → re-loadable
// YAML with descriptions as comments), ReferenceVisitor (the key table `npusim info` prints) and
// ValidateVisitor (every value against its key's Rule).
#include <algorithm>
#include <string>
#include <vector>

#include "sim/config.h"
#include "sim/config_values.h"

namespace npusim::sim {
namespace {

using namespace config_values;

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

}  // namespace

namespace detail {

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
}  // namespace npusim::sim
