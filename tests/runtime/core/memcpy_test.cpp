// SPDX-License-Identifier: Apache-2.0
// Copies of every kind (DEFAULT inferred from the addresses), staging, pageable behaviour, fills.
#include <cstring>
#include <vector>

#include "runtime/core/backend.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class MemcpyTest : public DeviceTest {
 protected:
  static constexpr size_t kSize = 4096;

  void SetUp() override {
    DeviceTest::SetUp();
    dev_a_ = dev_alloc(kSize);
    dev_b_ = dev_alloc(kSize);
    pinned_ = host_alloc(kSize);
    pageable_.assign(kSize, 0);
  }
  static void fill(void* p, unsigned char v) { std::memset(p, v, kSize); }
  static unsigned char at(const void* p, size_t i = kSize - 1) {
    return static_cast<const unsigned char*>(p)[i];
  }
  const FakeBackend::TaskTrace& last_task() { return fake().tasks().back(); }

  void* dev_a_ = nullptr;
  void* dev_b_ = nullptr;
  void* pinned_ = nullptr;
  std::vector<unsigned char> pageable_;
};

struct KindCase {
  const char* name;
  aclrtMemcpyKind kind;
  int src;  // 0 pinned, 1 pageable, 2 device a
  int dst;  // 0 pinned, 1 pageable, 3 device b
  const char* task;
};

TEST_F(MemcpyTest, EveryKindMovesTheBytes) {
  const KindCase cases[] = {
      {"H2D pinned", ACL_MEMCPY_HOST_TO_DEVICE, 0, 3, "MEMCPY_H2D"},
      {"H2D pageable", ACL_MEMCPY_HOST_TO_DEVICE, 1, 3, "MEMCPY_H2D"},
      {"D2H pinned", ACL_MEMCPY_DEVICE_TO_HOST, 2, 0, "MEMCPY_D2H"},
      {"D2H pageable", ACL_MEMCPY_DEVICE_TO_HOST, 2, 1, "MEMCPY_D2H"},
      {"D2D", ACL_MEMCPY_DEVICE_TO_DEVICE, 2, 3, "MEMCPY_D2D"},
      {"H2H", ACL_MEMCPY_HOST_TO_HOST, 0, 1, "MEMCPY_H2H"},
      {"BUF", ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 1, 3, "MEMCPY_H2D"},
      {"DEFAULT H2D", ACL_MEMCPY_DEFAULT, 1, 3, "MEMCPY_H2D"},
      {"DEFAULT D2H", ACL_MEMCPY_DEFAULT, 2, 0, "MEMCPY_D2H"},
      {"DEFAULT D2D", ACL_MEMCPY_DEFAULT, 2, 3, "MEMCPY_D2D"},
      {"DEFAULT H2H", ACL_MEMCPY_DEFAULT, 1, 0, "MEMCPY_H2H"},
  };
  void* where[] = {pinned_, pageable_.data(), dev_a_, dev_b_};
  unsigned char v = 1;
  for (const KindCase& c : cases) {
    SCOPED_TRACE(c.name);
    fill(where[c.src], v);
    fill(where[c.dst], 0);
    ASSERT_EQ(aclrtMemcpy(where[c.dst], kSize, where[c.src], kSize, c.kind), ACL_SUCCESS);
    EXPECT_EQ(at(where[c.dst]), v);
    EXPECT_EQ(last_task().name, c.task);
    EXPECT_GE(last_task().stream, kSyncStream);
    ++v;
  }
}

TEST_F(MemcpyTest, SyncCopyDoesNotWaitForStreams) {
  std::vector<unsigned char> big(1 << 20);
  void* dev_big = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev_big, big.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* pinned_big = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned_big, big.size()), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev_big, big.size(), pinned_big, big.size(), ACL_MEMCPY_HOST_TO_DEVICE,
                             stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev_a_, kSize, pinned_, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
}

