// SPDX-License-Identifier: Apache-2.0
// The non-template value and rule helpers of sim/config_values.h.
#include "sim/config_values.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace npusim::sim::config_values {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::optional<std::string> parse_value(const std::string& text, std::int64_t& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b < e && *b == '+' && e - b > 1 && b[1] != '-') ++b;
  int base = 10;
  if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
    base = 16;
    b += 2;
  }
  std::int64_t v = 0;
  auto r = std::from_chars(b, e, v, base);
  if (r.ec == std::errc::result_out_of_range) return "integer out of range, got " + quoted(text);
  if (b == e || r.ec != std::errc() || r.ptr != e) return "expected an integer, got " + quoted(text);
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, double& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b < e && *b == '+') ++b;
  double v = 0;
  auto r = std::from_chars(b, e, v);
  if (b == e || r.ec != std::errc() || r.ptr != e || !std::isfinite(v))
    return "expected a number, got " + quoted(text);
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, bool& out) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t == "true" || t == "yes" || t == "on") {
    out = true;
  } else if (t == "false" || t == "no" || t == "off") {
    out = false;
  } else {
    return "expected true or false, got " + quoted(text);
  }
  return std::nullopt;
}

std::optional<std::string> parse_value(const std::string& text, std::string& out) {
  out = text;
  return std::nullopt;
}

std::string format_value(std::int64_t v) { return std::to_string(v); }

std::string format_value(bool v) { return v ? "true" : "false"; }

std::string format_value(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string format_value(const std::string& v) {
  YAML::Emitter e;
  e << v;  // quotes only when YAML needs it ("", "a: b", leading '#'...)
  return e.c_str();
}

const char* type_name(const std::int64_t&) { return "integer"; }

const char* type_name(const double&) { return "number"; }

const char* type_name(const bool&) { return "bool"; }

const char* type_name(const std::string&) { return "string"; }

Rule default_rule(const std::int64_t&) { return at_least(0); }

Rule default_rule(const double&) { return at_least(0); }

Rule default_rule(const bool&) { return Rule{true}; }

Rule default_rule(const std::string&) { return Rule{true}; }

Rule default_rule(const Bytes&) { return above(0); }

Rule default_rule(const Bandwidth&) { return above(0); }

Rule default_rule(const Duration&) { return at_least(0); }

Rule default_rule(const Frequency&) { return above(0); }

double base_value(std::int64_t v) { return static_cast<double>(v); }

double base_value(double v) { return v; }

double base_value(const Bytes& v) { return static_cast<double>(v.value); }

double base_value(const Bandwidth& v) { return v.bytes_per_sec; }

double base_value(const Duration& v) { return static_cast<double>(v.ps); }

double base_value(const Frequency& v) { return v.hz; }

std::string bound_text(double b, const std::int64_t&) { return std::to_string(static_cast<long long>(b)); }

std::string bound_text(double b, const double&) { return format_value(b); }

std::string bound_text(double b, const Bytes&) { return to_string(Bytes{static_cast<std::uint64_t>(b)}); }

std::string bound_text(double b, const Bandwidth&) { return to_string(Bandwidth{b}); }

std::string bound_text(double b, const Duration&) { return to_string(Duration{static_cast<SimTime>(b)}); }

std::string bound_text(double b, const Frequency&) { return to_string(Frequency{b}); }

bool is_choice(const char* choices, const std::string& v) {
  std::string all(choices);
  std::size_t start = 0;
  while (true) {
    std::size_t bar = all.find('|', start);
    if (all.compare(start, bar == std::string::npos ? std::string::npos : bar - start, v) == 0 &&
        (bar == std::string::npos ? all.size() - start : bar - start) == v.size())
      return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

std::string choice_list(const char* choices) {
  std::string out(choices);
  const std::size_t last = out.rfind('|');
  if (last != std::string::npos) out.replace(last, 1, " or ");
  for (std::size_t bar = out.find('|'); bar != std::string::npos; bar = out.find('|', bar))
    out.replace(bar, 1, ", ");
  return out;
}

}  // namespace npusim::sim::config_values
