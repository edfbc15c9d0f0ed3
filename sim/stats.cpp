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
