// SPDX-License-Identifier: Apache-2.0
// OpSimulator (the op simulator's per-instruction view) fed by BlockReplay without SystemC: one
// slice per instruction with its pipe and times, flows from each dependency, per-unit csv sums,
// the kernel-name filter and launch count, the instruction budget, source lines resolved from
// return addresses, identical text on a second rendering. aicore_config(): 1 GHz (1 cycle = 1 ns).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "models/aicore/block_replay.h"
#include "models/aicore/op_simulator.h"
#include "tests/models/aicore_bench.h"

namespace npusim::models::testing {
namespace {

/// Memory with no contention; forwards each finished instruction to the recorder.
class Host : public ReplayHost {
 public:
  Host(OpSimulator& sim, int launch, std::uint32_t block, const BlockTrace& trace, int unit)
      : sim_(sim), launch_(launch), block_(block), trace_(trace), unit_(unit) {}
  SimTime gm_access(const Instr&, SimTime request, SimTime&) override { return request + kNs; }
  void instr_done(const Instr& in, int lane, SimTime start, SimTime end) override {
    const auto index = static_cast<std::uint32_t>(&in - trace_.instrs.data());
    sim_.instr(launch_, block_, trace_, index, unit_, lane_pipe(lane), start, end);
    busy[static_cast<int>(lane_pipe(lane))] += end - start;
  }
  std::map<int, SimTime> busy;

