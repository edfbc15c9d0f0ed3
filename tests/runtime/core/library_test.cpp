// SPDX-License-Identifier: Apache-2.0
// The library registry (runtime/core/library.h): a library defined here, and nowhere in the
// runtime, sees the points of the process's life in order, keeps its section of the aclInit file,
// can refuse a bad one, and runs work after an API call with the lock released.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "runtime/core/errors.h"
#include "runtime/core/library.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

struct Probe {
  bool armed = false;  // other tests of this binary run with the library registered but quiet
  std::vector<std::string> events;
  std::string config_text;
  int deferred = 0;  // after_call work still to hand out
  bool ran_unlocked = false;
};

Probe& probe() {
  static Probe p;
  return p;
}

void note(const std::string& what) {
  if (probe().armed) probe().events.push_back(what);
}

Library probe_library() {
  Library lib;
  lib.name = "probe";
  lib.init_config = [](const std::string& text, const char*) {
    if (!probe().armed) return;
    note("init_config");
    probe().config_text = text;
    if (text.find("\"probe\": \"bad\"") != std::string::npos) {
      fail(ACL_ERROR_INVALID_PARAM, "probe: a bad section");
    }
  };
  lib.init = [] { note("init"); };
  lib.finalize = [](Call&) { note("finalize"); };
  lib.write_outputs = [](Backend&) { note("write_outputs"); };
  lib.reset = [] { note("reset"); };
  lib.after_call = []() -> std::function<void()> {
    if (!probe().armed || probe().deferred == 0) return {};
    --probe().deferred;
    return [] {
      // The API lock is released: a library's deferred work may call the API (a user callback).
      aclrtContext ctx = nullptr;
      probe().ran_unlocked = aclrtGetCurrentContext(&ctx) != ACL_ERROR_RT_INTERNAL_ERROR;
      note("after_call");
    };
  };
  return lib;
}

NPUSIM_REGISTER_LIBRARY(probe, probe_library());

class LibraryTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    probe() = Probe{};
    probe().armed = true;
  }
  void TearDown() override {
    probe().armed = false;
    AclTest::TearDown();
  }
  static std::string write_config(const std::string& text) {
    const std::string path = ::testing::TempDir() + "npusim_library_test.json";
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(LibraryTest, IsRegisteredOnceByName) {
  int found = 0;
  for (const Library& lib : libraries()) found += std::string(lib.name) == "probe";
  EXPECT_EQ(found, 1);
}

TEST_F(LibraryTest, SeesTheLifeOfTheProcessInOrder) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  const std::string path = write_config("{\"probe\": \"good\"}");
  ASSERT_EQ(aclInit(path.c_str()), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  const std::vector<std::string> want = {"finalize", "write_outputs", "reset",  "init_config",
                                         "init",     "finalize",      "write_outputs", "reset"};
  EXPECT_EQ(probe().events, want);
  EXPECT_EQ(probe().config_text, "{\"probe\": \"good\"}");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // for TearDown
  EXPECT_EQ(probe().config_text, "");        // no file: every library hears an empty one
}

TEST_F(LibraryTest, ABadSectionFailsAclInitBeforeTheRuntimeStarts) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  probe().events.clear();
  const std::string path = write_config("{\"probe\": \"bad\"}");
  EXPECT_EQ(aclInit(path.c_str()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(probe().events, std::vector<std::string>{"init_config"});  // no init
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
}

TEST_F(LibraryTest, AfterCallWorkRunsOnceWithTheLockReleased) {
  probe().deferred = 1;
  int32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(reinterpret_cast<uint32_t*>(&count)), ACL_SUCCESS);
  EXPECT_TRUE(probe().ran_unlocked);
  ASSERT_EQ(aclrtGetDeviceCount(reinterpret_cast<uint32_t*>(&count)), ACL_SUCCESS);
  int after = 0;
  for (const std::string& e : probe().events) after += e == "after_call";
  EXPECT_EQ(after, 1);
}

}  // namespace
}  // namespace npusim::rt::testing
