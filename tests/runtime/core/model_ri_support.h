// SPDX-License-Identifier: Apache-2.0
// The fixture of the model run instance tests (model_ri_test.cpp, model_ri_control_test.cpp):
// a device, a stream, 4 KiB of zeroed device memory and 4 KiB of pinned host memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing::model_ri_test {

class ModelRiTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(dev_, 4096, 0, 4096), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&host_, 4096), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclrtStream s : streams_) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    aclrtFreeHost(host_);
    aclrtFree(dev_);
    DeviceTest::TearDown();
  }
  unsigned char* at(std::size_t off) { return static_cast<unsigned char*>(dev_) + off; }
  void put32(std::size_t off, std::int32_t v) {
    ASSERT_EQ(aclrtMemcpy(at(off), 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  // A stream (with `persistent`, ACL_STREAM_PERSISTENT) destroyed at TearDown.
  aclrtStream new_stream(bool persistent = false) {
    aclrtStream s = nullptr;
    EXPECT_EQ(persistent ? aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT)
                         : aclrtCreateStream(&s),
              ACL_SUCCESS);
    streams_.push_back(s);
    return s;
  }
  aclrtStream persistent() { return new_stream(true); }
  int count(const std::string& name) const {
    int n = 0;
    for (const auto& t : (*fake_)->tasks()) n += t.name == name;
    return n;
  }
  const FakeBackend::TaskTrace* last(const std::string& name) const {
    const FakeBackend::TaskTrace* found = nullptr;
    for (const auto& t : (*fake_)->tasks()) {
      if (t.name == name) found = &t;
    }
    return found;
  }
  void* dev_ = nullptr;
  void* host_ = nullptr;
  std::vector<aclrtStream> streams_;
};

}  // namespace npusim::rt::testing::model_ri_test
