// SPDX-License-Identifier: Apache-2.0
// The one place units are registered: every chip builds these, in this order (models/unit.h).
#include <iterator>

#include "models/aicore/aicore_engine.h"
#include "models/added_specs.h"
#include "models/aicpu.h"
#include "models/dsa_engine.h"
#include "models/dvpp.h"
#include "models/hccs_link.h"
#include "models/host_cpu.h"
#include "models/host_link.h"
#include "models/sdma_engine.h"
#include "models/sync_tasks.h"
#include "models/unit.h"

namespace npusim::models {
namespace {

const UnitSpec kBuiltinUnits[] = {
    {"pcie", make_unit<HostLink>},
    {"sdma", make_unit<SdmaEngine>},
    {"host_cpu", make_unit<HostCpu>},
    {"sync_tasks", make_unit<SyncTasks>},
    {"aicore", make_unit<AiCoreEngine>},
    {"dsa", make_unit<DsaEngine>},
    {"aicpu", make_unit<AiCpu>},
    {"hccs", make_unit<HccsLink>},
    {"dvpp", make_unit<Dvpp>},
};

}  // namespace

std::vector<UnitSpec> unit_specs() {
  const std::vector<UnitSpec> builtin(std::begin(kBuiltinUnits), std::end(kBuiltinUnits));
  return AddedSpecs<UnitSpec>::instance().after(builtin);
}

void add_unit(UnitSpec spec) {
  AddedSpecs<UnitSpec>::instance().add(spec);
}

}  // namespace npusim::models
