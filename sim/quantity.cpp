// SPDX-License-Identifier: Apache-2.0
// Quantity parsing and formatting. Numbers are read as exact decimals (digits × 10^exp) and scaled
// by the unit (10^dec × 2^bin), so "1.5KiB", "25.6GB/s" and "1.5ms" convert without drift:
// integers (bytes, picoseconds) in 128-bit arithmetic, doubles by one correctly rounded
// std::from_chars of the rescaled decimal.
#include "sim/quantity.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace npusim::sim {
namespace {

using U128 = unsigned __int128;

/// A unit suffix and its multiplier 10^dec × 2^bin.
struct Unit {
  const char* name;
  int dec;
  int bin;
};

/// What one kind of quantity accepts and how it describes itself in errors.
struct Kind {
  const char* what;     // "a bandwidth such as 25GB/s"
  std::vector<Unit> units;
  bool bare_allowed;    // a plain number is accepted (bytes)
};

// The tables below are created on first use and never destroyed (leaked on purpose): the runtime
// writes its outputs from an atexit hook, which runs after function-local statics created later
// than the hook's registration have been destroyed.
const Kind& bytes_kind() {
  static const Kind& k = *new Kind{"a size such as 64KiB",
                      {{"B", 0, 0}, {"KB", 3, 0}, {"kB", 3, 0}, {"MB", 6, 0}, {"GB", 9, 0},
                       {"TB", 12, 0}, {"KiB", 0, 10}, {"MiB", 0, 20}, {"GiB", 0, 30},
                       {"TiB", 0, 40}},
                      true};
  return k;
}

const Kind& bandwidth_kind() {
  static const Kind& k = *new Kind{"a bandwidth such as 25GB/s",
                      {{"B/s", 0, 0}, {"KB/s", 3, 0}, {"kB/s", 3, 0}, {"MB/s", 6, 0},
                       {"GB/s", 9, 0}, {"TB/s", 12, 0}, {"KiB/s", 0, 10}, {"MiB/s", 0, 20},
                       {"GiB/s", 0, 30}, {"TiB/s", 0, 40}, {"bit/s", 0, -3}, {"kbit/s", 3, -3},
                       {"Kbit/s", 3, -3}, {"Mbit/s", 6, -3}, {"Gbit/s", 9, -3},
                       {"Tbit/s", 12, -3}, {"kb/s", 3, -3}, {"Kb/s", 3, -3}, {"Mb/s", 6, -3},
                       {"Gb/s", 9, -3}, {"Tb/s", 12, -3}},
                      false};
  return k;
}

const Kind& duration_kind() {
  static const Kind& k = *new Kind{"a duration such as 1us",
                      {{"ps", 0, 0}, {"ns", 3, 0}, {"us", 6, 0}, {"\xC2\xB5s", 6, 0},
                       {"ms", 9, 0}, {"s", 12, 0}},
                      false};
  return k;
}

const Kind& frequency_kind() {
  static const Kind& k = *new Kind{"a frequency such as 1.8GHz",
                      {{"Hz", 0, 0}, {"kHz", 3, 0}, {"KHz", 3, 0}, {"MHz", 6, 0}, {"GHz", 9, 0}},
                      false};
  return k;
}

/// An exact decimal: digits × 10^exp10, scaled by a unit.
struct Parsed {
  U128 digits = 0;
  int exp10 = 0;
  Unit unit{"", 0, 0};
};

constexpr int kMaxDigits = 20;  // enough for any uint64; later digits only shift the exponent

std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::string reject(const Kind& k, const std::string& text, const std::string& why = {}) {
  std::string r = std::string("expected ") + k.what + ", got \"" + text + "\"";
  if (!why.empty()) r += " (" + why + ")";
  return r;
}

std::string unit_list(const Kind& k) {
  std::string s;
  for (const Unit& u : k.units) s += (s.empty() ? "" : ", ") + std::string(u.name);
  return s;
}

/// Reads "12", "1.5", ".5", "2e3" from text[pos]; advances pos. False if no digit was found.
bool read_number(const std::string& t, std::size_t& pos, Parsed& p) {
  int seen = 0, sig = 0;
  bool dot = false;
  for (; pos < t.size(); ++pos) {
    char c = t[pos];
    if (c == '.' && !dot) { dot = true; continue; }
    if (c < '0' || c > '9') break;
    ++seen;
    if (p.digits == 0 && c == '0') { if (dot) --p.exp10; continue; }
    if (sig < kMaxDigits) {
      p.digits = p.digits * 10 + static_cast<unsigned>(c - '0');
      ++sig;
      if (dot) --p.exp10;
    } else if (!dot) {
      ++p.exp10;
    }
  }
  if (seen == 0) return false;
  if (pos < t.size() && (t[pos] == 'e' || t[pos] == 'E')) {
    std::size_t q = pos + 1;
    if (q < t.size() && (t[q] == '+' || t[q] == '-')) ++q;
    int e = 0;
    auto r = std::from_chars(t.data() + q, t.data() + t.size(), e);
    if (r.ec == std::errc() && r.ptr != t.data() + q && e < 100000) {
      p.exp10 += (t[pos + 1] == '-') ? -e : e;
      pos = static_cast<std::size_t>(r.ptr - t.data());
    }
  }
  return true;
}

/// Parses "<number>[ ]<unit>" for kind k; returns an error text or empty.
std::string parse_parts(const std::string& raw, const Kind& k, Parsed& p) {
  std::string t = trim(raw);
  if (t.empty()) return reject(k, raw, "empty");
  if (t[0] == '-') return reject(k, raw, "negative");
  std::size_t pos = (t[0] == '+') ? 1 : 0;
  if (!read_number(t, pos, p)) return reject(k, raw);
  while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t')) ++pos;
  std::string unit = t.substr(pos);
  if (unit.empty()) {
    if (k.bare_allowed || p.digits == 0) return {};  // zero needs no unit
    return reject(k, raw, "missing unit; use one of " + unit_list(k));
  }
  for (const Unit& u : k.units) {
    if (unit == u.name) { p.unit = u; return {}; }
  }
  bool letters = unit.find_first_of("0123456789.") == std::string::npos;
  if (!letters) return reject(k, raw);
  return reject(k, raw, "unknown unit \"" + unit + "\"; use one of " + unit_list(k));
}

U128 pow10_u128(int n) {
  U128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

/// digits × 10^(exp10+dec) × 2^bin as an integer, rounded half up. False on overflow of uint64.
bool to_integer(const Parsed& p, std::uint64_t& out, bool& inexact) {
  const U128 limit = std::numeric_limits<std::uint64_t>::max();
  if (p.unit.bin < 0) return false;
  U128 v = p.digits << p.unit.bin;  // digits < 10^20 < 2^67, bin ≤ 40
  int e = p.exp10 + p.unit.dec;
  inexact = false;
  if (v == 0) { out = 0; return true; }
  for (; e > 0; --e) {
    if (v > limit) return false;
    v *= 10;
  }
  if (e < 0) {
    if (-e > 38) { out = 0; inexact = true; return true; }
    U128 d = pow10_u128(-e);
    inexact = (v % d) != 0;
    U128 q = v / d;
    if ((v % d) * 2 >= d) ++q;
    v = q;
  }
  if (v > limit) return false;
  out = static_cast<std::uint64_t>(v);
  return true;
}

std::string u128_text(U128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

/// digits × 10^(exp10+dec) × 2^bin as the nearest double. False if not finite.
bool to_double(const Parsed& p, double& out) {
  std::string text = u128_text(p.digits) + "e" + std::to_string(p.exp10 + p.unit.dec);
  double v = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc()) {
    if (p.exp10 + p.unit.dec < 0) { out = 0; return true; }  // underflow: rounds to zero
    return false;
  }
  v = std::ldexp(v, p.unit.bin);
  if (!std::isfinite(v)) return false;
  out = v;
  return true;
}

std::optional<std::string> parse_double(const std::string& text, const Kind& k, double& out) {
  Parsed p;
  std::string err = parse_parts(text, k, p);
  if (!err.empty()) return err;
  if (!to_double(p, out)) return reject(k, text, "too large");
  return std::nullopt;
}

std::string shortest(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

/// The shortest "<number><unit>" among k's units that parses back to v.
std::string format_double(double v, const Kind& k) {
  std::string best;
  double best_scale = 0;
  for (const Unit& u : k.units) {
    if (u.bin < 0) continue;  // bits parse, but the canonical form is in bytes
    double scale = std::ldexp(std::pow(10.0, u.dec), u.bin);
    double q = v / scale;
    if (v != 0 && q < 1) continue;
    std::string candidate = shortest(q) + u.name;
    double back = 0;
    if (parse_double(candidate, k, back) || back != v) continue;
    bool shorter = best.empty() || candidate.size() < best.size();
    if (shorter || (candidate.size() == best.size() && scale > best_scale)) {
      best = candidate;  // ties go to the larger unit: 1.06GHz, not 1060MHz
      best_scale = scale;
    }
  }
  if (best.empty()) best = shortest(v) + k.units.front().name;  // scale 1: always exact
  return best;
}

/// The unit among `units` giving the shortest exact integer text (listed first wins ties).
std::string format_integer(std::uint64_t v, const std::vector<Unit>& units) {
  std::string best;
  for (const Unit& u : units) {
    if (u.bin < 0) continue;
    U128 scale = pow10_u128(u.dec) << u.bin;
    if (v % scale != 0) continue;
    std::string candidate = u128_text(v / scale) + u.name;
    if (best.empty() || candidate.size() < best.size()) best = candidate;
  }
  return best;
}

// A quantity counted in whole units (bytes, picoseconds): the error, or nullopt with the count in
// `v` and whether it was rounded to get there.
std::optional<std::string> parse_whole(const std::string& text, const Kind& k, std::uint64_t& v,
                                       bool& inexact) {
  Parsed p;
  std::string err = parse_parts(text, k, p);
  if (!err.empty()) return err;
  if (!to_integer(p, v, inexact)) return reject(k, text, "too large");
  return std::nullopt;
}

}  // namespace

SimTime Bandwidth::transfer_time(std::uint64_t bytes) const {
  if (bytes == 0) return 0;
  if (!(bytes_per_sec > 0)) return std::numeric_limits<SimTime>::max();
  const double bps = bytes_per_sec;
  if (bps == std::floor(bps) && bps < 9.0e18) {
    auto d = static_cast<U128>(bps);
    U128 num = static_cast<U128>(bytes) * kSec;
    U128 t = (num + d - 1) / d;
    return t > std::numeric_limits<SimTime>::max() ? std::numeric_limits<SimTime>::max()
                                                   : static_cast<SimTime>(t);
  }
  long double t = std::ceil(static_cast<long double>(bytes) * kSec / bps);
  if (t >= 1.8e19L) return std::numeric_limits<SimTime>::max();
  return static_cast<SimTime>(t);
}

SimTime Frequency::cycles(std::uint64_t n) const {
  if (n == 0) return 0;
  if (!(hz > 0)) return std::numeric_limits<SimTime>::max();
  if (hz == std::floor(hz) && hz < 9.0e18) {
    auto d = static_cast<U128>(hz);
    U128 t = (static_cast<U128>(n) * kSec + d / 2) / d;
    return t > std::numeric_limits<SimTime>::max() ? std::numeric_limits<SimTime>::max()
                                                   : static_cast<SimTime>(t);
  }
  long double t = std::floor(static_cast<long double>(n) * kSec / hz + 0.5L);
  if (t >= 1.8e19L) return std::numeric_limits<SimTime>::max();
  return static_cast<SimTime>(t);
}

std::optional<std::string> parse_quantity(const std::string& text, Bytes& out) {
  std::uint64_t v = 0;
  bool inexact = false;
  if (auto err = parse_whole(text, bytes_kind(), v, inexact)) return err;
  if (inexact) return reject(bytes_kind(), text, "not a whole number of bytes");
  out.value = v;
  return std::nullopt;
}

std::optional<std::string> parse_quantity(const std::string& text, Bandwidth& out) {
  return parse_double(text, bandwidth_kind(), out.bytes_per_sec);
}

std::optional<std::string> parse_quantity(const std::string& text, Duration& out) {
  std::uint64_t v = 0;
  bool inexact = false;  // sub-picosecond parts round to the nearest picosecond
  if (auto err = parse_whole(text, duration_kind(), v, inexact)) return err;
  out.ps = v;
  return std::nullopt;
}

std::optional<std::string> parse_quantity(const std::string& text, Frequency& out) {
  return parse_double(text, frequency_kind(), out.hz);
}

std::string to_string(const Bytes& v) {
  if (v.value == 0) return "0B";
  // Binary units first: 64GiB rather than 68719476736B; decimal when exact and shorter (24GB).
  static const std::vector<Unit>& kOrder = *new std::vector<Unit>{
      {"TiB", 0, 40}, {"GiB", 0, 30}, {"MiB", 0, 20}, {"KiB", 0, 10}, {"TB", 12, 0},
      {"GB", 9, 0},   {"MB", 6, 0},   {"KB", 3, 0},   {"B", 0, 0}};
  return format_integer(v.value, kOrder);
}

std::string to_string(const Bandwidth& v) { return format_double(v.bytes_per_sec, bandwidth_kind()); }

std::string to_string(const Duration& v) {
  if (v.ps == 0) return "0ns";
  static const std::vector<Unit>& kOrder = *new std::vector<Unit>{
      {"s", 12, 0}, {"ms", 9, 0}, {"us", 6, 0}, {"ns", 3, 0}, {"ps", 0, 0}};
  return format_integer(v.ps, kOrder);
}

std::string to_string(const Frequency& v) { return format_double(v.hz, frequency_kind()); }

const char* unit_name(const Bytes&) { return "bytes"; }
const char* unit_name(const Bandwidth&) { return "B/s"; }
const char* unit_name(const Duration&) { return "time"; }
const char* unit_name(const Frequency&) { return "Hz"; }

}  // namespace npusim::sim
