/* SPDX-License-Identifier: Apache-2.0 */
/* npusim's securec: basic types and limits of the bounded memory/string functions (securec.h).
 * Written for npusim from the library's documented behaviour. */
#ifndef NPUSIM_SECURECTYPE_H
#define NPUSIM_SECURECTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

/* Largest destination size (bytes) the functions accept; larger sizes are range errors. */
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif

#if !defined(__STDC_LIB_EXT1__) && !defined(NPUSIM_HAVE_ERRNO_T)
#define NPUSIM_HAVE_ERRNO_T 1
typedef int errno_t;
#endif

#endif /* NPUSIM_SECURECTYPE_H */
