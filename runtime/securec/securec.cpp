// SPDX-License-Identifier: Apache-2.0
// npusim's securec (lib64/libc_sec.so): see include/securec.h for the contract of each function.
#include "securec.h"

#include <cstdio>
#include <cstring>

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
