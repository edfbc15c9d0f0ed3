// SPDX-License-Identifier: Apache-2.0
// StatGroup: registered counters and formulas, written as one JSON tree (nlohmann::ordered_json,
// so keys keep their registration order).
#include "sim/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

namespace npusim::sim {

double percentile(std::vector<std::uint64_t> samples, double p) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(samples.begin(), samples.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(samples.size()));
  const std::size_t i = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return static_cast<double>(samples[std::min(i, samples.size() - 1)]);
}

std::size_t Distribution::bucket(std::uint64_t v) {
  if (v < 64) return static_cast<std::size_t>(v);
  int e = 63;
  while ((v >> e) == 0) --e;  // e >= 6
  const std::uint64_t m = (v >> (e - 6)) - 64;  // 0..63
  return 64 + static_cast<std::size_t>(e - 6) * 64 + static_cast<std::size_t>(m);
}

std::uint64_t Distribution::bucket_floor(std::size_t b) {
  if (b < 64) return b;
  const std::size_t e = (b - 64) / 64 + 6, m = (b - 64) % 64;
  return (64 + static_cast<std::uint64_t>(m)) << (e - 6);
}

void Distribution::to_histogram() {
  buckets_.assign(bucket(~std::uint64_t{0}) + 1, 0);
  for (std::uint64_t v : exact_) ++buckets_[bucket(v)];
  exact_.clear();
  exact_.shrink_to_fit();
}

void Distribution::add(std::uint64_t v) {
  ++count_;
  max_ = std::max(max_, v);
  if (buckets_.empty()) {
    exact_.push_back(v);
    if (exact_.size() > kExact) to_histogram();
    return;
  }
  ++buckets_[bucket(v)];
}

void Distribution::merge(const Distribution& other) {
  if (other.buckets_.empty()) {
    for (std::uint64_t v : other.exact_) add(v);
    return;
  }
  if (buckets_.empty()) to_histogram();
  for (std::size_t b = 0; b < buckets_.size(); ++b) buckets_[b] += other.buckets_[b];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

double Distribution::percentile(double p) const {
  if (count_ == 0) return std::numeric_limits<double>::quiet_NaN();
  if (buckets_.empty()) return sim::percentile(exact_, p);
  if (p >= 100) return static_cast<double>(max_);
  const double rank = std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (static_cast<double>(seen) >= rank) return static_cast<double>(bucket_floor(b));
  }
  return static_cast<double>(max_);
}

double StatGroup::Entry::get() const {
  if (count) return static_cast<double>(*count);
  if (real) return *real;
  return formula ? formula() : std::numeric_limits<double>::quiet_NaN();
}

StatGroup& StatGroup::child(const std::string& name) {
  for (auto& c : children_) {
    if (c->name() == name) return *c;
  }
  children_.push_back(std::make_unique<StatGroup>(name));
  order_.push_back({true, children_.size() - 1});
  return *children_.back();
}

StatGroup::Entry& StatGroup::entry(const std::string& name) {
  for (Entry& e : entries_) {
    if (e.name == name) return e = Entry{name, {}, {}, nullptr, nullptr, {}};
  }
  entries_.push_back(Entry{name, {}, {}, nullptr, nullptr, {}});
  order_.push_back({false, entries_.size() - 1});
  return entries_.back();
}

void StatGroup::add(const std::string& name, const std::uint64_t& value, const char* unit,
                    const char* desc) {
  Entry& e = entry(name);
  e.unit = unit ? unit : "";
  e.desc = desc ? desc : "";
  e.count = &value;
}

void StatGroup::add(const std::string& name, const double& value, const char* unit,
                    const char* desc) {
  Entry& e = entry(name);
  e.unit = unit ? unit : "";
  e.desc = desc ? desc : "";
  e.real = &value;
}

void StatGroup::formula(const std::string& name, std::function<double()> f, const char* unit,
                        const char* desc) {
  Entry& e = entry(name);
  e.unit = unit ? unit : "";
  e.desc = desc ? desc : "";
  e.formula = std::move(f);
}

/// Builds the JSON tree of a group (a friend, so the header needs no JSON include).
struct StatJson {
  static nlohmann::ordered_json build(const StatGroup& g) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const StatGroup::Item& item : g.order_) {
      if (item.is_child) {
        const StatGroup& c = *g.children_[item.index];
        out[c.name()] = build(c);
        continue;
      }
      const StatGroup::Entry& e = g.entries_[item.index];
      nlohmann::ordered_json v;
      if (e.count) {
        v["value"] = *e.count;
      } else {
        double d = e.get();
        v["value"] = std::isfinite(d) ? nlohmann::ordered_json(d) : nlohmann::ordered_json();
      }
      v["unit"] = e.unit;
      v["desc"] = e.desc;
      out[e.name] = std::move(v);
    }
    return out;
  }
};

std::string StatGroup::to_json(int indent) const { return StatJson::build(*this).dump(indent); }

double StatGroup::value(const std::string& path) const {
  for (const Entry& e : entries_) {
    if (e.name == path) return e.get();
  }
  for (const auto& c : children_) {
    const std::string& n = c->name();
    if (path.size() > n.size() && path.compare(0, n.size(), n) == 0 && path[n.size()] == '.') {
      double v = c->value(path.substr(n.size() + 1));
      if (!std::isnan(v)) return v;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace npusim::sim
