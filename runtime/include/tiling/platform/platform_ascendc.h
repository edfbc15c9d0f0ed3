/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's tiling/platform/platform_ascendc.h: the platform queries a host tiling function makes
 * (core counts, buffer sizes, bandwidths, the API workspace), answered from the simulated chip:
 * the preset or NPUSIM_CONFIG in use, so changing aicore.* knobs changes what tiling sees.
 * Link with tiling_api and platform (both are libacl_rt.so in npusim's install tree).
 */
#ifndef NPUSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define NPUSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>

#define NPUSIM_PLATFORM_API __attribute__((visibility("default")))

namespace fe {
class PlatFormInfos;  // the graph engine's platform description (not used by npusim)
}  // namespace fe

namespace platform_ascendc {

/// Memories whose size (GetCoreMemSize) or bandwidth (GetCoreMemBw) can be asked for.
enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,  // fixpipe buffer
  BT = 8,  // bias table
  RESERVED
};

/// SoC families (Atlas A3 reports the A2 value, as CANN does, so binaries are shared).
enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  RESERVED_VERSION = 99999
};

/// AI Core architectures (__NPU_ARCH__ values).
enum class NpuArch : std::uint32_t {
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3510 = 3510,
  DAV_RESV = 0xffffffffU
};

class NPUSIM_PLATFORM_API PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  /// The description a graph-engine tiling context passes; npusim answers from the simulated
  /// chip whatever it holds.
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}

  /// Vector cores on a chip with separate cube and vector cores, AI Cores otherwise.
  uint32_t GetCoreNum(void) const;
  SocVersion GetSocVersion(void) const;
  NpuArch GetCurNpuArch(void) const;
  uint32_t GetCoreNumAic(void) const;
  uint32_t GetCoreNumAiv(void) const;
  /// Stand-alone vector cores (Atlas inference chips only; 0 elsewhere).
  uint32_t GetCoreNumVector(void) const;
  /// Blocks to launch for a fused cube+vector kernel cut into sliceNum pieces: one block is
  /// one cube core with its aivCoreNum / aicCoreNum vector cores.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  /// CalcTschNumBlocks under its earlier name.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
  }
  /// Bytes of one core's memory of that type (L2 and HBM: the chip's).
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  /// Bytes per AI Core cycle of L2 or HBM (other types: 0, as they are not reported).
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  /// Bytes of GM workspace the Ascend C library APIs need (the system workspace).
  uint32_t GetLibApiWorkSpaceSize(void) const;

 private:
  fe::PlatFormInfos* platformInfo_;
};

class NPUSIM_PLATFORM_API PlatformAscendCManager {
 public:
  /// The simulated chip's platform (one instance per process).
  static PlatformAscendC* GetInstance();
  /// As GetInstance(); the SoC named is checked against the simulated chip (a different family
  /// is logged once), since npusim always has its simulated device to describe.
  static PlatformAscendC* GetInstance(const char* customSocVersion);

 private:
  PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc

#undef NPUSIM_PLATFORM_API

#endif  // NPUSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_
