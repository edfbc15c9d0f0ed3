// SPDX-License-Identifier: Apache-2.0
// A unit owns its configuration keys and its task payload: a test-only unit, defined and
// registered here alone (no other source file, config header or preset names it), declares its
// keys beside itself, parses them from YAML (defaults for what a document omits, unknown keys
// rejected), claims a TaskKind of its own and times its tasks from its configuration and the
// payload they carry.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "models/chip_config_loader.h"
#include "models/unit.h"
#include "models/unit_config.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr auto kMetronomeKind = static_cast<TaskKind>(kFirstUnitKind + 9);

/// The unit's keys (metronome.*).
struct MetronomeConfig {
  static constexpr const char* kGroup = "metronome";
  static constexpr const char* kDescription = "test-only unit: ticks a task's beats";

  Duration setup{1 * kUs};
  Duration beat{250 * kNs};
  std::int64_t max_beats = 64;

  template <class V>
  void visit(V& v) {
    v.field("setup", setup, "fixed time of every task");
    v.field("beat", beat, "time of one beat");
    v.field("max_beats", max_beats, "beats a task may ask for", sim::range(1, 1024));
  }
  /// A cross-key rule: a task of max_beats must end within 1 ms.
  void check(const std::string& origin) const {
    if (setup.ps + beat.ps * static_cast<SimTime>(max_beats) <= sim::kMs) return;
    throw sim::ConfigError(origin + ": metronome.max_beats: setup + max_beats x beat over 1 ms");
  }
};

/// What a metronome task carries.
struct MetronomeWork {
  std::uint32_t beats = 0;
};

/// Closed form: setup + beats x beat (beats capped at max_beats; a task without a payload of
/// this type: setup only).
class Metronome : public FixedTimeEngine, public Unit {
 public:
  Metronome(const char*, UnitContext& ctx) : cfg_(ctx.cfg.unit<MetronomeConfig>()) {
    ctx.routes.claim(kMetronomeKind, *this, "metronome");
  }
  const char* task_type(const Task&) const override { return "METRONOME_SQE"; }
  std::optional<SimTime> fixed_time(const Task& task) const override {
    const MetronomeWork* work = task.payload.get<MetronomeWork>();
    const std::int64_t beats = work ? std::min<std::int64_t>(work->beats, cfg_.max_beats) : 0;
    return cfg_.setup.ps + static_cast<SimTime>(beats) * cfg_.beat.ps;
  }

 private:
  MetronomeConfig cfg_;
};

/// A group that takes a core group's name.
struct ClashingConfig {
  static constexpr const char* kGroup = "pcie";
  static constexpr const char* kDescription = "";
  template <class V>
  void visit(V&) {}
};

/// Registers the unit and its keys once per process (tests may share one).
void register_metronome() {
  static const bool once = [] {
    add_unit_config(unit_config<MetronomeConfig>());
    add_unit({"metronome", make_unit<Metronome>});
    return true;
  }();
  (void)once;
}

/// A YAML file in the test's temporary directory.
std::string write_yaml(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& source, const std::vector<std::string>& overrides = {}) {
  try {
    load_chip_config(source, overrides);
  } catch (const sim::ConfigError& e) {
    return e.what();
  }
  return "";
}

Seen& tick(Bench& bench, std::uint32_t stream, std::optional<std::uint32_t> beats) {
  Task t;
  t.kind = kMetronomeKind;
  t.stream = stream;
  if (beats) t.payload = std::make_shared<const MetronomeWork>(MetronomeWork{*beats});
  return bench.submit(std::move(t));
}

TEST(UnitConfig, KeysParseFromYamlAndOmittedOnesKeepTheirDefaults) {
  register_metronome();
  const ChipConfig preset = load_chip_config("tiny", {});  // the preset never names the unit
  EXPECT_EQ(preset.unit<MetronomeConfig>().setup.ps, 1 * kUs);
  EXPECT_EQ(preset.unit<MetronomeConfig>().beat.ps, 250 * kNs);
  const std::string path = write_yaml("metronome.yaml", "base: tiny\nmetronome:\n  beat: 100ns\n");
  const ChipConfig c = load_chip_config(path, {"metronome.max_beats=8"});
  EXPECT_EQ(c.unit<MetronomeConfig>().beat.ps, 100 * kNs);
  EXPECT_EQ(c.unit<MetronomeConfig>().setup.ps, 1 * kUs);  // omitted: the default
  EXPECT_EQ(c.unit<MetronomeConfig>().max_beats, 8);
  std::remove(path.c_str());
}

