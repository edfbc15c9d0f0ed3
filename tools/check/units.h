// SPDX-License-Identifier: Apache-2.0
// The units of the metrics `npusim check`, `npusim compare` and `npusim sweep` read: a metric's
// unit comes from its source (a stats.json statistic's `unit`, an op_summary.csv column's
// "(us)", the timeline's µs) or, where the source says none, from its name (`..._us`,
// `...bytes`, `...utilization`: the table in units.cpp); a metric spec may ask for another unit
// of the same kind (`{stats: sim_time, unit: us}`) and the value is converted.
#ifndef NPUSIM_TOOLS_CHECK_UNITS_H_
#define NPUSIM_TOOLS_CHECK_UNITS_H_

#include <optional>
#include <string>

namespace npusim::check {

/// The canonical spelling of a unit ("µs" and "μs" are "us"), or "" when it is not one we know.
std::string canonical_unit(const std::string& unit);

/// Every known unit, for messages: "ps, ns, us, ms, s, B, KB, ...".
std::string known_units();

/// The factor that turns a value in `from` into `to` (both known units of one kind: times,
/// sizes, bandwidths, frequencies, ratios, FLOPS); nullopt when they measure different things.
std::optional<double> unit_factor(const std::string& from, const std::string& to);

/// The unit a metric's name implies when its source states none: "simulated_us" -> us,
/// "h2d.bytes" -> B, "Task Duration(us)" -> us, "chip0.l2.read_hit_rate" -> ratio, ...;
/// otherwise "count".
std::string unit_from_name(const std::string& name);

}  // namespace npusim::check

#endif  // NPUSIM_TOOLS_CHECK_UNITS_H_
