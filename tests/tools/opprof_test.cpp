// SPDX-License-Identifier: Apache-2.0
// msopprof / msprof op (tools/opprof): op_profile.json to msprof's per-kernel CSV files, the run
// folder's name, --soc-version, --application and --kernel-name.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "tools/opprof/opprof.h"

namespace npusim::opprof {
namespace {

namespace fs = std::filesystem;

// One AIV block of a vector add at 1 GHz (the numbers of OpProfile.VectorAddBlockHasExactCounters,
// tests/models/op_profile_test.cpp): 328 cycles, MTE2 168, V 28, MTE3 52, S 8.
const char* const kProfile = R"({"format": "npusim-op-profile", "version": 1, "soc": "Ascend910B2",
 "frequency_hz": 1e9, "cube_cores": 24, "vector_cores": 48, "coupled": false,
 "kernels": [
  {"launch": 0, "name": "add_custom", "op_type": "add_custom", "task_type": "AI_VECTOR_CORE",
   "device": 0, "stream": 1, "task_id": 3, "block_dim": 1, "mix_block_dim": 0,
   "start_ps": 700000, "end_ps": 3328000, "error": 0,
   "blocks": [{"block": 0, "core": "AIV 0", "vector": true, "start_ps": 2700000, "end_ps": 3028000,
     "busy_ps": {"S": 8000, "V": 28000, "MTE2": 168000, "MTE3": 52000},
     "instrs": {"S": 0, "V": 2, "MTE2": 4, "MTE3": 2},
     "l2": {"MTE2": [1024, 3072, 0, 0], "MTE3": [0, 0, 512, 1536]},
     "moved": {"GM->UB": 4096, "UB->GM": 2048}, "read": {"GM": 4096, "UB": 6144},
     "written": {"GM": 2048, "UB": 6144},
     "cube_cycles": {}, "cube_instrs": {}, "vec_cycles": {"fp16": 28}, "vec_instrs": {"fp16": 2},
     "cube_fops": 0, "vec_fops": 1024, "vec_ub_read": 4096, "vec_ub_write": 2048,
     "scalar_ub_read": 0, "scalar_ub_write": 0}]},
  {"launch": 1, "name": "mul_custom", "op_type": "mul_custom", "task_type": "MIX_AIC",
   "device": 0, "stream": 1, "task_id": 4, "block_dim": 1, "mix_block_dim": 2,
   "start_ps": 4000000, "end_ps": 5000000, "error": 0,
   "blocks": [{"block": 0, "core": "AIC 0", "vector": false, "start_ps": 4100000, "end_ps": 4600000,
     "busy_ps": {"M": 100000}, "cube_cycles": {"fp16": 100}, "cube_instrs": {"fp16": 1},
     "cube_fops": 1000, "read": {"L0A": 5000}, "written": {"L0C": 2000}},
    {"block": 0, "core": "AIV 0", "vector": true, "start_ps": 4100000, "end_ps": 4600000,
     "busy_ps": {"V": 50000}}]}]})";

std::string line(const std::string& csv, int n) {
  std::istringstream in(csv);
  std::string l;
  for (int i = 0; i <= n; ++i) std::getline(in, l);
  return l;
}

TEST(Opprof, OpBasicInfo) {
  const auto files = launch_files(kProfile, 0);
  EXPECT_EQ(files.at("OpBasicInfo.csv"),
            "Op Name,Op Type,Task Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,"
            "Current Freq,Rated Freq,Soc Version\n"
            "add_custom,add_custom,AI_VECTOR_CORE,2.628,1,N/A,0,N/A,1000,1000,Ascend910B2\n");
  EXPECT_EQ(line(launch_files(kProfile, 1).at("OpBasicInfo.csv"), 1).substr(0, 45),
            "mul_custom,mul_custom,MIX_AIC,1.000,1,2,0,N/A");
}

