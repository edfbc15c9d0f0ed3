// SPDX-License-Identifier: Apache-2.0
// Strong types for configuration quantities, parsed with their units at the edge.
// Plain C++ (no SystemC): used by config parsing, models and runtime alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace npusim::sim {

/// Simulated time in picoseconds. 2^64 ps is about 213 days of simulated time.
using SimTime = std::uint64_t;
constexpr SimTime kPs = 1;
constexpr SimTime kNs = 1000;
constexpr SimTime kUs = 1000 * kNs;
constexpr SimTime kMs = 1000 * kUs;
constexpr SimTime kSec = 1000 * kMs;

/// A size in bytes: "64KiB", "192MiB", "64GiB", "4096", "32KB" (KB = 1000).
struct Bytes {
  std::uint64_t value = 0;
};

/// A bandwidth in bytes per second: "25GB/s" (10^9), "1.6TB/s", "900GiB/s".
struct Bandwidth {
  double bytes_per_sec = 0;
  /// Time to move `bytes` at this bandwidth, in picoseconds (rounded up).
  SimTime transfer_time(std::uint64_t bytes) const;
};

/// A duration: "1us", "250ns", "1.5ms", "2s", "10ps".
struct Duration {
  SimTime ps = 0;
};

/// A frequency: "1.8GHz", "1000MHz".
struct Frequency {
  double hz = 0;
  /// Length of `cycles` cycles in picoseconds (rounded to nearest).
  SimTime cycles(std::uint64_t cycles) const;
};

/// Parsers return an error text ("expected a bandwidth such as 25GB/s") or nullopt on success.
std::optional<std::string> parse_quantity(const std::string& text, Bytes& out);
std::optional<std::string> parse_quantity(const std::string& text, Bandwidth& out);
std::optional<std::string> parse_quantity(const std::string& text, Duration& out);
std::optional<std::string> parse_quantity(const std::string& text, Frequency& out);

/// Canonical text form, parseable again by parse_quantity ("64GiB", "25GB/s", "1us", "1.8GHz").
std::string to_string(const Bytes& v);
std::string to_string(const Bandwidth& v);
std::string to_string(const Duration& v);
std::string to_string(const Frequency& v);

/// Unit label used in the config reference ("bytes", "B/s", "time", "Hz").
const char* unit_name(const Bytes&);
const char* unit_name(const Bandwidth&);
const char* unit_name(const Duration&);
const char* unit_name(const Frequency&);

}  // namespace npusim::sim
