// SPDX-License-Identifier: Apache-2.0
// DVPP's codec library (runtime/dvpp/codec_loader.h): the runtime loads libacl_dvpp.so at the
// first codec use; when it cannot, codec calls fail with ACL_ERROR_FEATURE_UNSUPPORTED, the
// reason is logged once, and the rest of DVPP keeps working.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/dvpp/codec_loader.h"
#include "tests/runtime/dvpp/dvpp_support.h"

namespace npusim::rt::testing {
namespace {

std::vector<unsigned char> png_file(std::uint32_t w, std::uint32_t h) {
  Bytes file;
  png_of(w, h, Bytes(3 * w * h, 0x5a), &file);
  return file;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Points $NPUSIM_DVPP_LIBRARY at `path` (empty: unset) and makes the runtime look again.
void use_codec_library(const std::string& path) {
  if (path.empty()) {
    unsetenv(dvpp::kCodecLibraryEnv);
  } else {
    setenv(dvpp::kCodecLibraryEnv, path.c_str(), 1);
  }
  dvpp::testing::forget_codec_library();
}

class DvppCodecLibraryTest : public DeviceTest {
 protected:
  void TearDown() override {
    use_codec_library("");  // back to the build tree's library
    DeviceTest::TearDown();
  }
  aclError png_info(std::uint32_t* w, std::uint32_t* h) {
    const std::vector<unsigned char> file = png_file(20, 10);
    int32_t comps = 0;
    return acldvppPngGetImageInfo(file.data(), static_cast<uint32_t>(file.size()), w, h, &comps);
  }
};

TEST_F(DvppCodecLibraryTest, MissingLibraryFailsCodecCallsAndIsLoggedOnce) {
  const std::string missing = "/nonexistent/npusim/libacl_dvpp.so";
  use_codec_library(missing);
  std::uint32_t w = 0, h = 0;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(png_info(&w, &h), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(png_info(&w, &h), ACL_ERROR_FEATURE_UNSUPPORTED);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(log, "calls fail with ACL_ERROR_FEATURE_UNSUPPORTED"), 1u) << log;
  EXPECT_NE(log.find("DVPP codec library " + missing + " cannot be loaded"), std::string::npos)
      << log;
  EXPECT_EQ(w, 0u);
  // DVPP without codecs still works: memory.
  void* p = nullptr;
  ASSERT_EQ(acldvppMalloc(&p, 4096), ACL_SUCCESS);
  EXPECT_EQ(acldvppFree(p), ACL_SUCCESS);
}

TEST_F(DvppCodecLibraryTest, ALibraryWithoutTheEntryPointIsRejected) {
  use_codec_library("libc.so.6");  // loads, but is not npusim's codec library
  std::uint32_t w = 0, h = 0;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(png_info(&w, &h), ACL_ERROR_FEATURE_UNSUPPORTED);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("has no npusim_dvpp_codecs"), std::string::npos) << log;
}

TEST_F(DvppCodecLibraryTest, TheBuildTreeLibraryDecodes) {
  use_codec_library("");
  std::uint32_t w = 0, h = 0;
  ASSERT_EQ(png_info(&w, &h), ACL_SUCCESS);
  EXPECT_EQ(w, 20u);
  EXPECT_EQ(h, 10u);
  std::string why;
  EXPECT_NE(dvpp::codec_table(&why), nullptr) << why;
}

}  // namespace
}  // namespace npusim::rt::testing