TEST(Opprof, PipeUtilizationHasTheBlocksPipeTimes) {
  const std::string csv = launch_files(kProfile, 0).at("PipeUtilization.csv");
  EXPECT_EQ(line(csv, 0),
            "block_id,sub_block_id,aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles,"
            "aic_cube_time(us),aic_cube_ratio,aic_scalar_time(us),aic_scalar_ratio,"
            "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_mte3_time(us),"
            "aic_mte3_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aiv_vec_time(us),aiv_vec_ratio,"
            "aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,"
            "aiv_mte3_time(us),aiv_mte3_ratio");
  EXPECT_EQ(line(csv, 1),
            "0,vector0,N/A,N/A,0.328,328,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
            "0.028,0.085366,0.008,0.024390,0.168,0.512195,0.052,0.158537");
  EXPECT_EQ(line(csv, 2), "");
  // A MIX block: a cube row and a vector row.
  const std::string mix = launch_files(kProfile, 1).at("PipeUtilization.csv");
  EXPECT_EQ(line(mix, 1).substr(0, 38), "0,cube0,0.500,500,N/A,N/A,0.100,0.2000");
  EXPECT_EQ(line(mix, 2).substr(0, 27), "0,vector0,N/A,N/A,0.500,500");
}

TEST(Opprof, ArithmeticUtilizationByType) {
  const std::string csv = launch_files(kProfile, 0).at("ArithmeticUtilization.csv");
  EXPECT_NE(line(csv, 0).find("aiv_vec_ratio,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,"),
            std::string::npos);
  // 28 of 328 cycles are FP16 vector instructions.
  EXPECT_NE(line(csv, 1).find(",0.085366,0.000000,0.085366,0.000000,0.000000,0.000000,1024"),
            std::string::npos)
      << csv;
  const std::string mix = launch_files(kProfile, 1).at("ArithmeticUtilization.csv");
  EXPECT_EQ(line(mix, 1).substr(0, 62),
            "0,cube0,0.500,500,N/A,N/A,0.200000,0.200000,0.000000,0.000000,");
}

TEST(Opprof, L2CacheRatesFromBytes) {
  const std::string csv = launch_files(kProfile, 0).at("L2Cache.csv");
  const std::string head = line(csv, 0);
  EXPECT_NE(head.find("aiv_write_cache_hit(B),aiv_write_cache_miss_allocate(B),"
                      "aiv_read_cache_hit(B),aiv_read_cache_miss_allocate(B),"
                      "aiv_write_hit_rate(%),aiv_read_hit_rate(%),aiv_total_hit_rate(%)"),
            std::string::npos);
  // Reads 1024 hit of 4096; writes 512 of 2048; total 1536 of 6144.
  EXPECT_NE(line(csv, 1).find(",512,1536,1024,3072,25.000,25.000,25.000,25.000,N/A,25.000,N/A"),
            std::string::npos)
      << csv;
}

TEST(Opprof, MemoryBandwidthsAreBytesOverTheBlocksTime) {
  const std::string csv = launch_files(kProfile, 0).at("Memory.csv");
  // UB->GM 2048 B and GM->UB 4096 B in 328 ns.
  EXPECT_EQ(line(csv, 1).substr(0, 45), "0,vector0,N/A,N/A,0.328,328,6.244,12.488,N/A,");
  EXPECT_NE(line(csv, 0).find("GM_to_UB_datas(KB),UB_to_GM_datas(KB)"), std::string::npos);
  EXPECT_NE(line(csv, 1).find(",4.000,2.000,0.000,6.000,6.000,0.000,0.000"), std::string::npos)
      << csv;
  const std::string l0 = launch_files(kProfile, 1).at("MemoryL0.csv");
  EXPECT_EQ(line(l0, 1).substr(0, 45), "0,cube0,0.500,500,N/A,N/A,10.000,0.000,0.000,");
  const std::string ub = launch_files(kProfile, 0).at("MemoryUB.csv");
  EXPECT_EQ(line(ub, 1).substr(0, 45), "0,vector0,N/A,N/A,0.328,328,12.488,6.244,0.00");
}

