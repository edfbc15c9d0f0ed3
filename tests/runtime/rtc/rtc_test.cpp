// SPDX-License-Identifier: Apache-2.0
// aclrtc* (runtime/rtc): handles and arguments with their error codes, and a compilation with a
// stand-in npusim-asc ($NPUSIM_ASC) that reports what it was given: options as argv entries, the
// private 0700 directory with the source and headers, the registrations of name expressions,
// the compile log, the binary, each failure's code, and the directory removed afterwards.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl_rt_compile.h"

namespace {

// Records its arguments; for -c prints the build directory's mode, the source and a header,
// then writes OBJ; for a link writes BIN-<n>. FAKE_ASC_FAIL=option|compile|link fails that step.
constexpr const char* kFakeAsc = R"SH(#!/bin/sh
echo "args: $*"
out=""; src=""; dir=""; prev=""
for a in "$@"; do
  case "$prev" in -o) out="$a";; -c) src="$a";; -I) dir="$a";; esac
  prev="$a"
done
if [ -n "$src" ]; then
  echo "dir: $dir mode $(stat -c %a "$dir")"
  echo "source:"; cat "$src"
  [ -f "$dir/inc/extra.h" ] && { echo "header:"; cat "$dir/inc/extra.h"; }
  [ "$FAKE_ASC_FAIL" = option ] && { echo "npusim-asc: --bad is not supported"; exit 2; }
  [ "$FAKE_ASC_FAIL" = compile ] && { echo "error: expected ';'"; exit 1; }
  printf OBJ > "$out"
else
  [ "$FAKE_ASC_FAIL" = link ] && { echo "undefined reference"; exit 1; }
  printf 'BIN-%s' "$#" > "$out"
fi
)SH";

class Rtc : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("rtc_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    const std::string exe = (dir_ / "npusim-asc").string();
    std::ofstream(exe) << kFakeAsc;
    ::chmod(exe.c_str(), 0755);
    ::setenv("NPUSIM_ASC", exe.c_str(), 1);
    ::unsetenv("FAKE_ASC_FAIL");
  }
  void TearDown() override {
    ::unsetenv("NPUSIM_ASC");
    std::filesystem::remove_all(dir_);
  }
  static std::string log_of(aclrtcProg prog) {
    size_t size = 0;
    EXPECT_EQ(aclrtcGetCompileLogSize(prog, &size), ACL_SUCCESS);
    std::vector<char> log(size, 'x');
    EXPECT_EQ(aclrtcGetCompileLog(prog, log.data()), ACL_SUCCESS);
    EXPECT_EQ(log.back(), '\0');
    return std::string(log.data());
  }
  std::filesystem::path dir_;
};