TEST_F(MemcpyTest, AsyncPinnedReturnsAtOncePageableAfterTheCopy) {
  ASSERT_EQ(aclrtMemcpyAsync(dev_a_, kSize, pinned_, kSize, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  EXPECT_TRUE(fake().tasks().empty());
  EXPECT_LT(host_clock(), fake().now() + 5 * sim::kUs);
  ASSERT_EQ(
      aclrtMemcpyAsync(dev_b_, kSize, pageable_.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 2u);  // returned after its copy (and the one before) ran
  EXPECT_GE(host_clock(), last_task().record.end);
  EXPECT_TRUE(last_task().kind == TaskKind::kCopy);
}

TEST_F(MemcpyTest, AsyncHostToHostIsNotSupportedOnAPcieCard) {
  EXPECT_EQ(
      aclrtMemcpyAsync(pinned_, kSize, pageable_.data(), kSize, ACL_MEMCPY_HOST_TO_HOST, stream_),
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtMemcpyAsync(pinned_, kSize, pageable_.data(), kSize, ACL_MEMCPY_DEFAULT, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(MemcpyTest, BufferedCopyStagesTheSourceAtTheCall) {
  fill(pageable_.data(), 5);
  ASSERT_EQ(aclrtMemcpyAsync(dev_a_, kSize, pageable_.data(), kSize,
                             ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, stream_),
            ACL_SUCCESS);
  fill(pageable_.data(), 9);  // the caller may reuse its buffer at once
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(at(dev_a_), 5);
}

TEST_F(MemcpyTest, CountZeroIsANoOp) {
  EXPECT_EQ(aclrtMemcpy(dev_a_, kSize, pinned_, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(dev_a_, kSize, pinned_, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  EXPECT_TRUE(fake().tasks().empty());
}

TEST_F(MemcpyTest, BadCopiesAreRejected) {
  char* a = static_cast<char*>(dev_a_);
  EXPECT_EQ(aclrtMemcpy(a, 8, pinned_, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(a, kSize, pinned_, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(a, kSize, pinned_, 16, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(a, kSize, pinned_, 16, static_cast<aclrtMemcpyKind>(42)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(nullptr, kSize, pinned_, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(a, kSize, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  // The kind must match the addresses.
  EXPECT_EQ(aclrtMemcpy(pinned_, kSize, pageable_.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(a, kSize, dev_b_, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  // Device ranges must stay inside their allocation (4096 + 32 bytes of padding).
  EXPECT_EQ(aclrtMemcpy(a + kSize, 64, pinned_, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(a + 8, kSize, pinned_, kSize, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(fake().tasks().size() == 1u);
}

TEST_F(MemcpyTest, CopyIntoFreedMemoryFailsAtExecution) {
  ASSERT_EQ(aclrtMemcpyAsync(dev_a_, kSize, pinned_, kSize, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(dev_a_), ACL_SUCCESS);  // frees at once, without waiting
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_DEVICE_MEM_ERROR);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
}

TEST_F(MemcpyTest, MemsetWorksOnDeviceAndAclHostMemory) {
  ASSERT_EQ(aclrtMemset(dev_a_, kSize, 0x5A, kSize), ACL_SUCCESS);
  EXPECT_EQ(at(dev_a_), 0x5A);
  EXPECT_EQ(last_task().name, "MEMSET");
  fill(pinned_, 0);
  ASSERT_EQ(aclrtMemset(pinned_, kSize, 0x1FF, 16), ACL_SUCCESS);  // value is a byte
  EXPECT_EQ(at(pinned_, 15), 0xFF);
  EXPECT_EQ(at(pinned_, 16), 0);
  ASSERT_EQ(aclrtMemsetAsync(dev_b_, kSize, 3, kSize, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(at(dev_b_), 3);
  EXPECT_EQ(aclrtMemset(pageable_.data(), kSize, 0, kSize), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemset(dev_a_, 8, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemset(nullptr, 8, 0, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(static_cast<char*>(dev_a_) + kSize, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(MemcpyTest, TwoDimensionalCopies) {
  std::vector<unsigned char> src(8 * 16), back(8 * 16, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i);
  // 8 rows of 10 bytes: host pitch 16, device pitch 32.
  ASSERT_EQ(aclrtMemcpy2d(dev_a_, 32, src.data(), 16, 10, 8, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(at(dev_a_, 32 * 7 + 9), src[16 * 7 + 9]);
  ASSERT_EQ(aclrtMemcpy2dAsync(dev_b_, 32, dev_a_, 32, 10, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2d(back.data(), 16, dev_b_, 32, 10, 8, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (size_t r = 0; r < 8; ++r) {
    for (size_t col = 0; col < 10; ++col) EXPECT_EQ(back[r * 16 + col], src[r * 16 + col]);
    EXPECT_EQ(back[r * 16 + 12], 0);
  }
  EXPECT_EQ(last_task().record.end - last_task().record.start, fake().duration_of([] {
    Task t;
    t.kind = TaskKind::kCopy;
    t.bytes = 80;
    return t;
  }()));
  EXPECT_EQ(aclrtMemcpy2d(dev_b_, 32, dev_a_, 32, 10, 8, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);  // synchronous 2-D copies are H2D / D2H only
  EXPECT_EQ(aclrtMemcpy2d(dev_a_, 8, src.data(), 16, 10, 8, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);  // width > dpitch
  EXPECT_EQ(aclrtMemcpy2d(dev_a_, 1024, src.data(), 16, 10, 8, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);  // 7 * 1024 + 10 bytes do not fit the allocation
}

TEST_F(MemcpyTest, Memset32BitWords) {
  ASSERT_EQ(aclrtMemsetD32(dev_a_, kSize, 0xA1B2C3D4u, 3), ACL_SUCCESS);
  uint32_t words[4] = {};
  std::memcpy(words, dev_a_, sizeof words);
  EXPECT_EQ(words[0], 0xA1B2C3D4u);
  EXPECT_EQ(words[2], 0xA1B2C3D4u);
  ASSERT_EQ(aclrtMemsetD32Async(pinned_, kSize, 7, kSize / 4, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::memcpy(words, static_cast<char*>(pinned_) + kSize - 16, sizeof words);
  EXPECT_EQ(words[3], 7u);
  EXPECT_EQ(aclrtMemsetD32(dev_a_, 8, 0, 3), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemsetD32(pageable_.data(), kSize, 0, 3), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(MemcpyTest, PointerAttributesAndRanges) {
  aclrtPtrAttributes attr{};
  ASSERT_EQ(aclrtPointerGetAttributes(static_cast<char*>(dev_a_) + 100, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attr.location.id, 0u);
  ASSERT_EQ(aclrtPointerGetAttributes(pinned_, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_EQ(aclrtPointerGetAttributes(pageable_.data(), &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(static_cast<char*>(dev_a_) + 100, &base, &size), ACL_SUCCESS);
  EXPECT_EQ(base, dev_a_);
  EXPECT_EQ(size, kSize + 32);
  EXPECT_EQ(aclrtMemGetAddressRange(pageable_.data(), &base, &size), ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace
}  // namespace npusim::rt::testing
