// SPDX-License-Identifier: Apache-2.0
// aclInit / aclFinalize, versions, SoC identity.
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "models/chip_config_loader.h"
#include "runtime/core/runtime.h"

#include "tests/runtime/test_support.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // aclrtGetVersion

namespace npusim::rt::testing {
namespace {

using InitTest = AclTest;

TEST_F(InitTest, InitFinalizeInitWorks) {
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(InitTest, CallsAfterFinalizeReturnUninitialize) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  void* p = nullptr;
  aclrtStream s = nullptr;
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtCreateStream(&s), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_UNINITIALIZE);
}

TEST_F(InitTest, QueriesWorkBeforeInit) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_STREQ(soc, "Ascend910B2");
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 8u);  // the default chip config: an 8-chip 910B server
}

TEST_F(InitTest, FinalizeReleasesEverything) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* dev = nullptr;
  void* host = nullptr;
  aclrtStream s = nullptr;
  aclrtEvent e = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, 1024), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 1024, host, 1024, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(fake().outputs_written(), 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyEvent(e), ACL_ERROR_RT_PARAM_INVALID);
  size_t free = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  EXPECT_EQ(free, total);
}

TEST(InitNoBackend, SocNameComesFromTheEnvironmentsConfigBeforeTheFirstInit) {
  Runtime& rt = Runtime::instance();
  {
    std::lock_guard<std::mutex> lock(rt.mutex());
    if (rt.initialized()) GTEST_SKIP() << "runtime left initialized by another test";
    rt.set_backend_factory(nullptr);  // no backend at all: aclrtGetSocName reads NPUSIM_CONFIG
  }
  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_EQ(std::string(soc), models::config_from_env().soc.name);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, static_cast<uint32_t>(models::config_from_env().soc.num_devices));
}

TEST(InitNoBackend, AChipThatCannotStartIsAnInitError) {
  Runtime& rt = Runtime::instance();
  {
    std::lock_guard<std::mutex> lock(rt.mutex());
    if (rt.initialized()) GTEST_SKIP() << "runtime left initialized by another test";
    rt.set_backend_factory([]() -> std::unique_ptr<Backend> {
      throw std::runtime_error("bad config: pcie.h2d_bandwidth: must be positive");
    });
  }
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_FILE);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::strstr(msg, "pcie.h2d_bandwidth"), nullptr) << msg;
  use_fake_backend();
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(InitTest, ConfigFileMustBeReadableJson) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit("/nonexistent/npusim.json"), ACL_ERROR_INVALID_FILE);
  std::string bad = ::testing::TempDir() + "npusim_bad.json";
  std::string good = ::testing::TempDir() + "npusim_good.json";
  std::FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs("{ not json", f);
  std::fclose(f);
  f = std::fopen(good.c_str(), "w");
  std::fputs("{\"dump\": {}}", f);
  std::fclose(f);
  EXPECT_EQ(aclInit(bad.c_str()), ACL_ERROR_PARSE_FILE);
  EXPECT_EQ(aclInit(good.c_str()), ACL_SUCCESS);
}

TEST_F(InitTest, FinalizeReferenceCountsInits) {
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  uint64_t refs = 99;
  EXPECT_EQ(aclFinalizeReference(&refs), ACL_SUCCESS);
  EXPECT_EQ(refs, 1u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeReference(&refs), ACL_SUCCESS);
  EXPECT_EQ(refs, 0u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclFinalizeReference(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(InitTest, VersionsComeFromTheConfig) {
  char pkg[] = "runtime";
  char text[ACL_PKG_VERSION_MAX_SIZE] = {};
  int32_t number = 0;
  EXPECT_EQ(aclsysGetVersionStr(pkg, text), ACL_SUCCESS);
  EXPECT_STREQ(text, "8.5.0");
  EXPECT_EQ(aclsysGetVersionNum(pkg, &number), ACL_SUCCESS);
  EXPECT_EQ(number, 80500000);
  char unknown[] = "no-such-package";
  EXPECT_EQ(aclsysGetVersionStr(unknown, text), ACL_ERROR_INVALID_PARAM);
  int32_t major = 0, minor = 0, patch = 0;
  EXPECT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
}

class CannVersionTest : public AclTest {
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.version = "9.1.0"; }
};

TEST_F(CannVersionTest, NumberFollowsCannWeights) {
  char pkg[] = "runtime";
  int32_t number = 0;
  EXPECT_EQ(aclsysGetVersionNum(pkg, &number), ACL_SUCCESS);
  EXPECT_EQ(number, 90100000);  // the value the runtime_compatibility README shows for 9.1.0
}

TEST_F(InitTest, CannAttributesAreHonest) {
  const aclCannAttr* list = nullptr;
  size_t n = 0;
  ASSERT_EQ(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
  ASSERT_EQ(n, 2u);
  int32_t value = -1;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(aclGetCannAttribute(list[i], &value), ACL_SUCCESS);
    EXPECT_EQ(value, 1);
  }
  EXPECT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0);  // no operator compiler in the simulator
}

}  // namespace
}  // namespace npusim::rt::testing
