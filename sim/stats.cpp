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

namespace {

constexpr double kPsPerUs = 1e6;

/// One statistic as the run's files show it: times in µs, the value or none (null).
struct Shown {
  nlohmann::ordered_json value;
  std::string unit;
  bool folded = false;
};

/// One line of stats.txt.
struct TextLine {
  std::string name, value, unit, desc;
};

std::string number_text(const nlohmann::ordered_json& v) {
  return v.is_null() ? std::string("nan") : v.dump();
}

}  // namespace

/// The JSON tree and the text lines of a group (a friend, so the header needs no JSON include).
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

  static Shown shown(const StatGroup::Entry& e, bool full) {
    Shown s;
    s.unit = e.unit;
    const double d = e.get();
    if (e.unit == "ps") {
      s.unit = "us";
      if (std::isfinite(d)) s.value = d / kPsPerUs;
    } else if (e.count) {
      s.value = *e.count;
    } else if (std::isfinite(d)) {
      s.value = d;
    }
    s.folded = !full && e.unit != "bool" && (!std::isfinite(d) || d == 0);
    return s;
  }

  /// The group as written to stats.json (empty when everything in it was folded).
  static nlohmann::ordered_json output(const StatGroup& g, bool full) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const StatGroup::Item& item : g.order_) {
      if (item.is_child) {
        const StatGroup& c = *g.children_[item.index];
        nlohmann::ordered_json child = output(c, full);
        if (full || !child.empty()) out[c.name()] = std::move(child);
        continue;
      }
      const StatGroup::Entry& e = g.entries_[item.index];
      Shown s = shown(e, full);
      if (s.folded) continue;
      out[e.name] = nlohmann::ordered_json{{"value", std::move(s.value)}, {"unit", s.unit},
                                           {"desc", e.desc}};
    }
    return out;
  }

  static void lines(const StatGroup& g, const std::string& prefix, bool full,
                    std::vector<TextLine>& out) {
    for (const StatGroup::Item& item : g.order_) {
      if (item.is_child) {
        const StatGroup& c = *g.children_[item.index];
        lines(c, prefix + c.name() + ".", full, out);
        continue;
      }
      const StatGroup::Entry& e = g.entries_[item.index];
      const Shown s = shown(e, full);
      if (!s.folded) out.push_back({prefix + e.name, number_text(s.value), s.unit, e.desc});
    }
  }
};

std::string StatGroup::to_json(int indent) const { return StatJson::build(*this).dump(indent); }

std::string stats_json(const StatGroup& root, const StatsOutput& o) {
  nlohmann::ordered_json out = {{"time_unit", "us"}, {"zeros", o.full ? "written" : "folded"}};
  nlohmann::ordered_json tree = StatJson::output(root, o.full);
  for (auto it = tree.begin(); it != tree.end(); ++it) out[it.key()] = std::move(it.value());
  return out.dump(2);
}

std::string stats_text(const StatGroup& root, const StatsOutput& o) {
  std::vector<TextLine> all;
  StatJson::lines(root, "", o.full, all);
  std::vector<std::string> units;  // in order of first appearance
  std::size_t width = 0;
  for (const TextLine& l : all) {
    if (std::find(units.begin(), units.end(), l.unit) == units.end()) units.push_back(l.unit);
    width = std::max(width, l.name.size());
  }
  std::string out = "---------- Begin Simulation Statistics ----------\ntime_unit us\nzeros ";
  out += o.full ? "written\n" : "folded\n";
  for (const std::string& unit : units) {
    const std::string shown = unit.empty() ? "-" : unit;
    out += "\n# unit: " + shown + "\n";
    for (const TextLine& l : all) {
      if (l.unit != unit) continue;
      out += l.name + std::string(width + 2 - l.name.size(), ' ') + l.value + " " + shown +
             " # " + l.desc + "\n";
    }
  }
  return out + "\n---------- End Simulation Statistics   ----------\n";
}

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
