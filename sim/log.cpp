// SPDX-License-Identifier: Apache-2.0
#include "sim/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace npusim::sim {
namespace {

constexpr char kLetters[] = {'E', 'W', 'I', 'D'};

/// The process-wide threshold, initialised from NPUSIM_LOG on first use.
std::atomic<int>& threshold() {
  static std::atomic<int> level = [] {
    LogLevel l = LogLevel::kWarn;
    const char* env = std::getenv("NPUSIM_LOG");
    if (env && *env && !parse_log_level(env, l)) {
      std::string msg = std::string("[npusim W] NPUSIM_LOG=\"") + env +
                        "\" is not one of off, error, warn, info, debug; using warn\n";
      std::fputs(msg.c_str(), stderr);
    }
    return static_cast<int>(l);
  }();
  return level;
}

/// Picoseconds as microseconds with trailing zeros trimmed: 12500000 → "12.5us".
std::string format_time(SimTime ps) {
  std::string s = std::to_string(ps / kUs);
  SimTime frac = ps % kUs;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 6 - f.size(), '0');
    f.erase(f.find_last_not_of('0') + 1);
    s += "." + f;
  }
  return s + "us";
}

void emit(LogLevel level, const std::string& prefix_extra, const std::string& message) {
  std::string line = "[npusim ";
  line += kLetters[static_cast<int>(level)];
  line += prefix_extra + "] " + message + "\n";
  std::fputs(line.c_str(), stderr);  // one locked stdio call per message
}

}  // namespace

bool parse_log_level(const std::string& name, LogLevel& out) {
  static const struct {
    const char* name;
    LogLevel level;
  } kNames[] = {{"off", LogLevel::kOff},     {"error", LogLevel::kError}, {"warn", LogLevel::kWarn}, {"warning", LogLevel::kWarn},
                {"info", LogLevel::kInfo},   {"debug", LogLevel::kDebug}};
  for (const auto& n : kNames) {
    if (name == n.name) {
      out = n.level;
      return true;
    }
  }
  return false;
}

LogLevel log_level() { return static_cast<LogLevel>(threshold().load(std::memory_order_relaxed)); }

void set_log_level(LogLevel level) {
  threshold().store(static_cast<int>(level), std::memory_order_relaxed);
}

bool log_enabled(LogLevel level) {
  return static_cast<int>(level) <= threshold().load(std::memory_order_relaxed);
}

void log(LogLevel level, const std::string& message) {
  if (log_enabled(level)) emit(level, "", message);
}

void log(LogLevel level, SimTime at, const std::string& message) {
  if (log_enabled(level)) emit(level, " " + format_time(at), message);
}

}  // namespace npusim::sim
