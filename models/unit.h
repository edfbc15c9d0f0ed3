// SPDX-License-Identifier: Apache-2.0
// Units: how a chip is assembled from parts that say what they serve.
//
// A unit is a class with a constructor (const sc_module_name&, UnitContext&). In it the unit
// binds to the chip's memory (ctx.hbm / ctx.l2), declares its timeline tracks (ctx.tracks), its
// statistics (ctx.stats, the group "chip<N>.<unit name>"), and claims the tasks its engines
// execute (ctx.routes.claim). Nothing else in the models or the runtime names it. The built-in
// units are listed once, in models/units.cpp; add_unit() adds more (tests, plug-ins) before a
// chip is built. A unit owns the rest too: its configuration group (models/unit_config.h,
// registered in models/unit_configs.cpp or by add_unit_config()), the payload type its tasks
// carry (Task::payload, read with payload.get<T>()), and a TaskKind >= kFirstUnitKind when it
// executes a new kind of task. Adding a unit = its .h/.cpp, its test, one line in units.cpp (and
// one in unit_configs.cpp when it has configuration keys).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/aicore/op_summary.h"
#include "models/chip_config.h"
#include "models/engine.h"
#include "sim/stats.h"
#include "sim/tracks.h"

namespace npusim::models {

class Hbm;
class Interconnect;
class L2Cache;

/// Where a unit claims the tasks it executes (the task scheduler).
class Routes {
 public:
  virtual ~Routes() = default;
  /// `engine` executes tasks of `kind` going `direction`. `name` is the engine's name in the
  /// scheduler's statistics ("sdma"); one engine may claim several routes under one name.
  /// Contract: each (kind, direction) is claimed once (std::logic_error otherwise).
  virtual void claim(TaskKind kind, Direction direction, TaskEngine& engine,
                     const std::string& name) = 0;
  /// The same for every direction.
  void claim(TaskKind kind, TaskEngine& engine, const std::string& name) {
    for (int d = 0; d < kDirections; ++d) claim(kind, static_cast<Direction>(d), engine, name);
  }
};

/// What a unit gets from the chip that builds it.
struct UnitContext {
  std::uint32_t device;
  const ChipConfig& cfg;
  sim::StatGroup& stats;    // the unit's own group: chip<N>.<unit name>
  sim::TrackGroup& tracks;  // the chip's unit tracks ("NPU <N> Units")
  Hbm& hbm;                 // device memory (TLM target)
  L2Cache& l2;              // the L2 in front of it (TLM target of the AI Cores)
  Routes& routes;           // claim the tasks the unit executes
  /// What the chips of the system share (root complex, chip-to-chip links, the other chips'
  /// memory; models/interconnect.h); nullptr for a chip built on its own.
  Interconnect* fabric;
};

/// Base of every unit (ownership only; units are usually SystemC modules too).
class Unit {
 public:
  virtual ~Unit() = default;
  /// Units whose tasks are rows of op_summary.csv (AI Core, AI CPU, DVPP) keep a KernelRecord of
  /// every task that finishes while `on` (the runtime turns it on only when it writes the file).
  virtual void keep_records(bool on) { (void)on; }
  /// Units that run kernel blocks (AI Core) also keep per-block profiles in those records
  /// (KernelRecord::blocks, for msprof op) while `on`.
  virtual void keep_block_profiles(bool on) { (void)on; }
  /// Appends the records kept, in completion order.
  virtual void append_records(std::vector<KernelRecord>& out) const { (void)out; }
};

using UnitFactory = std::unique_ptr<Unit> (*)(const char* name, UnitContext& ctx);

struct UnitSpec {
  const char* name;  // SystemC name and stats group ("sdma")
  UnitFactory make;
};

/// The factory of a unit class T with a constructor (const sc_module_name&, UnitContext&).
template <class T>
std::unique_ptr<Unit> make_unit(const char* name, UnitContext& ctx) {
  return std::make_unique<T>(name, ctx);
}

/// The units a chip builds, in this order: the built-in list (units.cpp), then add_unit()'s.
std::vector<UnitSpec> unit_specs();
/// Adds a unit to every chip built afterwards in this process.
void add_unit(UnitSpec spec);

}  // namespace npusim::models
