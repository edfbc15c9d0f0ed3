// SPDX-License-Identifier: Apache-2.0
// Statistics are registered, not printed: a unit owns plain counters and registers each once with
// a name, unit and description; derived values are formulas evaluated at dump time. Groups form a
// tree named after the model hierarchy ("chip0.pcie.h2d.bytes"). One dumper writes it all as JSON.
// Plain C++.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace npusim::sim {

/// The p-th percentile (0 < p <= 100, nearest rank: the smallest sample with at least p% of the
/// samples at or below it) of `samples`; NaN when there are none.
double percentile(std::vector<std::uint64_t> samples, double p);

/// Samples of a quantity for percentiles, in bounded memory: exact (every sample kept) up to
/// kExact samples; past that a log-linear histogram (64 sub-buckets per power of two, so a
/// percentile is the lower bound of a bucket less than 1/64 wide, relative) takes over, built
/// from the samples so far. The largest sample stays exact.
class Distribution {
 public:
  static constexpr std::size_t kExact = 4096;
  void add(std::uint64_t v);
  std::uint64_t count() const { return count_; }
  /// As percentile() above; NaN when empty.
  double percentile(double p) const;
  /// Merges `other` into this one (the engine-wide figure from per-stream ones).
  void merge(const Distribution& other);

 private:
  static std::size_t bucket(std::uint64_t v);
  static std::uint64_t bucket_floor(std::size_t b);
  void to_histogram();
  std::vector<std::uint64_t> exact_;
  std::vector<std::uint64_t> buckets_;  // empty while exact
  std::uint64_t count_ = 0, max_ = 0;
};

class StatGroup;

/// How the run's statistics files are written (stats_json, stats_text).
struct StatsOutput {
  /// true: every statistic. false (the default of a run; `npusim run --stats full` or
  /// NPUSIM_STATS=full sets true): statistics whose value is 0 or none are folded away, and
  /// groups left empty with them; statistics with unit "bool" are always written (0 is news).
  bool full = false;
};

/// stats.json: {"time_unit": "us", "zeros": "folded" | "written", <the tree as to_json()>}.
/// Every time is in microseconds: a statistic registered in "ps" (the engine's unit) is written
/// divided by 10^6 with unit "us". Readers take a statistic absent from a folded file as 0.
std::string stats_json(const StatGroup& root, const StatsOutput& o);
/// stats.txt, a gem5-style summary of the same statistics: one per line,
/// "<dotted name> <value> <unit> # <description>", grouped by unit (a "# unit: <u>" line
/// before each group; groups in order of first appearance, "-" for no unit), between
/// "---------- Begin/End Simulation Statistics ----------" lines, after "time_unit us".
std::string stats_text(const StatGroup& root, const StatsOutput& o);

class StatGroup {
 public:
  explicit StatGroup(std::string name) : name_(std::move(name)) {}
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& name() const { return name_; }

  /// Create (or return) a child group.
  StatGroup& child(const std::string& name);

  /// Register a counter by reference; the owner keeps it alive longer than the group is dumped.
  void add(const std::string& name, const std::uint64_t& value, const char* unit, const char* desc);
  void add(const std::string& name, const double& value, const char* unit, const char* desc);
  /// A derived value computed at dump time (utilisation, achieved bandwidth...).
  void formula(const std::string& name, std::function<double()> f, const char* unit, const char* desc);

  /// {"<stat>": {"value": v, "unit": u, "desc": d}, "<child>": {...}} in registration order.
  /// Counters are written as integers, NaN formulas as null. Registering a name again replaces it.
  std::string to_json(int indent = 2) const;
  /// Look up a value by dotted path below this group ("pcie.h2d.bytes"); NaN if absent.
  /// (Not on a hot path: a linear search.)
  double value(const std::string& path) const;

 private:
  friend struct StatJson;  // stats.cpp: the writers
  struct Entry {
    std::string name, unit, desc;
    const std::uint64_t* count = nullptr;  // exactly one of count / real / formula is set
    const double* real = nullptr;
    std::function<double()> formula;
    double get() const;
  };
  struct Item {
    bool is_child;
    std::size_t index;  // into children_ or entries_
  };
  Entry& entry(const std::string& name);

  std::string name_;
  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<StatGroup>> children_;
  std::vector<Item> order_;  // registration order of entries and children
};

}  // namespace npusim::sim
