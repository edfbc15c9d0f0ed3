// SPDX-License-Identifier: Apache-2.0
// The thread's last error: Get clears, Peek keeps, aclGetRecentErrMsg returns and clears the text.
#include <cstring>
#include <string>
#include <thread>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

using ErrorsTest = AclTest;

TEST_F(ErrorsTest, PeekKeepsGetClears) {
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  ASSERT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::strstr(msg, "aclrtGetRunMode"), nullptr) << msg;
  EXPECT_NE(std::strstr(msg, "runMode"), nullptr) << msg;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(ErrorsTest, SuccessDoesNotClearTheLastError) {
  ASSERT_EQ(aclrtSetDevice(8), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);  // the latest failure wins
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ErrorsTest, ErrorsArePerThread) {
  ASSERT_EQ(aclrtSetDevice(9), ACL_ERROR_RT_INVALID_DEVICEID);
  aclError other_peek = -1;
  const char* other_msg = "unset";
  std::thread t([&] {
    other_peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    other_msg = aclGetRecentErrMsg();
  });
  t.join();
  EXPECT_EQ(other_peek, ACL_SUCCESS);
  EXPECT_EQ(other_msg, nullptr);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(ErrorsTest, UnsupportedFunctionsSayWhat) {
  EXPECT_EQ(aclmdlRITaskDisable(nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::strstr(msg, "aclmdlRITaskDisable is not supported"), nullptr) << msg;
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
}

TEST_F(ErrorsTest, BadLevel) {
  EXPECT_EQ(aclrtGetLastError(static_cast<aclrtLastErrLevel>(3)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(3)), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace npusim::rt::testing
