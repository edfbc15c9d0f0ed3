// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "models/aicpu_config.h"
#include "models/chip_config_loader.h"
#include "models/presets.h"
#include "models/sdma_config.h"

namespace npusim::models {
namespace {

namespace fs = std::filesystem;
using sim::ConfigError;

std::string dump(ChipConfig c) { return sim::dump_yaml(c); }

/// A fresh directory for config files, removed at the end of the test.
class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("npusim_cfg_" + std::string(info->name()) + "_" +
                                        std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }

  std::string load_error(const std::string& source, const std::vector<std::string>& overrides = {}) {
    try {
      load_chip_config(source, overrides);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return {};
  }

  fs::path dir_;
};

/// Sets every field to an odd value; Unset then finds fields a document did not set.
class Poison final : public sim::FieldVisitor {
 public:
  void on(const char*, std::int64_t& v, const char*, const sim::Rule&) override { v = -777; }
  void on(const char*, double& v, const char*, const sim::Rule&) override { v = -777; }
  void on(const char*, bool&, const char*, const sim::Rule&) override {}
  void on(const char*, std::string& v, const char*, const sim::Rule&) override { v = "poison"; }
  void on(const char*, sim::Bytes& v, const char*, const sim::Rule&) override { v.value = 777; }
  void on(const char*, sim::Bandwidth& v, const char*, const sim::Rule&) override { v.bytes_per_sec = 777; }
  void on(const char*, sim::Duration& v, const char*, const sim::Rule&) override { v.ps = 777; }
  void on(const char*, sim::Frequency& v, const char*, const sim::Rule&) override { v.hz = 777; }
  void begin_group(const char*, const char*) override {}
  void end_group() override {}
};

class Unset final : public sim::FieldVisitor {
 public:
  std::vector<std::string> keys;
  void on(const char* k, std::int64_t& v, const char*, const sim::Rule&) override { check(k, v == -777); }
  void on(const char* k, double& v, const char*, const sim::Rule&) override { check(k, v == -777); }
  void on(const char*, bool&, const char*, const sim::Rule&) override {}
  void on(const char* k, std::string& v, const char*, const sim::Rule&) override { check(k, v == "poison"); }
  void on(const char* k, sim::Bytes& v, const char*, const sim::Rule&) override { check(k, v.value == 777); }
  void on(const char* k, sim::Bandwidth& v, const char*, const sim::Rule&) override { check(k, v.bytes_per_sec == 777); }
  void on(const char* k, sim::Duration& v, const char*, const sim::Rule&) override { check(k, v.ps == 777); }
  void on(const char* k, sim::Frequency& v, const char*, const sim::Rule&) override { check(k, v.hz == 777); }
  void begin_group(const char*, const char*) override {}
  void end_group() override {}

