// SPDX-License-Identifier: Apache-2.0
// aclrtReduceAsync and aclrtRandomNumAsync through the API: results in device memory, the tasks
// they submit, parameters by value and by device address, the counter, the per-chip support and
// every documented error code.
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr size_t kSize = 4096;

class BuiltinTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    for (void** p : {&a_, &b_}) *p = dev_alloc(kSize);
    counter_ = dev_alloc(16);
    ASSERT_EQ(aclrtMemset(counter_, 16, 0, 16), ACL_SUCCESS);
  }
  template <class T>
  void put(void* dev, const std::vector<T>& v) {
    ASSERT_EQ(aclrtMemcpy(dev, kSize, v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  // Bad kinds and types are made on purpose (memcpy into the enum) and passed on: UBSan's enum
  // check (the sanitizer build compiles tests at -O0, where the argument is a load) stays off.
  __attribute__((no_sanitize("enum"))) aclError reduce(void* dst, const void* src,
                                                        uint64_t count, int kind, int type,
                                                        void* reserve = nullptr) {
    aclrtReduceKind k;
    aclDataType t;
    std::memcpy(&k, &kind, sizeof k);
    std::memcpy(&t, &type, sizeof t);
    return aclrtReduceAsync(dst, src, count, k, t, stream_, reserve);
  }
  const FakeBackend::TaskTrace& last(TaskKind kind) { return last_task(kind); }
  void* a_ = nullptr;
  void* b_ = nullptr;
  void* counter_ = nullptr;
};

TEST_F(BuiltinTest, ReduceSumLikeTheSample) {
  put<float>(a_, {1, 2, 3, 4});
  put<float>(b_, {1, 2, 3, 4});
  ASSERT_EQ(reduce(b_, a_, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<float>(b_, 4), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(download<float>(a_, 4), (std::vector<float>{1, 2, 3, 4}));
  const FakeBackend::TaskTrace& t = last(TaskKind::kReduce);
  EXPECT_EQ(t.name, "REDUCE_SUM");
  EXPECT_EQ(t.record.error, 0);
}

TEST_F(BuiltinTest, ReduceMaxMinInt16AndAliasing) {
  put<std::int16_t>(a_, {5, -7, 100});
  put<std::int16_t>(b_, {-5, 7, 100});
  ASSERT_EQ(reduce(b_, a_, 6, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT16), ACL_SUCCESS);
  ASSERT_EQ(reduce(a_, b_, 6, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT16), ACL_SUCCESS);
  ASSERT_EQ(reduce(b_, b_, 6, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // in stream order
  EXPECT_EQ(download<std::int16_t>(a_, 3), (std::vector<std::int16_t>{5, -7, 100}));
  EXPECT_EQ(download<std::int16_t>(b_, 3), (std::vector<std::int16_t>{10, 14, 200}));
  EXPECT_EQ(last(TaskKind::kReduce).name, "REDUCE_SUM");
}

TEST_F(BuiltinTest, ReduceFp16RoundsOnTheDevice) {
  put<std::uint16_t>(a_, {0x1000, 0x7BFF});
  put<std::uint16_t>(b_, {0x3C01, 0x7BFF});
  ASSERT_EQ(reduce(b_, a_, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<std::uint16_t>(b_, 2), (std::vector<std::uint16_t>{0x3C02, 0x7C00}));
}

TEST_F(BuiltinTest, ReduceErrorCodes) {
  char* a = static_cast<char*>(a_);
  std::vector<float> host(16);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  void* freed = nullptr;
  ASSERT_EQ(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
  int reserve = 0;
  const int sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  struct Case {
    const char* what;
    aclError got;
    aclError want;
  } cases[] = {
      {"NULL dst", reduce(nullptr, a_, 16, sum, ACL_FLOAT), ACL_ERROR_INVALID_PARAM},
      {"NULL src", reduce(b_, nullptr, 16, sum, ACL_FLOAT), ACL_ERROR_INVALID_PARAM},
      {"reserve", reduce(b_, a_, 16, sum, ACL_FLOAT, &reserve), ACL_ERROR_INVALID_PARAM},
      {"double", reduce(b_, a_, 16, sum, ACL_DOUBLE), ACL_ERROR_INVALID_PARAM},
      {"int64", reduce(b_, a_, 16, sum, ACL_INT64), ACL_ERROR_INVALID_PARAM},
      {"uint64", reduce(b_, a_, 16, sum, ACL_UINT64), ACL_ERROR_INVALID_PARAM},
      {"count 0", reduce(b_, a_, 0, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"kind 9", reduce(b_, a_, 16, 9, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"kind 14", reduce(b_, a_, 16, 14, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"SUM over 4 GiB", reduce(b_, a_, (4ULL << 30) + 4, sum, ACL_FLOAT),
       ACL_ERROR_RT_PARAM_INVALID},
      {"EQUAL", reduce(b_, a_, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT),
       ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
      {"int4", reduce(b_, a_, 16, sum, ACL_INT4), ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
      {"uint32 on 910B", reduce(b_, a_, 16, sum, ACL_UINT32), ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
      {"uint8", reduce(b_, a_, 16, sum, ACL_UINT8), ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
      {"unaligned fp32", reduce(b_, a + 2, 16, sum, ACL_FLOAT), ACL_ERROR_RT_ADDR_UNALIGNED},
      {"unaligned fp16", reduce(a + 1, b_, 16, sum, ACL_FLOAT16), ACL_ERROR_RT_ADDR_UNALIGNED},
      {"partial element", reduce(b_, a_, 18, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"past the end", reduce(b_, a_, kSize + 64, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"host dst", reduce(host.data(), a_, 16, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"pinned src", reduce(b_, pinned, 16, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"freed src", reduce(b_, freed, 16, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"overlap", reduce(a_, a + 4, 16, sum, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID},
      {"int8 any alignment", reduce(a + 1, b_, 3, sum, ACL_INT8), ACL_SUCCESS},
  };
  for (const Case& c : cases) EXPECT_EQ(c.got, c.want) << c.what;
  EXPECT_EQ(reduce(b_, a_, 16, 99, ACL_FLOAT), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtReduceKind"), std::string::npos);
  EXPECT_EQ(reduce(b_, a_, 16, sum, ACL_UINT32), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("does not reduce uint32"), std::string::npos);
  aclrtFreeHost(pinned);
}

class Builtin310PTest : public BuiltinTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.npu_arch = 2002; }
};

TEST_F(Builtin310PTest, InferenceChipsSumOnlyAndHaveNoRandomUnit) {
  put<std::int16_t>(a_, {1, 2});
  put<std::int16_t>(b_, {3, 4});
  EXPECT_EQ(reduce(b_, a_, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16), ACL_SUCCESS);
  EXPECT_EQ(reduce(b_, a_, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT16),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(reduce(b_, a_, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(reduce(b_, a_, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT8),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<std::int16_t>(b_, 2), (std::vector<std::int16_t>{4, 6}));
  aclrtRandomNumTaskInfo info = {};
  info.dataType = ACL_FLOAT;
  info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  EXPECT_EQ(aclrtRandomNumAsync(&info, stream_, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

// ---- Random numbers ----

void set_param(aclrtRandomParaInfo& p, const void* value, uint8_t size, bool by_address = false) {
  std::memset(&p, 0, sizeof p);
  p.isAddr = by_address ? 1 : 0;
  if (by_address) {
    const auto address = reinterpret_cast<std::uintptr_t>(value);
    std::memcpy(p.valueOrAddr, &address, 8);
  } else {
    std::memcpy(p.valueOrAddr, value, size);
  }
  p.size = size;
}

class RandomTest : public BuiltinTest {
 protected:
  // A task of `func` writing `num` values of `type` to `out` (seed and num by value, the
  // fixture's counter); the function's parameters are left to the caller.
  aclrtRandomNumTaskInfo task(aclDataType type, aclrtRandomNumFuncType func, uint64_t seed,
                              uint64_t num, void* out) {
    aclrtRandomNumTaskInfo info = {};
    info.dataType = type;
    info.randomNumFuncParaInfo.funcType = func;
    set_param(info.randomSeed, &seed, 8);
    set_param(info.randomNum, &num, 8);
    info.randomCounterAddr = counter_;
    info.randomResultAddr = out;
    return info;
  }
  aclrtRandomNumTaskInfo normal_fp32(float mean, float stddev, uint64_t num, uint64_t seed) {
    aclrtRandomNumTaskInfo info =
        task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, seed, num, a_);
    set_param(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
    set_param(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev, 4);
    return info;
  }
  aclError run(const aclrtRandomNumTaskInfo& info) {
    aclError e = aclrtRandomNumAsync(&info, stream_, nullptr);
    if (e != ACL_SUCCESS) return e;
    return aclrtSynchronizeStream(stream_);
  }
  void reset_counter() { ASSERT_EQ(aclrtMemset(counter_, 16, 0, 16), ACL_SUCCESS); }
};

TEST_F(RandomTest, NormalIsDeterministicForSeedAndCounter) {
  const aclrtRandomNumTaskInfo info = normal_fp32(3, 2, 128, 0);
  ASSERT_EQ(run(info), ACL_SUCCESS);
  const std::vector<float> first = download<float>(a_, 128);
  const FakeBackend::TaskTrace& t = last(TaskKind::kRandom);
  EXPECT_EQ(t.name, "RANDOM_NORMAL");
  // 128 normals = 64 Box-Muller pairs = 128 words = 32 Philox blocks: the counter reads 32.
  EXPECT_EQ(download<std::uint8_t>(counter_, 16),
            (std::vector<std::uint8_t>{32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_EQ(run(info), ACL_SUCCESS);
  EXPECT_NE(download<float>(a_, 128), first);  // the stream continued
  reset_counter();
  ASSERT_EQ(run(info), ACL_SUCCESS);
  EXPECT_EQ(download<float>(a_, 128), first);  // same seed, same counter: same numbers
  double mean = 0;
  for (float f : first) mean += f;
  EXPECT_NEAR(mean / 128, 3.0, 0.6);
}

TEST_F(RandomTest, ParametersByDeviceAddress) {
  const aclrtRandomNumTaskInfo by_value = normal_fp32(-1, 0.5f, 100, 77);
  ASSERT_EQ(run(by_value), ACL_SUCCESS);
  const std::vector<float> expected = download<float>(a_, 100);
  // mean, stddev, seed and count from device memory.
  struct {
    float mean, stddev;
    uint64_t seed, num;
  } params = {-1, 0.5f, 77, 100};
  put<unsigned char>(b_, std::vector<unsigned char>(reinterpret_cast<unsigned char*>(&params),
                                                    reinterpret_cast<unsigned char*>(&params + 1)));
  char* b = static_cast<char*>(b_);
  aclrtRandomNumTaskInfo info = by_value;
  set_param(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, b, 8, true);
  set_param(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, b + 4, 8, true);
  set_param(info.randomSeed, b + 8, 8, true);
  set_param(info.randomNum, b + 16, 8, true);
  reset_counter();
  ASSERT_EQ(aclrtMemset(a_, kSize, 0, kSize), ACL_SUCCESS);
  ASSERT_EQ(run(info), ACL_SUCCESS);
  EXPECT_EQ(download<float>(a_, 100), expected);
  EXPECT_EQ(download<float>(a_, 101)[100], 0.0f);  // nothing past the count
}

TEST_F(RandomTest, UserParameterBlockReceivesTheParameters) {
  aclrtRandomNumTaskInfo info = normal_fp32(1.5f, 2.5f, 4, 1);
  info.randomParaAddr = b_;
  ASSERT_EQ(run(info), ACL_SUCCESS);
  const std::vector<float> words = download<float>(b_, 4);
  EXPECT_EQ(words[0], 1.5f);
  EXPECT_EQ(words[2], 2.5f);
}

TEST_F(RandomTest, UniformInt32AndDropoutLikeTheSample) {
  aclrtRandomNumTaskInfo info =
      task(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, 128, a_);
  const int32_t lo = 1, hi = 100;
  set_param(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
  set_param(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
  ASSERT_EQ(run(info), ACL_SUCCESS);
  for (int32_t v : download<int32_t>(a_, 128)) EXPECT_TRUE(v >= 1 && v < 100) << v;

  aclrtRandomNumTaskInfo mask =
      task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 0, 128, b_);
  const float ratio = 0.0f;
  set_param(mask.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
  ASSERT_EQ(aclrtMemset(b_, kSize, 0, kSize), ACL_SUCCESS);
  ASSERT_EQ(run(mask), ACL_SUCCESS);
  const std::vector<uint8_t> bits = download<uint8_t>(b_, 17);
  EXPECT_EQ(std::vector<uint8_t>(bits.begin(), bits.begin() + 16), std::vector<uint8_t>(16, 0xFF));
  EXPECT_EQ(bits[16], 0);  // 128 bits = 16 bytes, nothing more
  EXPECT_EQ(last(TaskKind::kRandom).name, "RANDOM_DROPOUT_BITMASK");
}

TEST_F(RandomTest, ErrorCodes) {
  const aclrtRandomNumTaskInfo good = normal_fp32(0, 1, 16, 0);
  auto with = [&](auto change) {
    aclrtRandomNumTaskInfo info = good;
    change(info);
    return aclrtRandomNumAsync(&info, stream_, nullptr);
  };
  int reserve = 0;
  EXPECT_EQ(aclrtRandomNumAsync(nullptr, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRandomNumAsync(&good, stream_, &reserve), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_INT8; }), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_UINT8; }), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_INT16; }), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_UINT16; }), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_DOUBLE; }), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(with([](auto& i) {
              const int bad = 4;
              std::memcpy(&i.randomNumFuncParaInfo.funcType, &bad, sizeof bad);
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.dataType = ACL_INT32; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) {
              i.dataType = ACL_UINT64;
              i.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.randomCounterAddr = nullptr; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.randomResultAddr = nullptr; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.randomSeed.size = 0; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.randomNum.size = 9; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) { i.randomSeed.isAddr = 2; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto& i) {
              i.dataType = ACL_FLOAT16;  // the 4-byte float mean is too wide for fp16
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([&](auto& i) {
              const uint64_t big = kSize;  // more floats than the result buffer holds
              set_param(i.randomNum, &big, 8);
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([&](auto& i) {
              const uint64_t huge = 1ULL << 62;  // count * 4 bytes would wrap to 0
              set_param(i.randomNum, &huge, 8);
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  std::vector<float> host(16);
  EXPECT_EQ(with([&](auto& i) { i.randomResultAddr = host.data(); }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([&](auto& i) { i.randomCounterAddr = host.data(); }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([&](auto& i) { i.randomResultAddr = counter_; }), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([&](auto& i) {
              set_param(i.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, host.data(), 8, true);
            }),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(with([](auto&) {}), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(RandomTest, CountByAddressIsReadWhenTheTaskRuns) {
  put<uint64_t>(b_, {16});
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 8), ACL_SUCCESS);
  const uint64_t big = 1 << 20;  // 4 MiB of floats: more than the 4 KiB result buffer
  std::memcpy(pinned, &big, 8);
  // Stream order: the copy rewrites the count after submission checked it, before the task runs.
  ASSERT_EQ(aclrtMemcpyAsync(b_, 8, pinned, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  aclrtRandomNumTaskInfo info = normal_fp32(0, 1, 0, 0);
  set_param(info.randomNum, b_, 8, true);
  ASSERT_EQ(aclrtRandomNumAsync(&info, stream_, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_DEVICE_MEM_ERROR);
  EXPECT_EQ(last(TaskKind::kRandom).record.error, ACL_ERROR_RT_DEVICE_MEM_ERROR);
  aclrtFreeHost(pinned);
}

TEST_F(RandomTest, FreedResultFailsTheTask) {
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtRandomNumTaskInfo info = normal_fp32(0, 1, 16, 0);
  info.randomResultAddr = out;
  ASSERT_EQ(aclrtRandomNumAsync(&info, stream_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(out), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_DEVICE_MEM_ERROR);
}

}  // namespace
}  // namespace npusim::rt::testing
