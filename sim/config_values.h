// SPDX-License-Identifier: Apache-2.0
// Internal to the config visitors (config.cpp applies YAML, config_report.cpp dumps, lists and
// validates): a key's value parsed from YAML scalar text, formatted back, named by type, and
// checked against its Rule. Not part of the public sim/config.h interface.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <type_traits>

#include "sim/config.h"

namespace npusim::sim::config_values {

// --- Values: parse from a YAML scalar's text, format for the dump, name the type.

std::string quoted(const std::string& s);

std::optional<std::string> parse_value(const std::string& text, std::int64_t& out);
std::optional<std::string> parse_value(const std::string& text, double& out);
std::optional<std::string> parse_value(const std::string& text, bool& out);
std::optional<std::string> parse_value(const std::string& text, std::string& out);
template <class Q>
std::optional<std::string> parse_value(const std::string& text, Q& out) {
  return parse_quantity(text, out);
}

std::string format_value(std::int64_t v);
std::string format_value(bool v);
std::string format_value(double v);
std::string format_value(const std::string& v);
template <class Q>
std::string format_value(const Q& v) {
  return to_string(v);
}

const char* type_name(const std::int64_t&);
const char* type_name(const double&);
const char* type_name(const bool&);
const char* type_name(const std::string&);
template <class Q>
const char* type_name(const Q& v) {
  return unit_name(v);
}

// --- Rules: what a key accepts (sim::Rule), checked in the value's base unit.

/// The rule a key gets when it declares none.
Rule default_rule(const std::int64_t&);
Rule default_rule(const double&);
Rule default_rule(const bool&);
Rule default_rule(const std::string&);
Rule default_rule(const Bytes&);
Rule default_rule(const Bandwidth&);
Rule default_rule(const Duration&);
Rule default_rule(const Frequency&);

template <class T>
Rule effective_rule(const Rule& declared, const T& v) {
  return declared.declared ? declared : default_rule(v);
}

double base_value(std::int64_t v);
double base_value(double v);
double base_value(const Bytes& v);
double base_value(const Bandwidth& v);
double base_value(const Duration& v);
double base_value(const Frequency& v);

/// A bound written in the key's own unit ("4GiB", "1us", "16").
std::string bound_text(double b, const std::int64_t&);
std::string bound_text(double b, const double&);
std::string bound_text(double b, const Bytes&);
std::string bound_text(double b, const Bandwidth&);
std::string bound_text(double b, const Duration&);
std::string bound_text(double b, const Frequency&);

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

bool is_choice(const char* choices, const std::string& v);

/// "a|b|c" -> "a, b or c".
std::string choice_list(const char* choices);

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

}  // namespace npusim::sim::config_values
