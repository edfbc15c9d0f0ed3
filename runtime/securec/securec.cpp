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

// Appends at most count characters of src (all when count == SIZE_MAX) to dest, which holds
// destMax bytes. Shared by strcpy_s/strncpy_s (at == 0) and strcat_s/strncat_s (at = strlen).
errno_t append(char *dest, size_t destMax, const char *src, size_t count, bool concat) {
  if (bad_size(destMax, SECUREC_STRING_MAX_LEN)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  if (count != SIZE_MAX && count > SECUREC_STRING_MAX_LEN) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  size_t at = 0;
  if (concat) {
    at = bounded_len(dest, destMax);
    if (at == destMax) {  // dest is not terminated within destMax
      dest[0] = '\0';
      return ERANGE_AND_RESET;
    }
  }
  size_t room = destMax - at;  // bytes left, including the terminator
  size_t n = bounded_len(src, count < room ? count : room);
  if (n >= room) {  // src (cut at count) does not fit with its terminator
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (overlaps(dest, at + n + 1, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + at, src, n);
  dest[at + n] = '\0';
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
  if (count == 0 || dest == src) return EOK;
  if (overlaps(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
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

}  // namespace

extern "C" {

int vsscanf_s(const char *buffer, const char *format, va_list argList) {
  if (buffer == nullptr || format == nullptr) return -1;
  va_list args;
  va_copy(args, argList);
  const char *in = buffer;
  const char *f = format;
  int assigned = 0;
  bool converted = false;  // some conversion was attempted with input left
  while (*f != '\0') {
    if (*f != '%' || f[1] == '%') {
      // A run of literal text (and %%): matched by sscanf itself.
      const char *end = f;
      while (*end != '\0' && (*end != '%' || end[1] == '%')) end += (*end == '%') ? 2 : 1;
      std::string piece(f, end);
      piece += "%n";
      int used = -1;
      std::sscanf(in, piece.c_str(), &used);
      if (used < 0) break;  // mismatch or end of input
      in += used;
      f = end;
      continue;
    }
    const size_t len = spec_length(f);
    std::string spec(f, len);
    f += len;
    const char conv = spec.find('[') != std::string::npos ? '[' : spec.back();  // %[...] ends in ]
    const bool suppress = spec.size() > 1 && spec[1] == '*';
    if (conv == 'n') {
      if (!suppress) *static_cast<int *>(va_arg(args, void *)) = static_cast<int>(in - buffer);
      continue;
    }
    if (*in == '\0' && conv != 'c') {
      // sscanf would report end of input (leading whitespace is skipped for the others).
      if (!converted) assigned = -1;
      break;
    }
    const bool text = conv == 's' || conv == 'c' || conv == '[';
    int used = -1;
    int got = 0;
    if (suppress) {
      std::sscanf(in, (spec + "%n").c_str(), &used);
      got = used >= 0 ? 0 : -1;
    } else if (text) {
      char *dest = static_cast<char *>(va_arg(args, void *));
      const size_t size = va_arg(args, size_t);
      std::string scratch(std::strlen(in) + 1, '\0');
      got = std::sscanf(in, (spec + "%n").c_str(), &scratch[0], &used);
      if (got == 1) {
        size_t width = 1;  // %c: the field width (default 1), no NUL
        if (conv == 'c') {
          const char *w = spec.c_str() + 1;
          if (*w >= '0' && *w <= '9') width = std::strtoul(w, nullptr, 10);
        }
        const size_t need = conv == 'c' ? width : std::strlen(scratch.c_str()) + 1;
        if (dest == nullptr || need > size) {
          if (dest != nullptr && size > 0) dest[0] = '\0';
          break;
        }
        std::memcpy(dest, scratch.data(), need);
      }
    } else {
      got = std::sscanf(in, (spec + "%n").c_str(), va_arg(args, void *), &used);
    }
    if (got == EOF && !converted) {
      assigned = -1;
      break;
    }
    converted = true;
    if (got != 1 && !(suppress && used >= 0)) break;
    if (!suppress) ++assigned;
    in += used;
  }
  va_end(args);
  return assigned;
}

int sscanf_s(const char *buffer, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsscanf_s(buffer, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
