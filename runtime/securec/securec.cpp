// SPDX-License-Identifier: Apache-2.0
// npusim's securec (lib64/libc_sec.so): see include/securec.h for the contract of each function.
#include "securec.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

bool bad_size(size_t destMax, size_t limit) { return destMax == 0 || destMax > limit; }

// True when [a, a+na) and [b, b+nb) share a byte.
bool overlaps(const void *a, size_t na, const void *b, size_t nb) {
  auto pa = reinterpret_cast<uintptr_t>(a);
  auto pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + nb && pb < pa + na;
}

// Length of s, looking at no more than limit characters (limit when no NUL is found).
size_t bounded_len(const char *s, size_t limit) {
  const void *nul = std::memchr(s, '\0', limit);
  return nul != nullptr ? static_cast<size_t>(static_cast<const char *>(nul) - s) : limit;
}

// A failed string copy leaves dest empty.
errno_t reset(char *dest, errno_t code) {
  dest[0] = '\0';
  return code;
}

// Appends at most count characters of src (all when count == SIZE_MAX) to dest, which holds
// destMax bytes. Shared by strcpy_s/strncpy_s (at == 0) and strcat_s/strncat_s (at = strlen).
errno_t append(char *dest, size_t destMax, const char *src, size_t count, bool concat) {
  if (bad_size(destMax, SECUREC_STRING_MAX_LEN)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) return reset(dest, EINVAL_AND_RESET);
  if (count != SIZE_MAX && count > SECUREC_STRING_MAX_LEN) return reset(dest, ERANGE_AND_RESET);
  const size_t at = concat ? bounded_len(dest, destMax) : 0;
  if (at == destMax) return reset(dest, ERANGE_AND_RESET);  // dest is not terminated in destMax
  size_t room = destMax - at;  // bytes left, including the terminator
  size_t n = bounded_len(src, count < room ? count : room);
  // src (cut at count) does not fit with its terminator
  if (n >= room) return reset(dest, ERANGE_AND_RESET);
  if (overlaps(dest, at + n + 1, src, n + 1)) return reset(dest, EOVERLAP_AND_RESET);
  std::memcpy(dest + at, src, n);
  dest[at + n] = '\0';
  return EOK;
}

// The checks memcpy_s and memmove_s share: the error to return (dest cleared where the standard
// says so), or EOK when the copy may go ahead.
errno_t check_copy(void *dest, size_t destMax, const void *src, size_t count) {
  if (bad_size(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  return EOK;
}

}  // namespace

extern "C" {

errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
  if (bad_size(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (const errno_t e = check_copy(dest, destMax, src, count); e != EOK) return e;
  if (count == 0 || dest == src) return EOK;
  if (overlaps(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (const errno_t e = check_copy(dest, destMax, src, count); e != EOK) return e;
  if (count != 0) std::memmove(dest, src, count);
  return EOK;
}

errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc) {
  return append(strDest, destMax, strSrc, SIZE_MAX, false);
}

errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count) {
  return append(strDest, destMax, strSrc, count, false);
}

errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc) {
  return append(strDest, destMax, strSrc, SIZE_MAX, true);
}

errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count) {
  return append(strDest, destMax, strSrc, count, true);
}

int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList) {
  if (bad_size(destMax, SECUREC_STRING_MAX_LEN) || strDest == nullptr) return -1;
  if (format == nullptr || count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return -1;
  }
  bool cut_by_count = count < destMax;
  size_t limit = cut_by_count ? count + 1 : destMax;  // bytes we may write, terminator included
  int n = std::vsnprintf(strDest, limit, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if (static_cast<size_t>(n) < limit) return n;
  if (!cut_by_count) strDest[0] = '\0';  // did not fit destMax: nothing is kept
  return -1;
}

int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList) {
  return vsnprintf_s(strDest, destMax, destMax, format, argList);
}

int sprintf_s(char *strDest, size_t destMax, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf_s(strDest, destMax, destMax, format, args);
  va_end(args);
  return n;
}

}  // extern "C"

