// SPDX-License-Identifier: Apache-2.0
// The fixture of the model run instance tests (model_ri_test.cpp, model_ri_control_test.cpp):
// a device, a stream, 4 KiB of zeroed device memory and 4 KiB of pinned host memory.
#pragma once

#include <cstdint>
#include <string>

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
    aclrtFreeHost(host_);
    aclrtFree(dev_);
    DeviceTest::TearDown();
  }
  unsigned char* at(std::size_t off) { return static_cast<unsigned char*>(dev_) + off; }
  void put32(std::size_t off, std::int32_t v) {
    ASSERT_EQ(aclrtMemcpy(at(off), 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  aclrtStream persistent() {
    aclrtStream s = nullptr;
    EXPECT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    return s;
  }
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
};

}  // namespace npusim::rt::testing::model_ri_test
