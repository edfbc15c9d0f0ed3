// SPDX-License-Identifier: Apache-2.0
// npusim public header: mstx markers and ranges (exported by the runtime library; link
// lib64/libmsprofiler.so or libascendcl.so). Names and signatures follow CANN's mstx API.
// A marker or range is recorded at the calling thread's simulated host time on the host track of
// the timeline ("<message>", domain "default" unless a domain is given) and in msprof_tx.csv.
// The functions return nothing: a bad argument (NULL message, unknown domain or range id) is
// reported on stderr and ignored; mstxRangeStartA returns 0 then (range ids start at 1).
// `stream` may be NULL; a non-NULL stream must be a live stream.
#ifndef NPUSIM_MSTX_MS_TOOLS_EXT_H
#define NPUSIM_MSTX_MS_TOOLS_EXT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MSTX_API
#define MSTX_API __attribute__((visibility("default")))
#endif

typedef uint64_t mstxRangeId;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

MSTX_API void mstxMarkA(const char* message, void* stream);
MSTX_API mstxRangeId mstxRangeStartA(const char* message, void* stream);
MSTX_API void mstxRangeEnd(mstxRangeId id);

/// A named domain (NULL or "" name: NULL handle). Each call creates a new handle.
MSTX_API mstxDomainHandle_t mstxDomainCreateA(const char* name);
MSTX_API void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_API void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, void* stream);
MSTX_API mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                           void* stream);
MSTX_API void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_MSTX_MS_TOOLS_EXT_H
