// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the end-to-end programs: they are ordinary CANN host programs built with g++
// against the installed tree, and check their own results (exit code 0 = pass).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

#define E2E_CHECK(call)                                                                     \
  do {                                                                                      \
    aclError err_ = (call);                                                                 \
    if (err_ != ACL_SUCCESS) {                                                              \
      std::fprintf(stderr, "FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, err_); \
      std::exit(1);                                                                         \
    }                                                                                       \
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