TEST(UnitConfig, UnknownKeysBadValuesAndBrokenRulesAreErrors) {
  register_metronome();
  const std::string path = write_yaml("metronome_bad.yaml", "base: tiny\nmetronome:\n  tempo: 3\n");
  const std::string unknown = error_of(path);
  EXPECT_NE(unknown.find(path + ":3: metronome.tempo: unknown key"), std::string::npos) << unknown;
  std::remove(path.c_str());
  const std::string range = error_of("tiny", {"metronome.max_beats=0"});
  EXPECT_NE(range.find("metronome.max_beats"), std::string::npos) << range;
  const std::string unit = error_of("tiny", {"metronome.beat=fast"});
  EXPECT_NE(unit.find("metronome.beat: expected a duration"), std::string::npos) << unit;
  const std::string rule = error_of("tiny", {"metronome.beat=20us"});  // 64 x 20 us > 1 ms
  EXPECT_NE(rule.find("metronome.max_beats: setup + max_beats x beat over 1 ms"),
            std::string::npos) << rule;
}

TEST(UnitConfig, TheReferenceAndTheDumpListTheUnitsKeys) {
  register_metronome();
  ChipConfig c = load_chip_config("tiny", {"metronome.beat=125ns"});
  const std::string reference = sim::reference(c);
  EXPECT_NE(reference.find("metronome.beat"), std::string::npos);
  EXPECT_NE(reference.find("time of one beat"), std::string::npos);
  EXPECT_NE(reference.find("sdma.channels"), std::string::npos);  // built-in unit groups too
  const std::string dump = effective_config_yaml(c, "test");
  EXPECT_NE(dump.find("metronome:"), std::string::npos);
  const std::string path = write_yaml("metronome_dump.yaml", dump);
  EXPECT_EQ(load_chip_config(path, {}).unit<MetronomeConfig>().beat.ps, 125 * kNs);  // reloads
  std::remove(path.c_str());
}

TEST(UnitConfig, AGroupIsRegisteredOnce) {
  register_metronome();
  EXPECT_THROW(add_unit_config(unit_config<MetronomeConfig>()), std::logic_error);
  EXPECT_THROW(add_unit_config(unit_config<ClashingConfig>()), std::logic_error);
}

TEST(UnitConfig, TheUnitTimesItsTasksFromItsConfigAndItsPayload) {
  register_metronome();
  ChipConfig c = test_config();
  sim::apply_yaml(c, "metronome:\n  beat: 100ns\n  max_beats: 10\n", "test");
  Bench bench(c);
  Seen& five = tick(bench, 1, 5);
  Seen& capped = tick(bench, 2, 50);          // 10 beats at most
  Seen& bare = tick(bench, 3, std::nullopt);  // no payload: setup only
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // doorbell 500 ns + dispatch 200 ns; setup 1 us + beats x 100 ns; completion 300 ns.
  EXPECT_EQ(five.out.start, 700 * kNs);
  EXPECT_EQ(five.out.end, 700 * kNs + 1 * kUs + 5 * 100 * kNs + 300 * kNs);
  EXPECT_EQ(capped.out.end - capped.out.start, 1 * kUs + 10 * 100 * kNs + 300 * kNs);
  EXPECT_EQ(bare.out.end - bare.out.start, 1 * kUs + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.scheduler.engine_tasks.metronome"), 3.0);
}

TEST(TaskPayload, ATypedAccessorReturnsOnlyItsOwnType) {
  Task t;
  EXPECT_FALSE(t.payload);
  EXPECT_EQ(t.payload.get<MetronomeWork>(), nullptr);
  t.payload = std::make_shared<MetronomeWork>(MetronomeWork{7});
  ASSERT_NE(t.payload.get<MetronomeWork>(), nullptr);
  EXPECT_EQ(t.payload.get<MetronomeWork>()->beats, 7u);
  EXPECT_EQ(t.payload.get<MetronomeConfig>(), nullptr);  // another type: nothing
  EXPECT_EQ(t.payload.share<MetronomeConfig>(), nullptr);
  const std::shared_ptr<const MetronomeWork> kept = t.payload.share<MetronomeWork>();
  t = Task{};
  EXPECT_EQ(kept->beats, 7u);  // shared: outlives the task
}

}  // namespace
}  // namespace npusim::models::testing
