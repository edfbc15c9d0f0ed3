// SPDX-License-Identifier: Apache-2.0
// platform_ascendc::PlatformAscendC answered from the simulated chip (tiling/platform/
// platform_ascendc.h). Every query reads the configuration of the runtime in use at the time of
// the call (NPUSIM_CONFIG or the preset, before or after aclInit), so a tiling function sees the
// cores and buffers that the simulation will time. Queries are silent API calls: they cost no
// simulated host time and leave no timeline span.
#include "tiling/platform/platform_ascendc.h"

#include <set>
#include <string>

#include "models/chip_config.h"
#include "runtime/core/api_call.h"
#include "sim/log.h"

namespace platform_ascendc {
namespace {

using npusim::models::ChipConfig;

// The GM workspace the library APIs (Matmul's messages between cube and vector cores and the
// like) reserve: the 16 MiB CANN's operators reserve on Atlas A2/A3 (docs/kernels.md).
constexpr std::uint32_t kLibApiWorkspace = 16u << 20;

template <class T, class F>
T query(const char* name, T fallback, F&& body) {
  return npusim::rt::api_value<T>(name, npusim::rt::Needs::kNothing, fallback,
                                  [&](npusim::rt::Call& c) {
                                    c.set_silent(true);
                                    return body(c.config());
                                  });
}

bool split(const ChipConfig& cfg) { return cfg.generation().split_cores; }

std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

std::uint64_t mem_size(const ChipConfig& cfg, CoreMemType type) {
  switch (type) {
    case CoreMemType::L0_A: return cfg.aicore.l0a.value;
    case CoreMemType::L0_B: return cfg.aicore.l0b.value;
    case CoreMemType::L0_C: return cfg.aicore.l0c.value;
    case CoreMemType::L1: return cfg.aicore.l1.value;
    case CoreMemType::L2: return cfg.l2.size.value;
    case CoreMemType::UB: return cfg.aicore.ub.value;
    case CoreMemType::HBM: return cfg.hbm.size.value;
    case CoreMemType::FB: return 7 * 1024;  // the twin's fixpipe buffer (CoreBuffers)
    case CoreMemType::BT: return 1024;      // the twin's bias table (CoreBuffers)
    default: return 0;
  }
}

}  // namespace

uint32_t PlatformAscendC::GetCoreNum() const {
  return query<uint32_t>("PlatformAscendC::GetCoreNum", 0, [](const ChipConfig& c) {
    return u32(split(c) ? c.aicore.vector_cores : c.aicore.cube_cores);
  });
}

SocVersion PlatformAscendC::GetSocVersion() const {
  return query<SocVersion>("PlatformAscendC::GetSocVersion", SocVersion::RESERVED_VERSION,
                           [](const ChipConfig& c) {
                             switch (c.soc.npu_arch) {
                               case 1001: return SocVersion::ASCEND910;
                               case 2002: return SocVersion::ASCEND310P;
                               case 2201: return SocVersion::ASCEND910B;
                               case 3002: return SocVersion::ASCEND310B;
                               case 3510: return SocVersion::ASCEND950;
                               default: return SocVersion::RESERVED_VERSION;
                             }
                           });
}

NpuArch PlatformAscendC::GetCurNpuArch() const {
  return query<NpuArch>("PlatformAscendC::GetCurNpuArch", NpuArch::DAV_RESV,
                        [](const ChipConfig& c) { return static_cast<NpuArch>(c.soc.npu_arch); });
}

uint32_t PlatformAscendC::GetCoreNumAic() const {
  return query<uint32_t>("PlatformAscendC::GetCoreNumAic", 0,
                         [](const ChipConfig& c) { return u32(c.aicore.cube_cores); });
}

uint32_t PlatformAscendC::GetCoreNumAiv() const {
  return query<uint32_t>("PlatformAscendC::GetCoreNumAiv", 0, [](const ChipConfig& c) {
    return u32(split(c) ? c.aicore.vector_cores : c.aicore.cube_cores);
  });
}

uint32_t PlatformAscendC::GetCoreNumVector() const {
  return query<uint32_t>("PlatformAscendC::GetCoreNumVector", 0, [](const ChipConfig& c) {
    return u32(split(c) ? 0 : c.aicore.vector_cores);
  });
}

uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum,
                                            uint32_t aivCoreNum) const {
  // A pure cube or pure vector kernel runs one slice per block; a fused one groups each cube
  // core with its share of the vector cores, so a block takes that many slices.
  if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum < aicCoreNum) return sliceNum;
  const uint32_t per_block = aivCoreNum / aicCoreNum;
  return (sliceNum + per_block - 1) / per_block;
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  size = query<uint64_t>("PlatformAscendC::GetCoreMemSize", 0,
                         [&](const ChipConfig& c) { return mem_size(c, memType); });
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
  bwSize = query<uint64_t>("PlatformAscendC::GetCoreMemBw", 0, [&](const ChipConfig& c) {
    const double hz = c.aicore.frequency.hz;
    if (memType == CoreMemType::L2) return static_cast<uint64_t>(c.l2.bandwidth.bytes_per_sec / hz);
    if (memType == CoreMemType::HBM) return static_cast<uint64_t>(c.hbm.bandwidth.bytes_per_sec / hz);
    return uint64_t{0};
  });
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize() const { return kLibApiWorkspace; }

PlatformAscendC* PlatformAscendCManager::GetInstance() {
  static PlatformAscendC instance(nullptr);
  return &instance;
}

PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  if (customSocVersion == nullptr) return GetInstance();
  const std::string named(customSocVersion);
  // "<simulated SoC name>\n<its family>"
  const std::string chip = query<std::string>(
      "PlatformAscendCManager::GetInstance", std::string("\n"), [](const ChipConfig& c) {
        return c.soc.name + "\n" + c.generation().family;
      });
  const std::string ours = chip.substr(0, chip.find('\n'));
  const std::string family = chip.substr(chip.find('\n') + 1);
  static std::set<std::string> logged;
  if (named.rfind(family, 0) != 0 && logged.insert(named).second) {
    npusim::sim::log_warn("npusim: PlatformAscendCManager::GetInstance(\"" + named +
                          "\"): the simulated chip is " + ours +
                          "; its platform is reported (set NPUSIM_CONFIG to simulate another)");
  }
  return GetInstance();
}

}  // namespace platform_ascendc