// ---- sscanf_s: the format is taken one directive at a time; each piece is handed to sscanf with
// a trailing %n to learn how much input it consumed. Buffer sizes are checked by scanning string
// fields into a scratch buffer first.
namespace {

// One conversion of `format` starting at '%': its full text (with the %[...] set).
size_t spec_length(const char *f) {
  size_t i = 1;
  if (f[i] == '*') ++i;
  while (f[i] >= '0' && f[i] <= '9') ++i;
  while (f[i] != '\0' && std::strchr("hljztLq", f[i]) != nullptr) ++i;
  if (f[i] == '[') {
    ++i;
    if (f[i] == '^') ++i;
    if (f[i] == ']') ++i;
    while (f[i] != '\0' && f[i] != ']') ++i;
  }
  return f[i] == '\0' ? i : i + 1;
}

// The state of one sscanf_s call.
struct Scan {
  const char *buffer;
  const char *in;  // the input not consumed yet
  va_list args;
  int assigned = 0;
  bool converted = false;  // some conversion was attempted with input left
};

// A run of literal text (and %%) at f: matched by sscanf itself. False on a mismatch or at the
// end of the input.
bool match_literal(Scan &s, const char *&f) {
  const char *end = f;
  while (*end != '\0' && (*end != '%' || end[1] == '%')) end += (*end == '%') ? 2 : 1;
  std::string piece(f, end);
  piece += "%n";
  int used = -1;
  std::sscanf(s.in, piece.c_str(), &used);
  if (used < 0) return false;
  s.in += used;
  f = end;
  return true;
}

constexpr int kTooSmall = -2;  // a text field does not fit its buffer: the scan ends

// %s, %c or %[...] into the caller's buffer of the size given after it: scanned into a scratch
// buffer first, copied when it fits.
int scan_text(Scan &s, const std::string &spec, char conv, int &used) {
  char *dest = static_cast<char *>(va_arg(s.args, void *));
  const size_t size = va_arg(s.args, size_t);
  std::string scratch(std::strlen(s.in) + 1, '\0');
  const int got = std::sscanf(s.in, (spec + "%n").c_str(), &scratch[0], &used);
  if (got != 1) return got;
  size_t width = 1;  // %c: the field width (default 1), no NUL
  if (conv == 'c') {
    const char *w = spec.c_str() + 1;
    if (*w >= '0' && *w <= '9') width = std::strtoul(w, nullptr, 10);
  }
  const size_t need = conv == 'c' ? width : std::strlen(scratch.c_str()) + 1;
  if (dest == nullptr || need > size) {
    if (dest != nullptr && size > 0) dest[0] = '\0';
    return kTooSmall;
  }
  std::memcpy(dest, scratch.data(), need);
  return got;
}

// Counts the result of one conversion; false when the scan ends there.
bool count_conversion(Scan &s, int got, int used, bool suppress) {
  if (got == EOF && !s.converted) {
    s.assigned = -1;
    return false;
  }
  s.converted = true;
  if (got != 1 && !(suppress && used >= 0)) return false;
  if (!suppress) ++s.assigned;
  s.in += used;
  return true;
}

// The field of one conversion: its count of assignments as sscanf gives it (kTooSmall: the
// text does not fit), `used` the input it consumed.
int scan_field(Scan &s, const std::string &spec, char conv, bool suppress, int &used) {
  if (suppress) {
    std::sscanf(s.in, (spec + "%n").c_str(), &used);
    return used >= 0 ? 0 : -1;
  }
  if (conv == 's' || conv == 'c' || conv == '[') return scan_text(s, spec, conv, used);
  return std::sscanf(s.in, (spec + "%n").c_str(), va_arg(s.args, void *), &used);
}

// One conversion `spec` (from '%' on); false when the scan ends there.
bool scan_conversion(Scan &s, const std::string &spec) {
  const char conv = spec.find('[') != std::string::npos ? '[' : spec.back();  // %[...] ends in ]
  const bool suppress = spec.size() > 1 && spec[1] == '*';
  if (conv == 'n') {
    if (!suppress) *static_cast<int *>(va_arg(s.args, void *)) = static_cast<int>(s.in - s.buffer);
    return true;
  }
  if (*s.in == '\0' && conv != 'c') {
    // sscanf would report end of input (leading whitespace is skipped for the others).
    if (!s.converted) s.assigned = -1;
    return false;
  }
  int used = -1;
  const int got = scan_field(s, spec, conv, suppress, used);
  return got != kTooSmall && count_conversion(s, got, used, suppress);
}

}  // namespace

extern "C" {

int vsscanf_s(const char *buffer, const char *format, va_list argList) {
  if (buffer == nullptr || format == nullptr) return -1;
  Scan s{buffer, buffer, {}, 0, false};
  va_copy(s.args, argList);
  const char *f = format;
  while (*f != '\0') {
    if (*f != '%' || f[1] == '%') {
      if (!match_literal(s, f)) break;
      continue;
    }
    const size_t len = spec_length(f);
    const std::string spec(f, len);
    f += len;
    if (!scan_conversion(s, spec)) break;
  }
  va_end(s.args);
  return s.assigned;
}

int sscanf_s(const char *buffer, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsscanf_s(buffer, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
