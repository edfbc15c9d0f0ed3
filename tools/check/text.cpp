// SPDX-License-Identifier: Apache-2.0
#include "tools/check/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace npusim::check {

std::string num(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);  // counts, bytes, picoseconds: every digit
  } else {
    std::snprintf(buf, sizeof(buf), "%.6g", v);
  }
  return buf;
}

std::string percent(double rel) {
  if (std::isnan(rel)) return "n/a";
  if (std::isinf(rel)) return rel > 0 ? "+inf%" : "-inf%";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%+.2f%%", rel * 100.0);
  return buf;
}

std::string csv_percent(double rel) {
  if (std::isinf(rel)) return rel > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4f", rel * 100.0);
  return buf;
}

double rel_change(double a, double b) {
  if (a == b) return 0.0;
  if (a == 0) return b > 0 ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
  return (b - a) / std::fabs(a);
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::size_t text_width(const std::string& s) {
  std::size_t n = 0;
  for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

bool write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return !ec;
}

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> w;
  for (const auto& r : rows_) {
    if (w.size() < r.size()) w.resize(r.size(), 0);
    for (std::size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], text_width(r[c]));
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    std::string line;
    for (std::size_t c = 0; c < rows_[i].size(); ++c) {
      const std::string& s = rows_[i][c];
      const std::string pad(w[c] - text_width(s), ' ');
      line += (c == 0 ? "" : "  ") + (left_.count(c) ? s + pad : pad + s);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    if (i == 0) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < w.size(); ++c) total += w[c] + (c ? 2 : 0);
      out << std::string(total, '-') << "\n";
    }
  }
}

}  // namespace npusim::check