TEST(Opprof, ResourceConflictRatioIsNotModelled) {
  const std::string csv = launch_files(kProfile, 0).at("ResourceConflictRatio.csv");
  EXPECT_NE(line(csv, 0).find("aiv_vec_bankgroup_cflt_ratio,aiv_vec_bank_cflt_ratio"),
            std::string::npos);
  EXPECT_EQ(line(csv, 1),
            "0,vector0,N/A,N/A,0.328,328,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A");
}

TEST(Opprof, BadProfileAndLaunchAreErrors) {
  EXPECT_THROW(launch_files(kProfile, 7), std::runtime_error);
  EXPECT_THROW(launch_files("{\"format\": \"other\"}", 0), std::runtime_error);
  EXPECT_ANY_THROW(launch_files("not json", 0));
}

TEST(Opprof, RunFolderNameSocAndCommandLine) {
  EXPECT_EQ(run_dir_name(0, 0x1234), "OPPROF_19700101000000_001234");
  EXPECT_EQ(run_dir_name(1765152000, 0x7abcdef), "OPPROF_20251208000000_abcdef");
  std::string preset, error;
  EXPECT_TRUE(preset_of_soc("Ascend910B3", preset, error));
  EXPECT_EQ(preset, "ascend910b");
  EXPECT_TRUE(preset_of_soc("Ascend310P3", preset, error));
  EXPECT_EQ(preset, "ascend310p");
  EXPECT_FALSE(preset_of_soc("Ascend950PR", preset, error));
  EXPECT_NE(error.find("Ascend950PR"), std::string::npos);
  std::vector<std::string> words;
  ASSERT_TRUE(split_command("./demo  --n 3 'a b' \"c\"", words, error));
  EXPECT_EQ(words, (std::vector<std::string>{"./demo", "--n", "3", "a b", "c"}));
  EXPECT_FALSE(split_command("./demo 'open", words, error));
  EXPECT_FALSE(split_command("   ", words, error));
  EXPECT_TRUE(kernel_matches("", "add_custom"));
  EXPECT_TRUE(kernel_matches("add", "add_custom"));
  EXPECT_FALSE(kernel_matches("custom", "add_custom"));
  EXPECT_TRUE(kernel_matches("*custom", "add_custom"));
  EXPECT_FALSE(kernel_matches("mul*", "add_custom"));
}

TEST(Opprof, WriteRunSelectsLaunchesAndWritesEveryFile) {
  const fs::path dir = fs::temp_directory_path() / ("npusim_opprof_run_" + std::to_string(getpid()));
  fs::create_directories(dir / "dump");
  std::ofstream(dir / "dump" / "op_profile.json") << kProfile;
  std::ostringstream err;
  Options o;
  ASSERT_EQ(write_run(dir.string(), o, err), 0) << err.str();
  for (const char* f : {"OpBasicInfo.csv", "PipeUtilization.csv", "ArithmeticUtilization.csv",
                        "L2Cache.csv", "Memory.csv", "MemoryL0.csv", "MemoryUB.csv",
                        "ResourceConflictRatio.csv"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  }
  o.launch_count = 2;
  ASSERT_EQ(write_run(dir.string(), o, err), 0) << err.str();
  EXPECT_TRUE(fs::exists(dir / "0_add_custom" / "L2Cache.csv"));
  EXPECT_TRUE(fs::exists(dir / "1_mul_custom" / "MemoryL0.csv"));
  o.kernel_name = "nothing";
  EXPECT_EQ(write_run(dir.string(), o, err), 1);
  EXPECT_NE(err.str().find("--kernel-name=nothing"), std::string::npos);
  fs::remove_all(dir);
  EXPECT_EQ(write_run(dir.string(), o, err), 1);
  EXPECT_NE(err.str().find("op_profile.json"), std::string::npos);
}

}  // namespace
}  // namespace npusim::opprof
