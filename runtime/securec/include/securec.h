/* SPDX-License-Identifier: Apache-2.0 */
/* npusim's securec (lib64/libc_sec.so): bounded memory and string functions with the return codes
 * CANN programs check. Every function validates its destination first (size 0 or above the
 * maximum: ERANGE; NULL: EINVAL; dest untouched), then the source (NULL: EINVAL_AND_RESET), the
 * fit (ERANGE_AND_RESET) and overlap (EOVERLAP_AND_RESET); a *_AND_RESET error clears the
 * destination (memory functions: the whole destMax bytes; string functions: dest[0] = '\0';
 * memset_s fills destMax bytes with the value). The formatting functions return the number of
 * characters written, or -1 on error/truncation (see each function). */
#ifndef NPUSIM_SECUREC_H
#define NPUSIM_SECUREC_H

#include <errno.h>
#include <stdarg.h>

#include "securectype.h"

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
/* 128 + the base code: the destination was cleared because of the error. */
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Memory. count 0 copies nothing (EOK). memcpy_s reports overlapping ranges; memmove_s allows them. */
SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);

/* Strings: destMax counts the terminating NUL. */
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
/* Copies at most count characters of strSrc, then a NUL. */
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);

/* Formatting: -1 on a bad argument (dest NULL, destMax 0 or too large, format NULL: dest[0]
 * cleared when it can be) or when the result does not fit destMax (dest[0] = '\0'). The *n*
 * forms write at most count characters: when count < destMax a result longer than count is cut
 * at count characters (kept, NUL-terminated) and -1 is returned. */
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format,
                            va_list argList) __attribute__((format(printf, 4, 0)));

/* Scanning: as sscanf, except that every %s, %c and %[ that assigns takes an extra size_t
 * argument after its pointer: the buffer's size in bytes. A field that does not fit its buffer
 * (with the NUL of %s and %[) stops the scan: the buffer gets "" and the number of fields
 * assigned before it is returned. -1 when buffer or format is NULL, or when the input ends
 * before the first conversion. */
SECUREC_API int sscanf_s(const char *buffer, const char *format, ...);
SECUREC_API int vsscanf_s(const char *buffer, const char *format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_SECUREC_H */
