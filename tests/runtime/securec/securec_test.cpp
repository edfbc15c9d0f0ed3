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

namespace {

TEST(Securec, SscanfSNumbersAndStrings) {
  int a = 0;
  unsigned b = 0;
  double d = 0;
  char word[8] = "zzz";
  char ch[3] = {'x', 'x', 'x'};
  EXPECT_EQ(sscanf_s("12 ab:34 2.5 hello xyz", "%d %2s:%u %lf %s %2c", &a, word, sizeof word, &b,
                     &d, word, sizeof word, ch, sizeof ch),
            6);
  EXPECT_EQ(a, 12);
  EXPECT_EQ(b, 34u);
  EXPECT_EQ(d, 2.5);
  EXPECT_STREQ(word, "hello");
  EXPECT_EQ(ch[0], 'x');  // the %2c after "hello" skips the space: "xy"
  EXPECT_EQ(ch[1], 'y');
  int n = 0;
  EXPECT_EQ(sscanf_s("7,8", "%d,%*d%n", &a, &n), 1);  // suppressed fields do not count
  EXPECT_EQ(n, 3);
}

TEST(Securec, SscanfSErrors) {
  char small[4] = "zzz";
  int a = 0;
  EXPECT_EQ(sscanf_s("5 toolong", "%d %s", &a, small, sizeof small), 1);  // "toolong" needs 8
  EXPECT_STREQ(small, "");
  EXPECT_EQ(sscanf_s("abc", "%3[a-z]", small, sizeof small), 1);
  EXPECT_STREQ(small, "abc");
  EXPECT_EQ(sscanf_s("abcd", "%[a-z]", small, sizeof small), 0);
  EXPECT_EQ(sscanf_s("x", "%d", &a), 0);    // mismatch
  EXPECT_EQ(sscanf_s("", "%d", &a), -1);    // input ends before the first conversion
  EXPECT_EQ(sscanf_s(nullptr, "%d", &a), -1);
  EXPECT_EQ(sscanf_s("1", nullptr), -1);
}

}  // namespace
