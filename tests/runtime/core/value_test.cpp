// SPDX-License-Identifier: Apache-2.0
// aclrtValueWrite / aclrtValueWait.
#include <cstring>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class ValueTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host_, 1 << 20), ACL_SUCCESS);
  }
  void set_word(uint64_t v) {
    ASSERT_EQ(aclrtMemcpy(dev_, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  void* dev_ = nullptr;
  void* host_ = nullptr;
};

TEST_F(ValueTest, WriteThenWaitOnOneStream) {
  ASSERT_EQ(aclrtValueWrite(dev_, 123, 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(dev_, 123, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  uint64_t v = 0;
  std::memcpy(&v, dev_, 8);
  EXPECT_EQ(v, 123u);
}

TEST_F(ValueTest, WaitHoldsItsStreamUntilAnotherStreamWrites) {
  set_word(0);
  aclrtStream writer = nullptr;
  ASSERT_EQ(aclrtCreateStream(&writer), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(dev_, 100, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<char*>(dev_) + 64, 64, 1, 64, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(static_cast<char*>(dev_) + 1024, 2048, host_, 2048,
                             ACL_MEMCPY_HOST_TO_DEVICE, writer),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(dev_, 100, 0, writer), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  SimTime written = 0, filled = 0;
  for (const auto& t : fake().tasks()) {
    if (t.name == "WRITE_VALUE") written = t.record.end;
    if (t.name == "MEMSET") filled = t.record.start;
  }
  EXPECT_GT(written, 0u);
  EXPECT_GE(filled, written);
}

TEST_F(ValueTest, Comparisons) {
  struct Case {
    uint64_t memory, value;
    uint32_t flag;
    bool holds;
  };
  const Case cases[] = {
      {5, 3, ACL_STREAM_WAIT_VALUE_GEQ, true},
      {3, 3, ACL_STREAM_WAIT_VALUE_GEQ, true},
      {3, 5, ACL_STREAM_WAIT_VALUE_GEQ, false},
      {0, ~0ull, ACL_STREAM_WAIT_VALUE_GEQ, true},  // signed difference: 0 - (-1) = 1
      {7, 7, ACL_STREAM_WAIT_VALUE_EQ, true},
      {7, 8, ACL_STREAM_WAIT_VALUE_EQ, false},
      {0b0110, 0b0100, ACL_STREAM_WAIT_VALUE_AND, true},
      {0b0110, 0b1001, ACL_STREAM_WAIT_VALUE_AND, false},
      {0, 0, ACL_STREAM_WAIT_VALUE_NOR, true},
      {~0ull, 0, ACL_STREAM_WAIT_VALUE_NOR, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.memory << " vs " << c.value << " flag " << c.flag);
    set_word(c.memory);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_EQ(aclrtValueWait(dev_, c.value, c.flag, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), c.holds ? ACL_SUCCESS : ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  }
}

TEST_F(ValueTest, BadArguments) {
  char* p = static_cast<char*>(dev_);
  uint64_t host_word = 0;
  EXPECT_EQ(aclrtValueWrite(nullptr, 1, 0, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtValueWrite(p + 4, 1, 0, stream_), ACL_ERROR_RT_ADDR_UNALIGNED);
  EXPECT_EQ(aclrtValueWrite(&host_word, 1, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtValueWrite(p, 1, 1, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtValueWait(p, 1, 4, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtValueWait(p + 4096 + 32, 1, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtValueWrite(p, 1, 0, reinterpret_cast<aclrtStream>(0x1234)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(fake().tasks().empty());
}

TEST_F(ValueTest, NullStreamIsTheDefaultStream) {
  ASSERT_EQ(aclrtValueWrite(dev_, 9, 0, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(fake().tasks().back().stream, 0u);
}

}  // namespace
}  // namespace npusim::rt::testing
