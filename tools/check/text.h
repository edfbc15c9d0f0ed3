// SPDX-License-Identifier: Apache-2.0
// Text output shared by `npusim check`, `npusim compare` and `npusim sweep`: numbers, relative
// changes, CSV cells and the aligned plain-text table.
#ifndef NPUSIM_TOOLS_CHECK_TEXT_H_
#define NPUSIM_TOOLS_CHECK_TEXT_H_

#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace npusim::check {

/// Every digit of an integral value (counts, bytes, picoseconds), else 6 significant digits.
std::string num(double v);
/// A relative change as "+14.43%" ("+inf%", "n/a" for NaN).
std::string percent(double rel);
/// A relative change as a plain CSV number of percent: "14.4300", "inf", "-inf".
std::string csv_percent(double rel);
/// Relative change of b against a: (b - a) / |a|; ±inf when a is 0 and b is not, 0 when equal.
double rel_change(double a, double b);
/// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_cell(const std::string& s);
/// Display width of UTF-8 text (continuation bytes take no column).
std::size_t text_width(const std::string& s);
/// Atomically replaces `path` with `text` (a temporary file renamed over it); false on failure.
bool write_file_atomically(const std::string& path, const std::string& text);

/// A plain text table: a header, a rule, rows; the columns in `left` aligned left, the others
/// right.
class Table {
 public:
  Table(std::vector<std::string> header, std::set<std::size_t> left) : left_(std::move(left)) {
    rows_.push_back(std::move(header));
  }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
  std::set<std::size_t> left_;
};

}  // namespace npusim::check

#endif  // NPUSIM_TOOLS_CHECK_TEXT_H_
