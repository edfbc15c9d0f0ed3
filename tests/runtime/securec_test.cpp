// SPDX-License-Identifier: Apache-2.0
// securec (libc_sec.so): each function's success path and every documented error code, with
// what the destination holds afterwards.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "securec.h"

namespace {

TEST(Securec, ErrorCodeValues) {
  EXPECT_EQ(EOK, 0);
  EXPECT_EQ(EINVAL, 22);
  EXPECT_EQ(ERANGE, 34);
  EXPECT_EQ(EINVAL_AND_RESET, 150);
  EXPECT_EQ(ERANGE_AND_RESET, 162);
  EXPECT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(Securec, MemsetS) {
  char b[8];
  std::memset(b, 'x', sizeof b);
  EXPECT_EQ(memset_s(b, sizeof b, 'a', 3), EOK);
  EXPECT_EQ(std::string(b, 8), "aaaxxxxx");
  EXPECT_EQ(memset_s(b, 0, 'b', 1), ERANGE);
  EXPECT_EQ(memset_s(b, SECUREC_MEM_MAX_LEN + 1, 'b', 1), ERANGE);
  EXPECT_EQ(std::string(b, 8), "aaaxxxxx");  // untouched
  EXPECT_EQ(memset_s(nullptr, 8, 'b', 1), EINVAL);
  EXPECT_EQ(memset_s(b, 4, 'c', 9), ERANGE_AND_RESET);  // destMax bytes filled
  EXPECT_EQ(std::string(b, 8), "ccccxxxx");
}

TEST(Securec, MemcpyS) {
  char b[8];
  std::memset(b, 'x', sizeof b);
  EXPECT_EQ(memcpy_s(b, sizeof b, "abc", 3), EOK);
  EXPECT_EQ(std::string(b, 8), "abcxxxxx");
  EXPECT_EQ(memcpy_s(b, sizeof b, "abc", 0), EOK);
  EXPECT_EQ(memcpy_s(b, 0, "abc", 3), ERANGE);
  EXPECT_EQ(memcpy_s(nullptr, 8, "abc", 3), EINVAL);
  EXPECT_EQ(std::string(b, 8), "abcxxxxx");
  EXPECT_EQ(memcpy_s(b, sizeof b, nullptr, 3), EINVAL_AND_RESET);
  EXPECT_EQ(std::string(b, 8), std::string(8, '\0'));
  std::memset(b, 'x', sizeof b);
  EXPECT_EQ(memcpy_s(b, 4, "abcdef", 6), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(b, 8), std::string(4, '\0') + "xxxx");
  std::memcpy(b, "abcdefgh", 8);
  EXPECT_EQ(memcpy_s(b + 2, 6, b, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(std::string(b, 8), std::string("ab") + std::string(6, '\0'));
}

TEST(Securec, MemmoveSAllowsOverlap) {
  char b[8];
  std::memcpy(b, "abcdefgh", 8);
  EXPECT_EQ(memmove_s(b + 2, 6, b, 4), EOK);
  EXPECT_EQ(std::string(b, 8), "ababcdgh");
  EXPECT_EQ(memmove_s(b, 0, "a", 1), ERANGE);
  EXPECT_EQ(memmove_s(nullptr, 8, "a", 1), EINVAL);
  EXPECT_EQ(memmove_s(b, 8, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(std::string(b, 8), std::string(8, '\0'));
  std::memset(b, 'x', sizeof b);
  EXPECT_EQ(memmove_s(b, 2, "abc", 3), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(b, 4), std::string("\0\0xx", 4));
}

TEST(Securec, StrcpyS) {
  char b[6] = "zzzzz";
  EXPECT_EQ(strcpy_s(b, sizeof b, "hello"), EOK);
  EXPECT_STREQ(b, "hello");
  EXPECT_EQ(strcpy_s(b, 0, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(b, SECUREC_STRING_MAX_LEN + 1, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(nullptr, 6, "a"), EINVAL);
  EXPECT_STREQ(b, "hello");
  EXPECT_EQ(strcpy_s(b, sizeof b, nullptr), EINVAL_AND_RESET);
  EXPECT_STREQ(b, "");
  EXPECT_EQ(strcpy_s(b, sizeof b, "toolong"), ERANGE_AND_RESET);  // needs 8 bytes
  EXPECT_STREQ(b, "");
  std::memcpy(b, "ab\0\0\0", 6);
  EXPECT_EQ(strcpy_s(b + 1, 5, b), EOVERLAP_AND_RESET);
  EXPECT_EQ(b[1], '\0');
}

TEST(Securec, StrncpyS) {
  char b[6];
  EXPECT_EQ(strncpy_s(b, sizeof b, "abcdefgh", 3), EOK);
  EXPECT_STREQ(b, "abc");
  EXPECT_EQ(strncpy_s(b, sizeof b, "ab", 5), EOK);  // shorter source: all of it
  EXPECT_STREQ(b, "ab");
  EXPECT_EQ(strncpy_s(b, sizeof b, "abcdefgh", 0), EOK);
  EXPECT_STREQ(b, "");
  EXPECT_EQ(strncpy_s(b, sizeof b, "abcdefgh", 6), ERANGE_AND_RESET);  // 6 + NUL > 6
  EXPECT_STREQ(b, "");
  EXPECT_EQ(strncpy_s(b, sizeof b, "abcdefgh", 5), EOK);
  EXPECT_STREQ(b, "abcde");
  EXPECT_EQ(strncpy_s(b, sizeof b, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(strncpy_s(nullptr, 6, "a", 1), EINVAL);
  EXPECT_EQ(strncpy_s(b, 0, "a", 1), ERANGE);
}

TEST(Securec, StrcatAndStrncatS) {
  char b[8] = "ab";
  EXPECT_EQ(strcat_s(b, sizeof b, "cde"), EOK);
  EXPECT_STREQ(b, "abcde");
  EXPECT_EQ(strcat_s(b, sizeof b, "fgh"), ERANGE_AND_RESET);  // 8 chars + NUL > 8
  EXPECT_STREQ(b, "");
  std::memcpy(b, "ab", 3);
  EXPECT_EQ(strncat_s(b, sizeof b, "cdefghij", 2), EOK);
  EXPECT_STREQ(b, "abcd");
  EXPECT_EQ(strncat_s(b, sizeof b, "efghij", 4), ERANGE_AND_RESET);
  EXPECT_STREQ(b, "");
  std::memset(b, 'x', sizeof b);  // not terminated within destMax
  EXPECT_EQ(strcat_s(b, sizeof b, "a"), ERANGE_AND_RESET);
  EXPECT_EQ(b[0], '\0');
  std::memcpy(b, "ab", 3);
  EXPECT_EQ(strcat_s(b, sizeof b, b), EOVERLAP_AND_RESET);
  EXPECT_EQ(strcat_s(b, sizeof b, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(strcat_s(nullptr, 8, "a"), EINVAL);
  EXPECT_EQ(strncat_s(b, 0, "a", 1), ERANGE);
}

TEST(Securec, SprintfS) {
  char b[8] = "zzzzzzz";
  EXPECT_EQ(sprintf_s(b, sizeof b, "%d-%s", 42, "ab"), 5);
  EXPECT_STREQ(b, "42-ab");
  EXPECT_EQ(sprintf_s(b, sizeof b, "%s", "12345678"), -1);  // does not fit: cleared
  EXPECT_STREQ(b, "");
  EXPECT_EQ(sprintf_s(b, sizeof b, "%s", "1234567"), 7);
  EXPECT_EQ(sprintf_s(nullptr, 8, "%d", 1), -1);
  EXPECT_EQ(sprintf_s(b, 0, "%d", 1), -1);
  EXPECT_STREQ(b, "1234567");
}

TEST(Securec, SnprintfSCutsAtCount) {
  char b[8] = "zzzzzzz";
  EXPECT_EQ(snprintf_s(b, sizeof b, 3, "%s", "abcdef"), -1);  // cut at count, kept
  EXPECT_STREQ(b, "abc");
  EXPECT_EQ(snprintf_s(b, sizeof b, 3, "%s", "ab"), 2);
  EXPECT_STREQ(b, "ab");
  EXPECT_EQ(snprintf_s(b, sizeof b, 7, "%s", "abcdefg"), 7);
  EXPECT_EQ(snprintf_s(b, sizeof b, 8, "%s", "abcdefgh"), -1);  // count >= destMax: cleared
  EXPECT_STREQ(b, "");
  EXPECT_EQ(snprintf_s(b, sizeof b, 8, "%s", "abc"), 3);
}

}  // namespace