TEST_F(Rtc, HandlesAndArgumentsHaveTheirErrorCodes) {
  aclrtcProg prog = nullptr;
  EXPECT_EQ(aclrtcCreateProg(nullptr, "x", "p", 0, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&prog, nullptr, "p", 0, nullptr, nullptr),
            ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&prog, "x", "p", -1, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCreateProg(&prog, "x", "p", 1, nullptr, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  const char* text[] = {"int x;"};
  for (const char* bad : {"../up.h", "/abs.h", "a//b.h", "a/./b.h", ""}) {
    const char* names[] = {bad};
    EXPECT_EQ(aclrtcCreateProg(&prog, "x", "p", 1, text, names), ACL_ERROR_RTC_INVALID_INPUT)
        << bad;
  }
  int not_a_prog = 0;
  size_t size = 0;
  const char* lowered = nullptr;
  EXPECT_EQ(aclrtcCompileProg(&not_a_prog, 0, nullptr), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcGetCompileLogSize(nullptr, &size), ACL_ERROR_RTC_INVALID_PROG);
  EXPECT_EQ(aclrtcAddNameExpr(&not_a_prog, "k"), ACL_ERROR_RTC_INVALID_PROG);

  ASSERT_EQ(aclrtcCreateProg(&prog, "src", nullptr, 0, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_ERROR_RTC_INVALID_PROG);  // not compiled
  EXPECT_EQ(aclrtcAddNameExpr(prog, ""), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcAddNameExpr(prog, "ns::k<float>"), ACL_SUCCESS);
  EXPECT_EQ(aclrtcGetLoweredName(prog, "ns::k<float>", &lowered),
            ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  EXPECT_EQ(aclrtcGetLoweredName(prog, "ns::k<float>", nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  const char* null_option[] = {nullptr};
  EXPECT_EQ(aclrtcCompileProg(prog, 1, null_option), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcCompileProg(prog, -1, nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  EXPECT_EQ(aclrtcDestroyProg(nullptr), ACL_ERROR_RTC_INVALID_INPUT);
  aclrtcProg copy = prog;
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  EXPECT_EQ(prog, nullptr);
  EXPECT_EQ(aclrtcDestroyProg(&copy), ACL_ERROR_RTC_INVALID_PROG);  // destroyed already
  EXPECT_EQ(aclrtcGetCompileLogSize(copy, &size), ACL_ERROR_RTC_INVALID_PROG);
}

TEST_F(Rtc, CompilesInAPrivateDirectoryAndKeepsTheBinary) {
  const char* text[] = {"#define EXTRA 7\n"};
  const char* names[] = {"inc/extra.h"};
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, "extern \"C\" __global__ void k() {}", "my prog", 1, text,
                             names),
            ACL_SUCCESS);
  const char* options[] = {"--npu-arch=dav-2201", "-DVALUE=a b"};
  ASSERT_EQ(aclrtcCompileProg(prog, 2, options), ACL_SUCCESS);
  const std::string log = log_of(prog);
  // Each option is one argument: "-DVALUE=a b" stays whole (no shell splits it).
  const auto args = log.find("args: --npu-arch=dav-2201 -DVALUE=a b -I ");
  ASSERT_NE(args, std::string::npos) << log;
  const auto dir_at = log.find("dir: ");
  const std::string dir = log.substr(dir_at + 5, log.find(" mode ", dir_at) - dir_at - 5);
  EXPECT_NE(log.find("dir: " + dir + " mode 700\n"), std::string::npos) << log;
  EXPECT_NE(log.find(" -c " + dir + "/my_prog.asc -o " + dir + "/my_prog.o"), std::string::npos);
  EXPECT_NE(log.find("source:\nextern \"C\" __global__ void k() {}\n"), std::string::npos) << log;
  EXPECT_NE(log.find("header:\n#define EXTRA 7\n"), std::string::npos) << log;
  EXPECT_NE(log.find("args: -shared " + dir + "/my_prog.o -o " + dir + "/my_prog.so"),
            std::string::npos)
      << log;
  EXPECT_FALSE(std::filesystem::exists(dir)) << dir;  // removed after the compilation
  size_t size = 0;
  ASSERT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_SUCCESS);
  std::vector<char> bin(size);
  ASSERT_EQ(aclrtcGetBinData(prog, bin.data()), ACL_SUCCESS);
  EXPECT_EQ(std::string(bin.begin(), bin.end()), "BIN-4");  // what the link step wrote
  EXPECT_EQ(aclrtcAddNameExpr(prog, "k2"), ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION);
  const char* lowered = nullptr;
  EXPECT_EQ(aclrtcGetLoweredName(prog, "k2", &lowered), ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(Rtc, EachFailingStepHasItsCodeAndLog) {
  const struct {
    const char* fail;
    aclError code;
    const char* says;
  } cases[] = {{"option", ACL_ERROR_RTC_INVALID_OPTION, "--bad is not supported"},
               {"compile", ACL_ERROR_RTC_COMPILATION, "error: expected ';'"},
               {"link", ACL_ERROR_RTC_LINKING, "undefined reference"}};
  for (const auto& c : cases) {
    ::setenv("FAKE_ASC_FAIL", c.fail, 1);
    aclrtcProg prog = nullptr;
    ASSERT_EQ(aclrtcCreateProg(&prog, "int main;", "p", 0, nullptr, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), c.code) << c.fail;
    EXPECT_NE(log_of(prog).find(c.says), std::string::npos) << log_of(prog);
    size_t size = 0;
    EXPECT_EQ(aclrtcGetBinDataSize(prog, &size), ACL_ERROR_RTC_INVALID_PROG);
    EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
  }
}

TEST_F(Rtc, NameExpressionsAreRegisteredAndNeedARealLibrary) {
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, "template <class T> __global__ void k() {}", "t", 0, nullptr,
                             nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtcAddNameExpr(prog, "k<float, 4>"), ACL_SUCCESS);
  // The stand-in's "library" is no shared object: the lowered name cannot be read from it.
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), ACL_ERROR_RTC_LINKING);
  const std::string log = log_of(prog);
  EXPECT_NE(log.find("#define NPUSIM_RTC_EXPR_0 k<float, 4>\n"
                     "NPUSIM_REGISTER_KERNEL_AS(npusim_rtc_expr_0, NPUSIM_RTC_EXPR_0)\n"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("npusim: cannot load the compiled library"), std::string::npos) << log;
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

TEST_F(Rtc, NoCompilerIsAFailureWithItsReason) {
  ::setenv("NPUSIM_ASC", "", 1);  // and no bin/npusim-asc beside this test's runtime
  aclrtcProg prog = nullptr;
  ASSERT_EQ(aclrtcCreateProg(&prog, "x", "p", 0, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(prog, 0, nullptr), ACL_ERROR_RTC_FAILURE);
  EXPECT_NE(log_of(prog).find("no npusim-asc"), std::string::npos);
  EXPECT_EQ(aclrtcDestroyProg(&prog), ACL_SUCCESS);
}

}  // namespace