 private:
  void check(const char* k, bool unset) {
    if (unset) keys.emplace_back(k);
  }
};

TEST(ChipConfig, PresetNames) { EXPECT_EQ(preset_names(), "ascend910b, ascend310p, tiny"); }

TEST(ChipConfig, EveryPresetLoadsAndSetsEveryKey) {
  ASSERT_EQ(presets().size(), 3u);
  for (const Preset& p : presets()) {
    EXPECT_NO_THROW(load_chip_config(p.name, {})) << p.name;
    ChipConfig c;
    Poison poison;
    c.visit(poison);
    sim::apply_yaml(c, p.yaml, p.name, {"base"});
    Unset unset;
    c.visit(unset);
    EXPECT_TRUE(unset.keys.empty()) << p.name << " leaves keys implicit, e.g. " << unset.keys[0];
  }
}

TEST(ChipConfig, DefaultStructIsTheAscend910bPreset) {
  EXPECT_EQ(dump(ChipConfig{}), dump(load_chip_config("ascend910b", {})));
  EXPECT_EQ(dump(ChipConfig{}), dump(load_chip_config("", {})));
}

TEST(ChipConfig, PresetFilesOnDiskMatchTheEmbeddedPresets) {
  for (const Preset& p : presets()) {
    std::string path = std::string(NPUSIM_SOURCE_DIR) + "/configs/" + p.name + ".yaml";
    EXPECT_EQ(dump(load_chip_config(path, {})), dump(load_chip_config(p.name, {}))) << path;
  }
}

TEST(ChipConfig, PresetFigures) {
  ChipConfig b = load_chip_config("ascend910b", {});
  EXPECT_EQ(b.soc.name, "Ascend910B2");
  EXPECT_EQ(b.aicore.cube_cores, 24);
  EXPECT_EQ(b.hbm.size.value, 64ull << 30);

  ChipConfig p = load_chip_config("ascend310p", {});
  EXPECT_EQ(p.soc.name, "Ascend310P3");
  EXPECT_EQ(p.soc.npu_arch, 2002);
  EXPECT_EQ(p.aicore.cube_cores, 8);
  EXPECT_EQ(p.aicore.vector_cores, 7);
  EXPECT_EQ(p.aicore.frequency.hz, 1.06e9);
  EXPECT_EQ(p.hbm.size.value, 24000000000ull);
  EXPECT_EQ(p.hbm.bandwidth.bytes_per_sec, 204.8e9);
  EXPECT_EQ(p.l2.size.value, 16ull << 20);
  EXPECT_EQ(p.scheduler.max_streams, 1024);
  EXPECT_EQ(p.scheduler.max_events, 1023);
  EXPECT_EQ(p.aicore.l0c.value, 256u * 1024);
  EXPECT_EQ(p.aicore.l1.value, 1u << 20);
  EXPECT_EQ(p.aicore.ub.value, 256u * 1024);
  EXPECT_EQ(p.unit<AiCpuConfig>().cores, 7);

  ChipConfig t = load_chip_config("tiny", {});
  EXPECT_EQ(t.aicore.cube_cores, 2);
  EXPECT_EQ(t.aicore.vector_cores, 4);
  EXPECT_EQ(t.hbm.size.value, 1ull << 30);
  EXPECT_EQ(t.pcie.h2d_bandwidth.transfer_time(1024) + t.pcie.latency.ps, 1102400u);
  EXPECT_EQ(t.pcie.burst.value, 65536u);
  EXPECT_EQ(t.scheduler.doorbell.ps, 100 * sim::kNs);
  EXPECT_EQ(t.host.launch_call.ps, sim::kUs);
  EXPECT_EQ(t.host.api_call.ps, 100 * sim::kNs);
}

TEST_F(ConfigFiles, FileWithBasePresetAndOverrides) {
  std::string f = write("exp.yaml", "base: tiny\npcie:\n  latency: 2us\n");
  ChipConfig c = load_chip_config(f, {"pcie.h2d_bandwidth=16GB/s", "soc.num_devices=2"});
  EXPECT_EQ(c.pcie.latency.ps, 2 * sim::kUs);
  EXPECT_EQ(c.pcie.h2d_bandwidth.bytes_per_sec, 16e9);
  EXPECT_EQ(c.soc.num_devices, 2);
  EXPECT_EQ(c.aicore.cube_cores, 2);  // from tiny
}

TEST_F(ConfigFiles, FileWithoutBaseStartsFromTheDefault) {
  std::string f = write("plain.yml", "aicpu:\n  cores: 3\n");
  ChipConfig c = load_chip_config(f, {});
  EXPECT_EQ(c.unit<AiCpuConfig>().cores, 3);
  EXPECT_EQ(c.aicore.cube_cores, 24);
}

TEST_F(ConfigFiles, BaseChainsResolveRelativeToTheIncludingFile) {
  std::string a = write("a.yaml", "base: sub/b.yaml\naicpu:\n  cores: 1\n");
  write("sub/b.yaml", "base: c.yaml\naicpu:\n  cores: 2\nsdma:\n  channels: 3\n");
  write("sub/c.yaml", "base: ascend310p\nsdma:\n  channels: 9\nl2:\n  size: 8MiB\n");
  ChipConfig c = load_chip_config(a, {});
  EXPECT_EQ(c.unit<AiCpuConfig>().cores, 1);             // a over b
  EXPECT_EQ(c.unit<SdmaConfig>().channels, 3);           // b over c
  EXPECT_EQ(c.l2.size.value, 8u << 20);    // c over ascend310p
  EXPECT_EQ(c.soc.name, "Ascend310P3");    // from the preset at the end of the chain
}

TEST_F(ConfigFiles, BaseCyclesAreErrors) {
  std::string a = write("a.yaml", "base: b.yaml\n");
  write("b.yaml", "aicpu:\n  cores: 1\nbase: ./a.yaml\n");
  std::string e = load_error(a);
  EXPECT_NE(e.find("b.yaml:3: base: cycle of bases: "), std::string::npos) << e;
  EXPECT_NE(e.find("a.yaml -> "), std::string::npos) << e;

  std::string self = write("self.yaml", "base: self.yaml\n");
  EXPECT_NE(load_error(self).find("cycle of bases"), std::string::npos);
}

TEST_F(ConfigFiles, MissingFileOrPreset) {
  EXPECT_EQ(load_error("ascend911"),
            "ascend911: no such file or preset (presets: ascend910b, ascend310p, tiny)");
  std::string missing = (dir_ / "nope.yaml").string();
  EXPECT_EQ(load_error(missing),
            missing + ": no such file or preset (presets: ascend910b, ascend310p, tiny)");
  std::string a = write("a.yaml", "# comment\nbase: gone.yaml\n");
  EXPECT_EQ(load_error(a), a + ":2: base: " + (dir_ / "gone.yaml").string() +
                               ": no such file or preset (presets: ascend910b, ascend310p, tiny)");
  EXPECT_NE(load_error(dir_.string()).find("not a file"), std::string::npos);
}

TEST_F(ConfigFiles, ErrorsInsideABaseNameTheBaseFile) {
  std::string a = write("a.yaml", "base: b.yaml\n");
  std::string b = write("b.yaml", "pcie:\n  h2d_bandwidth: fast\n");
  EXPECT_EQ(load_error(a),
            b + ":2: pcie.h2d_bandwidth: expected a bandwidth such as 25GB/s, got \"fast\"");
}

TEST_F(ConfigFiles, UnknownKeyInAFile) {
  std::string f = write("x.yaml", "pcie:\n  h2d_bandwith: 16GB/s\n");
  EXPECT_EQ(load_error(f),
            f + ":2: pcie.h2d_bandwith: unknown key (did you mean \"pcie.h2d_bandwidth\"?)");
}

TEST_F(ConfigFiles, OverrideErrorsNameTheirOrigin) {
  try {
    load_chip_config("tiny", {"pcie.latncy=1us"}, "NPUSIM_SET");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "NPUSIM_SET: pcie.latncy: unknown key (did you mean \"pcie.latency\"?)");
  }
}

TEST_F(ConfigFiles, RangeValidation) {
  auto expect = [&](const std::string& set, const std::string& message) {
    std::string e = load_error("tiny", {set});
    EXPECT_EQ(e, "preset:tiny + override: " + message) << set;
  };
  expect("soc.num_devices=0", "soc.num_devices: must be between 1 and 16, got 0");
  expect("soc.num_devices=17", "soc.num_devices: must be between 1 and 16, got 17");
  expect("sdma.channels=0", "sdma.channels: must be between 1 and 64, got 0");
  expect("pcie.dma_channels=0", "pcie.dma_channels: must be between 1 and 64, got 0");
  expect("aicore.cube_cores=0", "aicore.cube_cores: must be between 1 and 1024, got 0");
  expect("aicore.vector_cores=-1", "aicore.vector_cores: must be between 0 and 2048, got -1");
  expect("scheduler.policy=round_robin",
         "scheduler.policy: expected priority, fifo or prema, got \"round_robin\"");
  expect("scheduler.preemption=pause",
         "scheduler.preemption: expected none, drain, checkpoint, kill or dynamic, got \"pause\"");
  expect("pcie.h2d_bandwidth=0GB/s", "pcie.h2d_bandwidth: must be greater than 0, got 0B/s");
  expect("aicore.frequency=0Hz", "aicore.frequency: must be greater than 0, got 0Hz");
  expect("hbm.size=0", "hbm.size: must be greater than 0, got 0B");
  expect("soc.version=8.5", "soc.version: expected a version x.y.z such as 8.5.0, got \"8.5\"");
  expect("l2.read_hit_rate=1.5", "l2.read_hit_rate: must be between 0 and 1, got 1.5");
  expect("l2.line_size=384B", "l2.line_size: must be a power of two, got 384");
  expect("l2.sector_size=32B",
         "l2.sector_size: must be a power of two dividing line_size (512) into 1 to 8 sectors, "
         "got 32");
  expect("l2.size=1001KiB", "l2.size: must be a non-zero multiple of line_size x ways (8192 B), "
                            "got 1025024");
  expect("hbm.efficiency=1.2", "hbm.efficiency: must be between 0.05 and 1, got 1.2");
  expect("dvpp.vdec.frame_overhead=1ms",
         "dvpp.vdec.frame_overhead: must be below 1 / fps (1000.000000 us), got 1000.000000 us");
  expect("aicore.mte2_bytes_per_cycle=0",
         "aicore.mte2_bytes_per_cycle: must be greater than 0, got 0");
  expect("aicore.scalar_cycles_per_bb=-1",
         "aicore.scalar_cycles_per_bb: must not be negative, got -1");
  // Each key's range is declared with it (chip_config.h), in the key's unit.
  expect("aicore.ub=5GiB", "aicore.ub: must be between 1B and 4294967295B, got 5GiB");
  expect("soc.npu_arch=1234",
         "soc.npu_arch: unknown NPU architecture 1234; known: 1001 (Ascend910), 2002 (Ascend310P), "
         "2201 (Ascend910B), 3002 (Ascend310B), 3510 (Ascend950)");
  expect("topology.links=0-0", "topology.links: expected full_mesh, none or pairs of different "
                               "device indices such as \"0-1,2-3\", got \"0-0\"");
  expect("topology.link=nvlink", "topology.link: expected hccs or pcie, got \"nvlink\"");
  EXPECT_EQ(load_error("tiny", {"topology.links=0-3"}),
            "preset:tiny + override: topology.links: device 3 does not exist (soc.num_devices is 1)");
  EXPECT_EQ(load_error("tiny", {"scheduler.policy=fifo", "soc.num_devices=16"}), "");
  EXPECT_EQ(load_error("tiny", {"soc.num_devices=4", "topology.links=0-1,1-3"}), "");
}

TEST(ChipConfig, ReferenceShowsEachKeysRange) {
  ChipConfig c;
  const std::string ref = sim::reference(c);
  auto row = [&ref](const std::string& key) {
    const std::size_t at = ref.find("\n" + key + " ");
    return at == std::string::npos ? std::string() : ref.substr(at + 1, ref.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(row("soc.num_devices").find(" 1..16 "), std::string::npos) << row("soc.num_devices");
  EXPECT_NE(row("scheduler.policy").find(" priority|fifo|prema "), std::string::npos);
  EXPECT_NE(row("aicore.ub").find(" 1B..4294967295B "), std::string::npos) << row("aicore.ub");
  EXPECT_NE(row("pcie.h2d_bandwidth").find(" > 0B/s "), std::string::npos)
      << row("pcie.h2d_bandwidth");
  EXPECT_NE(ref.find("RANGE"), std::string::npos);
}

TEST(ChipConfig, SplitOverrides) {
  EXPECT_EQ(split_overrides(" a.b=1; c.d = 2 \n\n e=3;;"),
            (std::vector<std::string>{"a.b=1", "c.d = 2", "e=3"}));
  EXPECT_TRUE(split_overrides("").empty());
  EXPECT_TRUE(split_overrides(" ; \n ").empty());
}

TEST(ChipConfig, FromEnvironment) {
  ::setenv("NPUSIM_CONFIG", "tiny", 1);
  ::setenv("NPUSIM_SET", "pcie.h2d_bandwidth=16GB/s; sdma.channels=3", 1);
  ChipConfig c = config_from_env();
  EXPECT_EQ(c.soc.name, "TinyNPU");
  EXPECT_EQ(c.pcie.h2d_bandwidth.bytes_per_sec, 16e9);
  EXPECT_EQ(c.unit<SdmaConfig>().channels, 3);
  EXPECT_EQ(config_origin_from_env(),
            "preset tiny + overrides: pcie.h2d_bandwidth=16GB/s sdma.channels=3");
  ::setenv("NPUSIM_SET", "sdma.chanels=3", 1);
  try {
    config_from_env();
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "NPUSIM_SET: sdma.chanels: unknown key (did you mean \"sdma.channels\"?)");
  }
  ::unsetenv("NPUSIM_CONFIG");
  ::unsetenv("NPUSIM_SET");
  EXPECT_EQ(dump(config_from_env()), dump(ChipConfig{}));
  EXPECT_EQ(config_origin_from_env(), "preset ascend910b");
}

TEST_F(ConfigFiles, EffectiveConfigReloads) {
  ChipConfig c = load_chip_config("ascend310p", {"pcie.latency=3us", "soc.name=\"My Chip: 1\""});
  std::string text = effective_config_yaml(c, "preset ascend310p + overrides");
  EXPECT_EQ(text.rfind("# npusim effective chip configuration\n# source: preset ascend310p", 0), 0u);
  std::string f = write("effective.yaml", text);
  EXPECT_EQ(dump(load_chip_config(f, {})), dump(c));
}

TEST(ChipConfig, ReferenceCoversEveryKey) {
  ChipConfig c;
  std::string ref = sim::reference(c);
  for (const char* key : {"soc.name", "host.launch_call", "pcie.h2d_bandwidth", "pcie.burst",
                          "hbm.bandwidth", "l2.size", "sdma.channels", "scheduler.policy",
                          "aicore.frequency", "aicpu.cores"}) {
    EXPECT_NE(ref.find("\n" + std::string(key) + " "), std::string::npos) << key;
  }
  EXPECT_NE(ref.find("25.6GB/s"), std::string::npos);
  EXPECT_NE(ref.find("host-to-device link bandwidth (per direction)"), std::string::npos);
}

}  // namespace
}  // namespace npusim::models
