// SPDX-License-Identifier: Apache-2.0
// The kernel build seam: rewrite_launch.py output (launch_fixture.cpp) compiles, keeps line
// numbers, turns <<<>>> into npusim::ascendc::launch (served here by a test launch_kernel) and
// registers every kernel for the binary path.
#include "npusim/ascendc/launch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "npusim/ascendc/block_context.h"

int32_t FillDo(uint32_t blockDim, void* stream, int32_t* out, int32_t value);
int32_t TrapDo(uint32_t blockDim, void* stream);
int32_t ScaleDo(uint32_t blockDim, void* stream, float* x, float s);
int32_t TemplateDo(uint32_t blockDim, void* stream, int32_t* x);
int32_t DefaultStreamDo(uint32_t blockDim, int32_t* x);
const char* FixtureText();
int FixtureLine();

extern "C" const npusim::ascendc::KernelEntry npusim_kernel_fixture_fill;
extern "C" const npusim::ascendc::KernelEntry npusim_kernel_fixture_trap;
extern "C" const npusim::ascendc::KernelEntry npusim_kernel_scaled;

namespace {

struct Launched {
  std::string name;
  std::uint32_t block_dim = 0;
  void* stream = nullptr;
  std::string memo_key;
};
std::vector<Launched> g_launches;  // test-only record of launch_kernel calls

constexpr std::int32_t kTrapError = 507035;

}  // namespace

// The runtime's side of the seam, reduced to running the blocks in order.
std::int32_t npusim::ascendc::launch_kernel(KernelLaunch&& launch) {
  g_launches.push_back({launch.name, launch.block_dim, launch.stream,
                        launch.memo_key ? launch.memo_key() : std::string()});
  for (std::uint32_t b = 0; b < launch.block_dim; ++b) {
    BlockContext ctx(b, launch.block_dim);
    ScopedBlock scope(ctx);
    try {
      launch.run_block();
    } catch (const DeviceTrap&) {
      return kTrapError;
    }
  }
  return 0;
}

namespace {

TEST(Launch, RewrittenLaunchRunsEveryBlock) {
  g_launches.clear();
  std::vector<int32_t> out(6, -1);
  int stream_tag = 0;
  EXPECT_EQ(FillDo(6, &stream_tag, out.data(), 100), 0);
  EXPECT_EQ(out, (std::vector<int32_t>{100, 101, 102, 103, 104, 105}));
  ASSERT_EQ(g_launches.size(), 1u);
  EXPECT_EQ(g_launches[0].name, "fixture_fill");
  EXPECT_EQ(g_launches[0].block_dim, 6u);
  EXPECT_EQ(g_launches[0].stream, &stream_tag);
}

TEST(Launch, TheMemoKeyIsTheBoundArgumentsBytes) {
  g_launches.clear();
  std::vector<int32_t> out(2, -1);
  ASSERT_EQ(FillDo(2, nullptr, out.data(), 0x01020304), 0);
  ASSERT_EQ(TrapDo(1, nullptr), kTrapError);
  ASSERT_EQ(g_launches.size(), 2u);
  const std::string& key = g_launches[0].memo_key;  // fill(GM_ADDR out, int32_t value)
  ASSERT_EQ(key.size(), 1u + sizeof(void*) + 4u);
  EXPECT_EQ(key[0], 'k');
  void* p = nullptr;
  std::memcpy(&p, key.data() + 1, sizeof p);
  EXPECT_EQ(p, out.data());
  std::int32_t v = 0;
  std::memcpy(&v, key.data() + 1 + sizeof p, 4);
  EXPECT_EQ(v, 0x01020304);
  EXPECT_EQ(g_launches[1].memo_key, "k");  // no parameters: still memoisable
}

TEST(Launch, QualifiedKernelAndReturnValue) {
  std::vector<float> x = {1, 2, 3};
  EXPECT_EQ(ScaleDo(3, nullptr, x.data(), 2.0f), 0);
  EXPECT_EQ(x, (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(TrapDo(2, nullptr), kTrapError);  // asm volatile("trap") became asm("trap")
}

TEST(Launch, TemplateKernelLaunch) {
  g_launches.clear();
  std::vector<int32_t> x = {1, 2, 3, 4};
  EXPECT_EQ(TemplateDo(4, nullptr, x.data()), 0);
  EXPECT_EQ(x, (std::vector<int32_t>{3, 6, 9, 12}));
  ASSERT_EQ(g_launches.size(), 1u);
  EXPECT_EQ(g_launches[0].name, "scale_by");  // the template's name, without its arguments
}

TEST(Launch, OmittedStreamIsTheDefaultStream) {
  g_launches.clear();
  std::vector<int32_t> x = {1, 2};
  EXPECT_EQ(DefaultStreamDo(2, x.data()), 0);
  EXPECT_EQ(x, (std::vector<int32_t>{10, 20}));
  ASSERT_EQ(g_launches.size(), 2u);
  EXPECT_EQ(g_launches[0].stream, nullptr);
  EXPECT_EQ(g_launches[1].stream, nullptr);
}

TEST(Launch, StringsAndCommentsAreNotRewritten) {
  EXPECT_STREQ(FixtureText(), "not<<<a, launch>>>()");
}

TEST(Launch, LineNumbersArePreserved) {
  std::ifstream src(NPUSIM_FIXTURE_SOURCE);
  ASSERT_TRUE(src.good()) << NPUSIM_FIXTURE_SOURCE;
  std::string line;
  int n = 0, marker = 0;
  while (std::getline(src, line)) {
    ++n;
    if (line.find("LINE-MARKER") != std::string::npos && line.find("__LINE__") != std::string::npos)
      marker = n;
  }
  EXPECT_EQ(FixtureLine(), marker);
}

TEST(Launch, RegisteredEntriesDecodePackedArguments) {
  const npusim::ascendc::KernelEntry& e = npusim_kernel_fixture_fill;
  EXPECT_STREQ(e.name, "fixture_fill");
  ASSERT_EQ(e.num_params, 2u);
  EXPECT_EQ(e.params[0].offset, 0u);
  EXPECT_EQ(e.params[0].size, 8u);
  EXPECT_TRUE(e.params[0].is_pointer);
  EXPECT_EQ(e.params[1].offset, 8u);
  EXPECT_EQ(e.params[1].size, 4u);
  EXPECT_FALSE(e.params[1].is_pointer);
  EXPECT_EQ(e.args_size, 12u);

  std::vector<int32_t> out(2, 0);
  unsigned char args[12];
  void* p = out.data();
  const int32_t value = 7;
  std::memcpy(args, &p, 8);
  std::memcpy(args + 8, &value, 4);
  for (std::uint32_t b = 0; b < 2; ++b) {
    npusim::ascendc::BlockContext ctx(b, 2);
    npusim::ascendc::ScopedBlock scope(ctx);
    e.invoke(args, sizeof args);
  }
  EXPECT_EQ(out, (std::vector<int32_t>{7, 8}));

  npusim::ascendc::BlockContext ctx(0, 1);
  npusim::ascendc::ScopedBlock scope(ctx);
  EXPECT_THROW(e.invoke(args, 8), npusim::ascendc::KernelError);
  EXPECT_EQ(npusim_kernel_fixture_trap.num_params, 0u);
  EXPECT_THROW(npusim_kernel_fixture_trap.invoke(nullptr, 0), npusim::ascendc::DeviceTrap);
  EXPECT_EQ(npusim_kernel_scaled.args_size, 12u);
}

}  // namespace
