// SPDX-License-Identifier: Apache-2.0
// Levelled diagnostics for humans on stderr: "[npusim W] message" or, with a simulated time,
// "[npusim W 12.5us] message". The level comes from NPUSIM_LOG (error|warn|info|debug, default
// warn), read once. Never parsed by tools; statistics and timelines are separate (stats.h,
// trace.h). Thread-safe: each message is written with a single call. Plain C++.
#pragma once

#include <string>

#include "sim/quantity.h"

namespace npusim::sim {

enum class LogLevel { kOff = -1, kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

/// The current threshold: messages at this level or more severe are printed.
LogLevel log_level();
/// Overrides NPUSIM_LOG (e.g. a CLI flag or a test).
void set_log_level(LogLevel level);
/// True when a message at `level` would be printed; test it before building costly messages.
bool log_enabled(LogLevel level);
/// "off" → kOff (nothing printed), "error" → kError ...; false (and `out` untouched) for an unknown name.
bool parse_log_level(const std::string& name, LogLevel& out);

void log(LogLevel level, const std::string& message);
/// As log(), prefixed with the simulated time `at`.
void log(LogLevel level, SimTime at, const std::string& message);

inline void log_error(const std::string& m) { log(LogLevel::kError, m); }
inline void log_warn(const std::string& m) { log(LogLevel::kWarn, m); }
inline void log_info(const std::string& m) { log(LogLevel::kInfo, m); }
inline void log_debug(const std::string& m) { log(LogLevel::kDebug, m); }

}  // namespace npusim::sim
