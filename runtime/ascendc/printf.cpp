// SPDX-License-Identifier: Apache-2.0
// AscendC::printf formatting: C printf conversions, each argument printed with its own type.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "npusim/ascendc/device.h"
#include "npusim/ascendc/mix_launch.h"

namespace npusim::ascendc {

namespace {

std::int64_t as_signed(const PrintfArg& a) {
  if (a.kind == PrintfArg::kDouble) return static_cast<std::int64_t>(a.d);
  if (a.kind != PrintfArg::kSigned && a.kind != PrintfArg::kUnsigned) {
    return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a.p));
  }
  const unsigned bits = a.size * 8u;
  if (bits >= 64) return a.i;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  const std::uint64_t v = a.u & mask;
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  return static_cast<std::int64_t>((v ^ sign) - sign);  // sign-extend from the argument's width
}

std::uint64_t as_unsigned(const PrintfArg& a) {
  if (a.kind == PrintfArg::kDouble) return static_cast<std::uint64_t>(a.d);
  if (a.kind != PrintfArg::kSigned && a.kind != PrintfArg::kUnsigned) {
    return reinterpret_cast<std::uintptr_t>(a.p);
  }
  const unsigned bits = a.size * 8u;
  return bits >= 64 ? a.u : a.u & ((std::uint64_t{1} << bits) - 1);
}

double as_double(const PrintfArg& a) {
  if (a.kind == PrintfArg::kDouble) return a.d;
  if (a.kind == PrintfArg::kUnsigned) return static_cast<double>(a.u);
  return static_cast<double>(as_signed(a));
}

void append(std::vector<char>& out, const char* s, std::size_t n) {
  out.insert(out.end(), s, s + n);
}

// Formats one argument with the spec "%<flags/width/precision>" + conversion `conv`.
void format_one(std::vector<char>& out, std::string spec, char conv, const PrintfArg& a) {
  char buf[512];
  int n = 0;
  switch (conv) {
    case 'd':
    case 'i':
      n = std::snprintf(buf, sizeof buf, (spec + "lld").c_str(),
                        static_cast<long long>(as_signed(a)));
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      n = std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(),
                        static_cast<unsigned long long>(as_unsigned(a)));
      break;
    case 'c':
      n = std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(as_signed(a)));
      break;
    case 's':
      n = std::snprintf(buf, sizeof buf, (spec + "s").c_str(),
                        a.kind == PrintfArg::kString && a.s != nullptr ? a.s : "(null)");
      break;
    case 'p':
      n = std::snprintf(buf, sizeof buf, (spec + "p").c_str(),
                        reinterpret_cast<const void*>(static_cast<std::uintptr_t>(as_unsigned(a))));
      break;
    default:  // f F e E g G a A
      n = std::snprintf(buf, sizeof buf, (spec + conv).c_str(), as_double(a));
      break;
  }
  if (n > 0) append(out, buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

}  // namespace

void format_printf(std::vector<char>& out, const char* fmt, const PrintfArg* args,
                   std::size_t count) {
  if (fmt == nullptr) return;
  std::size_t next = 0;
  const char* p = fmt;
  while (*p != '\0') {
    if (*p != '%') {
      const char* q = std::strchr(p, '%');
      const std::size_t n = q != nullptr ? static_cast<std::size_t>(q - p) : std::strlen(p);
      append(out, p, n);
      p += n;
      continue;
    }
    const char* start = p++;
    if (*p == '%') {
      out.push_back('%');
      ++p;
      continue;
    }
    std::string spec = "%";
    while (*p != '\0' && std::strchr("-+ #0", *p) != nullptr) spec += *p++;
    while (*p == '*' || (*p >= '0' && *p <= '9') || *p == '.') {
      if (*p == '*') {
        spec += std::to_string(next < count ? as_signed(args[next++]) : 0);
        ++p;
      } else {
        spec += *p++;
      }
    }
    while (*p != '\0' && std::strchr("hlLqjzt", *p) != nullptr) ++p;
    const char conv = *p;
    if (conv == '\0' || std::strchr("diuxXocspfFeEgGaA", conv) == nullptr || next >= count) {
      append(out, start, static_cast<std::size_t>((conv == '\0' ? p : p + 1) - start));
      if (conv != '\0') ++p;
      continue;
    }
    ++p;
    format_one(out, spec, conv, args[next++]);
  }
}

}  // namespace npusim::ascendc

namespace npusim::ascendc {

void append_block_lines(BlockContext& ctx, const std::vector<char>& text) {
  char prefix[64];
  const int n = std::snprintf(prefix, sizeof prefix, "[%s Block %u/%u] ",
                              ctx.core_name != nullptr ? ctx.core_name : "AIV", ctx.block_idx(),
                              ctx.block_num());
  bool line_start = ctx.printf_out.empty() || ctx.printf_out.back() == '\n';
  for (char c : text) {
    if (line_start) ctx.printf_out.insert(ctx.printf_out.end(), prefix, prefix + n);
    ctx.printf_out.push_back(c);
    line_start = c == '\n';
  }
}

void kernel_core(const char* name) {
  if (BlockContext* ctx = current_block()) ctx->core_name = name;
  ::g_coreType = std::strcmp(name, "AIC") == 0 ? kCoreAic : kCoreAiv;
}

}  // namespace npusim::ascendc