 private:
  OpSimulator& sim_;
  int launch_;
  std::uint32_t block_;
  const BlockTrace& trace_;
  int unit_;
};

OpSimulatorOptions options(std::uint64_t budget = 2000000) {
  OpSimulatorOptions o;
  o.dir = "unused";
  o.budget = budget;
  return o;
}

// Replays `trace` as block `block` of `launch` on `unit`; returns the per-pipe busy time (ps).
std::map<int, SimTime> replay(OpSimulator& sim, int launch, std::uint32_t block,
                              const BlockTrace& trace, int unit) {
  const PipeCosts costs(aicore_config());
  BlockReplay r(costs);
  Host host(sim, launch, block, trace, unit);
  sim.begin_block(launch, block, trace);
  const ReplayResult& res = r.run(trace, 0, false, true, host);
  for (int p = 1; p < ascendc::kPipeCount; ++p) EXPECT_EQ(res.busy[p], host.busy[p]) << p;
  return host.busy;
}

std::vector<nlohmann::json> events(const nlohmann::json& d, const std::string& ph) {
  std::vector<nlohmann::json> out;
  for (const auto& e : d["traceEvents"]) {
    if (e["ph"] == ph) out.push_back(e);
  }
  return out;
}

// A return address inside this function, at a line the test knows.
__attribute__((noinline)) std::uintptr_t here() {
  return reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
}

TEST(OpSimulator, OneSlicePerInstructionWithFlowsAndPerUnitSums) {
  OpSimulator sim(options());
  const int launch = sim.begin_launch("vadd", 1e9);
  ASSERT_EQ(launch, 0);
  const int unit = sim.unit_id("core0.veccore1");
  // 2 tiles of 4 KiB, double-buffered: per tile 2 MTE2 copies, an Add, an MTE3 copy.
  BlockTrace trace = vector_add_trace(2, 4096, 2);
  const std::uintptr_t site = here();  // the line of this call: every instruction's site
  trace.site_frames.assign(ascendc::kSiteDepth, 0);
  trace.site_frames[0] = site;
  trace.sites.assign(trace.instrs.size(), 0);
  const std::map<int, SimTime> busy = replay(sim, launch, 3, trace, unit);
  EXPECT_EQ(sim.recorded(), 8u);

  const std::map<std::string, std::string> files = sim.render();
  const auto d = nlohmann::json::parse(files.at("trace.json"));
  const std::vector<nlohmann::json> slices = events(d, "X");
  ASSERT_EQ(slices.size(), 8u);
  std::map<int, int> per_pipe;
  std::map<int, double> dur_us;
  for (const auto& s : slices) {
    ++per_pipe[s["tid"].get<int>()];
    dur_us[s["tid"].get<int>()] += s["dur"].get<double>();
    EXPECT_EQ(s["pid"], 1);
    EXPECT_EQ(s["args"]["kernel"], "vadd");
    EXPECT_EQ(s["args"]["block"], 3);
    const std::string code = s["args"]["code"];
    EXPECT_NE(code.find("op_simulator_test.cpp:"), std::string::npos) << code;
  }
  EXPECT_EQ(per_pipe[static_cast<int>(Pipe::kMte2)], 4);
  EXPECT_EQ(per_pipe[static_cast<int>(Pipe::kVector)], 2);
  EXPECT_EQ(per_pipe[static_cast<int>(Pipe::kMte3)], 2);
  // Slice durations per pipe add up to the pipe's busy time (ps -> us).
  for (const Pipe p : {Pipe::kMte2, Pipe::kVector, Pipe::kMte3}) {
    const auto q = static_cast<int>(p);
    EXPECT_NEAR(dur_us[q], static_cast<double>(busy.at(q)) * 1e-6, 1e-9) << q;
  }
  // An Add: 4096 B of fp16 = 2048 elements, 16 repeats of 256 B; 10 + 16 = 26 cycles.
  const auto add = std::find_if(slices.begin(), slices.end(),
                                [](const nlohmann::json& s) { return s["name"] == "Add"; });
  ASSERT_NE(add, slices.end());
  EXPECT_EQ((*add)["args"]["elements"], 2048);
  EXPECT_EQ((*add)["args"]["repeat"], 16);
  EXPECT_EQ((*add)["args"]["cycles"], 26);
  EXPECT_EQ((*add)["args"]["dtype"], "half");
  EXPECT_EQ((*add)["dur"], 0.026);
  // Flows: each Add waits for its 2 copy-ins, each copy-out for its Add: 6 arrows, each "s" in
  // its source's track and "f" in the dependent's.
  const std::vector<nlohmann::json> starts = events(d, "s"), ends = events(d, "f");
  ASSERT_EQ(starts.size(), 6u);
  ASSERT_EQ(ends.size(), 6u);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    EXPECT_EQ(starts[i]["id"], ends[i]["id"]);
    EXPECT_EQ(starts[i]["cat"], "flag");
    EXPECT_LE(starts[i]["ts"].get<double>(), ends[i]["ts"].get<double>());
  }
  EXPECT_EQ(std::count_if(ends.begin(), ends.end(),
                          [](const nlohmann::json& e) {
                            return e["tid"] == static_cast<int>(Pipe::kVector);
                          }),
            4);
  // Per unit: one source line with all 8 instructions; 3 instruction kinds.
  const std::string& code = files.at("core0.veccore1/core0.veccore1_code_exe.csv");
  EXPECT_EQ(code.rfind("code,call_count,cycles,running_time(us)\n", 0), 0u) << code;
  EXPECT_NE(code.find("op_simulator_test.cpp:"), std::string::npos) << code;
  EXPECT_EQ(std::count(code.begin(), code.end(), '\n'), 2);
  EXPECT_NE(code.find(",8,"), std::string::npos) << code;
  const std::string& instr = files.at("core0.veccore1/core0.veccore1_instr_exe.csv");
  EXPECT_EQ(instr.rfind("instr,addr,pipe,call_count,cycles,running_time(us),detail\n", 0), 0u);
  EXPECT_EQ(std::count(instr.begin(), instr.end(), '\n'), 4) << instr;
  EXPECT_NE(instr.find("Add,0x"), std::string::npos) << instr;
  EXPECT_NE(instr.find(",VECTOR,2,52,0.052000,"), std::string::npos) << instr;
  EXPECT_TRUE(files.count("core0.veccore1/trace.json"));
  // The same text when rendered again.
  EXPECT_EQ(sim.render(), files);
}

TEST(OpSimulator, KernelFilterLaunchCountAndBudget) {
  OpSimulatorOptions o = options(5);
  o.kernel_filter = "add";
  o.launch_count = 1;
  OpSimulator sim(o);
  EXPECT_EQ(sim.begin_launch("softmax", 1e9), -1);  // not matching
  const int launch = sim.begin_launch("vadd", 1e9);
  EXPECT_EQ(launch, 0);
  EXPECT_EQ(sim.begin_launch("vadd", 1e9), -1);  // the launch count is reached
  const BlockTrace trace = vector_add_trace(2, 4096, 2);
  replay(sim, launch, 0, trace, sim.unit_id("core0.veccore0"));
  EXPECT_EQ(sim.recorded(), 5u);
  EXPECT_TRUE(sim.cut());
  const auto d = nlohmann::json::parse(sim.render().at("trace.json"));
  EXPECT_EQ(events(d, "X").size(), 5u);
  EXPECT_EQ(d["otherData"]["cut"], true);
  EXPECT_NE(d["otherData"]["message"].get<std::string>().find("NPUSIM_OP_INSTR_BUDGET"),
            std::string::npos);
  ASSERT_EQ(events(d, "i").size(), 1u);
  // Without call sites, the source line is unknown.
  EXPECT_EQ(events(d, "X")[0]["args"]["code"], "??:0");
}

}  // namespace
}  // namespace npusim::models::testing
