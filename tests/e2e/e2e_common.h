// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the end-to-end programs: they are ordinary CANN host programs built with g++
// against the installed tree, and check their own results (exit code 0 = pass).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "acl/acl.h"

// For every API whose success code is 0: ACL (aclError), aclnn, HCCL (HcclResult).
#define E2E_CHECK(call)                                                                      \
  do {                                                                                       \
    const long err_ = static_cast<long>(call);                                               \
    if (err_ != 0) {                                                                         \
      std::fprintf(stderr, "FAIL %s:%d: %s returned %ld\n", __FILE__, __LINE__, #call, err_); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// E2E_CHECK that also names the runtime's recent error message (e2e.sh greps some).
#define E2E_CHECK_MSG(call)                                                              \
  do {                                                                                   \
    const long err_ = static_cast<long>(call);                                           \
    if (err_ != 0) {                                                                     \
      std::fprintf(stderr, "%s failed: %ld (%s)\n", #call, err_, aclGetRecentErrMsg()); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

#define E2E_EXPECT(cond)                                                          \
  do {                                                                            \
    if (!(cond)) {                                                                \
      std::fprintf(stderr, "FAIL %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

inline float e2e_elapsed_ms(aclrtEvent from, aclrtEvent to) {
  float ms = 0;
  E2E_CHECK(aclrtEventElapsedTime(&ms, from, to));
  return ms;
}

/// |got - want| <= rel * want
inline bool e2e_near(double got, double want, double rel) {
  return std::fabs(got - want) <= rel * std::fabs(want);
}

/// The usual start: aclInit, device `device` made current, a new stream on it.
inline aclrtStream e2e_open(int32_t device) {
  E2E_CHECK(aclInit(nullptr));
  E2E_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  E2E_CHECK(aclrtCreateStream(&stream));
  return stream;
}

/// The usual end: resets `device` and finalizes ACL.
inline void e2e_finish(int32_t device) {
  E2E_CHECK(aclrtResetDevice(device));
  E2E_CHECK(aclFinalize());
}

/// e2e_finish, then the program's PASS line: the end of a program that passed.
inline int e2e_pass(int32_t device, const char* name) {
  e2e_finish(device);
  std::printf("PASS %s\n", name);
  return 0;
}

/// e2e_finish after destroying `stream` (the counterpart of e2e_open).
inline void e2e_close(aclrtStream stream, int32_t device) {
  E2E_CHECK(aclrtDestroyStream(stream));
  e2e_finish(device);
}

/// Creates the events, in the order given (the timeline records each call).
inline void e2e_create_events(std::initializer_list<aclrtEvent*> events) {
  for (aclrtEvent* e : events) E2E_CHECK(aclrtCreateEvent(e));
}

inline void e2e_destroy_events(std::initializer_list<aclrtEvent> events) {
  for (aclrtEvent e : events) E2E_CHECK(aclrtDestroyEvent(e));
}

/// Frees device memory, in the order given.
inline void e2e_free(std::initializer_list<void*> blocks) {
  for (void* p : blocks) E2E_CHECK(aclrtFree(p));
}

inline void e2e_free_host(std::initializer_list<void*> blocks) {
  for (void* p : blocks) E2E_CHECK(aclrtFreeHost(p));
}

inline void* e2e_malloc(size_t bytes, aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_FIRST) {
  void* p = nullptr;
  E2E_CHECK(aclrtMalloc(&p, bytes, policy));
  return p;
}

/// Records `from` on `stream`, lets `enqueue` put its work there, records `to`, waits for the
/// stream and returns the simulated time between the records in milliseconds.
template <class Enqueue>
float e2e_timed_ms(aclrtStream stream, aclrtEvent from, aclrtEvent to, Enqueue&& enqueue) {
  E2E_CHECK(aclrtRecordEvent(from, stream));
  enqueue();
  E2E_CHECK(aclrtRecordEvent(to, stream));
  E2E_CHECK(aclrtSynchronizeStream(stream));
  return e2e_elapsed_ms(from, to);
}
