// SPDX-License-Identifier: Apache-2.0
// The chip's typed configuration: every parameter declared once, with its key, type (and so its
// unit), default and description — the core groups here, each unit's own group beside the unit
// (models/unit_config.h). sim/config.h walks these structs through visit() to parse YAML, apply
// --set overrides, reject unknown keys, dump the effective config and print the key reference.
// Plain C++: the runtime reads it too (aclrtGetDeviceInfo, aclrtGetSocName...).
//
// Defaults describe a 910B2-class chip (docs/sources.md §1).
#pragma once

#include <cstdint>
#include <string>

#include "models/config_types.h"
#include "models/unit_config.h"
#include "npusim/chip_arch.h"

namespace npusim::models {

/// Rules of keys whose checks need more than a range (chip_config.cpp).
std::string check_soc_name(const std::string& value);     // 1..63 characters
std::string check_npu_arch(const std::string& value);     // a number of npusim/chip_arch.h
std::string check_version(const std::string& value);      // x.y.z
std::string check_link_list(const std::string& value);    // full_mesh | none | "0-1,0-2,..."

/// Local buffer sizes are 32-bit quantities on the core.
constexpr double kMaxLocalBuffer = 4294967295.0;

/// Identity of the chip as the runtime reports it.
struct SocConfig {
  std::string name = "Ascend910B2";
  std::int64_t npu_arch = 2201;
  std::int64_t num_devices = 8;
  std::string version = "8.5.0";

  template <class V>
  void visit(V& v) {
    v.field("name", name, "SoC name returned by aclrtGetSocName (e.g. Ascend910B2, Ascend310P3)",
            sim::checked(check_soc_name));
    v.field("npu_arch", npu_arch,
            "NPU architecture number: the chip generation (npusim/chip_arch.h: 1001 = 910, "
            "2002 = 310P, 2201 = 910B, 3002 = 310B, 3510 = 950)",
            sim::checked(check_npu_arch));
    v.field("num_devices", num_devices, "number of devices (chips) visible to the host program",
            sim::range(1, 16));
    v.field("version", version, "CANN version string reported by aclsysGetVersionStr (x.y.z)",
            sim::checked(check_version));
  }
};

/// Host CPU side: cost of runtime API calls on the host track, and host memory bandwidth.
struct HostConfig {
  Duration api_call{200 * sim::kNs};
  Duration launch_call{2 * sim::kUs}; // async task submission (build SQE, ring doorbell)
  Duration kernel_launch_call{8600 * sim::kNs};  // a kernel launch call (args, SQE, doorbell)
  Duration sync_call{11 * sim::kUs};  // blocking call overhead on return
  Duration sync_copy_setup{10 * sim::kUs};  // driver path of a synchronous copy/memset
  Duration callback{5 * sim::kUs};   // a host callback / host function on the thread running it
  Bandwidth memcpy_bandwidth{20e9};   // host memcpy (H2H, pageable staging)
  Bytes pinned_memory{512ULL << 30};  // what aclrtMallocHost may pin in total

  template <class V>
  void visit(V& v) {
    v.field("api_call", api_call, "host time charged for a non-submitting runtime API call");
    v.field("launch_call", launch_call,
            "host time charged for an API call that submits a task to a stream (kernel launches: "
            "kernel_launch_call)");
    v.field("kernel_launch_call", kernel_launch_call,
            "host time charged for an API call that launches kernels (aclrtLaunchKernel*, <<<>>>, "
            "an aclnn operator's second phase): argument packing, task build, doorbell");
    v.field("sync_call", sync_call, "host time charged when a blocking call returns");
    v.field("sync_copy_setup", sync_copy_setup,
            "host time a synchronous device copy or memset (aclrtMemcpy, aclrtMemset) spends in the "
            "driver building its DMA descriptors before the task reaches the device");
    v.field("callback", callback,
            "host time a host callback (aclrtLaunchCallback) or host function (aclrtLaunchHostFunc) "
            "takes on the thread that runs it, from the report's arrival (or when that thread is "
            "free); a blocking callback holds its stream until then");
    v.field("memcpy_bandwidth", memcpy_bandwidth, "host memory copy bandwidth (H2H copies, staging of pageable memory)");
    v.field("pinned_memory", pinned_memory,
            "host memory that aclrtMallocHost may pin in total (page-locked; the rest of host RAM "
            "stays pageable)");
  }
};

/// PCIe host link: both directions at once, each with its own DMA queues sharing its bandwidth.
struct PcieConfig {
  Bandwidth h2d_bandwidth{25.6e9};
  Bandwidth d2h_bandwidth{25.6e9};
  Duration latency{1500 * sim::kNs};
  Bytes burst{256 * 1024};
  Bytes pageable_chunk{2 * 1024 * 1024};
  std::int64_t dma_channels = 4;
  Bandwidth root_complex_bandwidth{102.4e9};

  template <class V>
  void visit(V& v) {
    v.field("h2d_bandwidth", h2d_bandwidth, "host-to-device link bandwidth (per direction)");
    v.field("d2h_bandwidth", d2h_bandwidth, "device-to-host link bandwidth (per direction)");
    v.field("latency", latency, "one-way latency added once per DMA transfer (descriptor fetch + first TLP)");
    v.field("burst", burst, "DMA burst size: transfers are split into bursts that share the link fairly");
    v.field("pageable_chunk", pageable_chunk,
            "pageable host memory is staged through a pinned bounce buffer in chunks of this size");
    v.field("dma_channels", dma_channels,
            "DMA queues per direction; concurrent copies share the link burst by burst",
            sim::range(1, 64));
    v.field("root_complex_bandwidth", root_complex_bandwidth,
            "host side of every device's PCIe link, per direction: the H2D bursts of all devices "
            "share one such resource, their D2H bursts another (peer copies through the host use "
            "both)");
  }
};

/// Device memory (HBM): capacity and a shared bandwidth resource.
struct HbmConfig {
  Bytes size{64ULL << 30};
  Bandwidth bandwidth{1.6e12};
  double efficiency = 0.89;
  Duration latency{100 * sim::kNs};

  template <class V>
  void visit(V& v) {
    v.field("size", size, "device memory capacity visible to aclrtMalloc / aclrtGetMemInfo");
    v.field("bandwidth", bandwidth, "peak (pin) device memory bandwidth");
    v.field("efficiency", efficiency,
            "fraction of the peak that streams sustain (refresh, read/write turnaround, bank "
            "conflicts folded into one factor: models/hbm.h); every transfer is timed at "
            "bandwidth x efficiency",
            sim::range(0.05, 1));
    v.field("latency", latency, "access latency added once per transaction");
  }
};

/// L2 cache between the AI Cores and HBM (models/l2_cache.h states its timing model).
struct L2Config {
  Bytes size{192ULL << 20};
  Bytes line_size{512};
  Bytes sector_size{128};
  std::int64_t ways = 16;
  Bandwidth bandwidth{4e12};
  Duration hit_latency{50 * sim::kNs};
  double read_hit_rate = 0.0;

  template <class V>
  void visit(V& v) {
    v.field("size", size, "L2 cache capacity (its tags decide hits by address: models/l2_tags.h)");
    v.field("line_size", line_size, "bytes per line (a power of two; LRU replacement per line)");
    v.field("sector_size", sector_size,
            "bytes per sector: the unit of valid/dirty bits and of HBM fills (a power of two, "
            "1 to 8 per line)");
    v.field("ways", ways, "lines per set (size must be a multiple of line_size x ways)",
            sim::range(1, 64));
    v.field("bandwidth", bandwidth, "L2 bandwidth shared by all cores (reads and writes)");
    v.field("hit_latency", hit_latency, "latency added once per core access to GM through L2");
    v.field("read_hit_rate", read_hit_rate,
            "only for GM reads whose trace carries no address (hand-built traces): the fraction "
            "served by L2; kernels built with the toolchain record addresses and use the tags",
            sim::range(0, 1));
  }
};

/// Task scheduler (STARS/HWTS): stream queues, dispatch and completion.
struct SchedulerConfig {
  Duration doorbell{500 * sim::kNs};
  Duration dispatch{200 * sim::kNs};
  Duration completion{300 * sim::kNs};
  Duration sync_task{100 * sim::kNs};
  std::int64_t max_streams = 1984;
  std::int64_t stream_depth = 2048;
  std::int64_t max_events = 65536;
  std::string policy = "priority";
  std::string preemption = "none";
  std::int64_t preempt_threshold = 1;

  template <class V>
  void visit(V& v) {
    v.field("doorbell", doorbell, "time from the host ringing the doorbell to the task being visible in its stream queue");
    v.field("dispatch", dispatch, "time to parse a task and hand it to its engine");
    v.field("completion", completion, "time from an engine finishing to the task being reported complete");
    v.field("sync_task", sync_task, "execution time of scheduler-internal tasks (event record/wait/reset, value write/wait)");
    v.field("max_streams", max_streams, "streams per device, default streams included",
            sim::range(1, 65536));
    v.field("stream_depth", stream_depth, "submission queue depth per stream", sim::range(1, 65536));
    v.field("max_events", max_events, "events per device", sim::range(1, 1 << 20));
    v.field("policy", policy,
            "dispatch policy between streams: priority (0 = highest first, then FIFO), fifo, or "
            "prema (AI Cores: PREMA token-based, predicted-time-aware selection between kernels, "
            "models/aicore/aicore_engine.h; elsewhere as priority)",
            sim::one_of("priority|fifo|prema"));
    v.field("preemption", preemption,
            "AI Core preemption of a running lower-priority kernel by a waiting higher-priority "
            "one: none (running blocks finish; CANN's documented behaviour), drain (same timing, "
            "recorded as preemptions), checkpoint (running blocks save their core state to HBM, "
            "yield, later restore and resume), kill (running blocks are discarded and re-run), "
            "dynamic (PREMA: drain a block predicted to end before a checkpoint would pay off, "
            "else checkpoint)",
            sim::one_of("none|drain|checkpoint|kill|dynamic"));
    v.field("preempt_threshold", preempt_threshold,
            "priority levels a waiting kernel must be above a running one to preempt it "
            "(1 = any higher priority)",
            sim::range(1, 65536));
  }
};

/// AI Cores: counts, buffer sizes and the timing model's rates (models/aicore/ states the model).
/// Rates are per core, in bytes per AI Core cycle.
struct AiCoreConfig {
  std::int64_t cube_cores = 24;
  std::int64_t vector_cores = 48;
  Frequency frequency{1.8e9};
  Bytes l0a{64 * 1024};
  Bytes l0b{64 * 1024};
  Bytes l0c{128 * 1024};
  Bytes l1{512 * 1024};
  Bytes ub{192 * 1024};
  Duration kernel_launch{4 * sim::kUs};
  Duration block_launch{2 * sim::kUs};
  Duration timeout{1091 * sim::kSec};
  std::int64_t max_concurrent_kernels = 32;
  double scalar_cycles_per_bb = 2;
  std::int64_t scalar_access_cycles = 4;
  std::int64_t pipe_queue_depth = 32;
  double mte2_bytes_per_cycle = 32;
  double mte2_l2_bytes_per_cycle = 110;
  double mte1_l0a_bytes_per_cycle = 512;
  double mte1_l0b_bytes_per_cycle = 256;
  double mte3_bytes_per_cycle = 64;
  double fixpipe_bytes_per_cycle = 128;
  double vector_bytes_per_cycle = 256;
  std::int64_t cube_m = 16;
  std::int64_t cube_n = 16;
  std::int64_t cube_k = 16;
  std::int64_t mte_startup_cycles = 16;
  std::int64_t vector_startup_cycles = 8;
  std::int64_t cube_startup_cycles = 8;
  bool trace_pipes = false;
  Bytes context_bytes{0};
  bool functional = true;

  template <class V>
  void visit(V& v) {
    visit_cores(v);
    visit_launch(v);
    visit_pipe_rates(v);
    visit_pipe_shapes(v);
    visit_modes(v);
  }

  // The cores and their local buffers.
  template <class V>
  void visit_cores(V& v) {
    v.field("cube_cores", cube_cores, "AI Cores (AIC, cube) on the chip", sim::range(1, 1024));
    v.field("vector_cores", vector_cores, "vector cores on the chip: AIV cores on split chips (910B), separate Vector Cores on 310P, 0 if none",
            sim::range(0, 2048));
    v.field("frequency", frequency, "AI Core clock");
    v.field("l0a", l0a, "L0A buffer per core", sim::range(1, kMaxLocalBuffer));
    v.field("l0b", l0b, "L0B buffer per core", sim::range(1, kMaxLocalBuffer));
    v.field("l0c", l0c, "L0C buffer per core", sim::range(1, kMaxLocalBuffer));
    v.field("l1", l1, "L1 buffer per core", sim::range(1, kMaxLocalBuffer));
    v.field("ub", ub, "unified buffer per vector core", sim::range(1, kMaxLocalBuffer));
  }

  // Launch and scalar-unit costs.
  template <class V>
  void visit_launch(V& v) {
    v.field("kernel_launch", kernel_launch, "from a kernel's dispatch to its first block being able to start (args, binary, core setup)");
    v.field("block_launch", block_launch, "from a block's dispatch to a core to its first instruction (per block)");
    v.field("timeout", timeout,
            "AI Core watchdog: a block that runs longer is stopped and its kernel fails with the "
            "AI Core (or vector core) timeout, 507014 / 507034 (CANN's default: 1091 s)",
            sim::above(0));
    v.field("max_concurrent_kernels", max_concurrent_kernels, "kernels (of different streams) the AI Core engine accepts at once; they share the cores",
            sim::range(1, 65536));
    v.field("scalar_cycles_per_bb", scalar_cycles_per_bb, "scalar-unit cycles charged per basic block of kernel scalar code");
    v.field("scalar_access_cycles", scalar_access_cycles, "cycles of a scalar GetValue/SetValue (plus L2/HBM time for GM)");
    v.field("pipe_queue_depth", pipe_queue_depth, "instructions waiting per pipe queue before the scalar unit stalls (0 = unbounded)");
  }

  // The pipes' data rates.
  template <class V>
  void visit_pipe_rates(V& v) {
    v.field("mte2_bytes_per_cycle", mte2_bytes_per_cycle, "MTE2 GM->UB/L1 rate for bytes read from HBM (L2 misses)",
            sim::above(0));
    v.field("mte2_l2_bytes_per_cycle", mte2_l2_bytes_per_cycle, "MTE2 GM->UB/L1 rate for bytes served by L2 (hits)",
            sim::above(0));
    v.field("mte1_l0a_bytes_per_cycle", mte1_l0a_bytes_per_cycle, "MTE1 L1->L0A rate",
            sim::above(0));
    v.field("mte1_l0b_bytes_per_cycle", mte1_l0b_bytes_per_cycle, "MTE1 L1->L0B rate (also other MTE1 moves)",
            sim::above(0));
    v.field("mte3_bytes_per_cycle", mte3_bytes_per_cycle, "MTE3 UB->GM (and UB->L1) rate",
            sim::above(0));
    v.field("fixpipe_bytes_per_cycle", fixpipe_bytes_per_cycle, "Fixpipe L0C->GM/L1 rate (output bytes)",
            sim::above(0));
    v.field("vector_bytes_per_cycle", vector_bytes_per_cycle, "vector unit: bytes per repeat, one repeat per cycle",
            sim::above(0));
  }

  // The cube's fractal and the pipes' startup cycles.
  template <class V>
  void visit_pipe_shapes(V& v) {
    v.field("cube_m", cube_m, "cube fractal M (rows of A per cycle)", sim::range(1, 4096));
    v.field("cube_n", cube_n, "cube fractal N (columns of B per cycle)", sim::range(1, 4096));
    v.field("cube_k", cube_k, "cube fractal K for FP16/BF16 per cycle (INT8: 2x, FP32: half)", sim::range(1, 4096));
    v.field("mte_startup_cycles", mte_startup_cycles, "startup cycles per MTE1/MTE2/MTE3/Fixpipe instruction");
    v.field("vector_startup_cycles", vector_startup_cycles, "startup cycles per vector instruction");
    v.field("cube_startup_cycles", cube_startup_cycles, "startup cycles per Mmad instruction");
  }

  // Tracing, preemption context and timing-only mode.
  template <class V>
  void visit_modes(V& v) {
    v.field("trace_pipes", trace_pipes, "timeline: one track per core and pipe with a span per instruction (large)");
    v.field("context_bytes", context_bytes,
            "core state a checkpoint-preempted block saves to and restores from HBM; 0 = the "
            "block's used UB/L1/L0A/L0B/L0C bytes (its TPipe buffers)",
            sim::range(0, kMaxLocalBuffer));
    v.field("functional", functional,
            "false = timing-only: kernels run their control flow and every twin op checks its "
            "arguments and records its pipe instructions exactly as usual, but no element math "
            "or data movement happens (results in device memory are undefined; the timeline is "
            "identical)");
  }
};

/// The collective library (runtime/hccl): which algorithm an AllReduce uses inside a server.
struct HcclConfig {
  Bytes ring_threshold{1024 * 1024};

  template <class V>
  void visit(V& v) {
    v.field("ring_threshold", ring_threshold,
            "HcclAllReduce of at least this many bytes per rank runs the ring algorithm "
            "(reduce-scatter then all-gather around the ranks, pulling from the previous rank), "
            "smaller ones the full-mesh one-shot algorithm (every rank reads every peer over its "
            "own link); 0 = always ring",
            sim::at_least(0));
  }
};

/// Which devices are linked to which, and by what (models/topology.h builds the link list).
struct TopologyConfig {
  std::string links = "full_mesh";
  std::string link = "hccs";
  std::int64_t links_per_pair = 1;
  Bandwidth hccs_bandwidth{56e9};
  Duration hccs_latency{1500 * sim::kNs};

  template <class V>
  void visit(V& v) {
    v.field("links", links,
            "device pairs with a direct chip-to-chip link: full_mesh, none, or a list such as "
            "\"0-1,2-3\"",
            sim::checked(check_link_list));
    v.field("link", link, "kind of those links: hccs (chip-to-chip) or pcie (peer-to-peer through "
            "the PCIe switch)", sim::one_of("hccs|pcie"));
    v.field("links_per_pair", links_per_pair, "parallel links between each linked pair",
            sim::range(1, 16));
    v.field("hccs_bandwidth", hccs_bandwidth,
            "bandwidth of one HCCS link in each direction (a pair's links add up; the two "
            "directions are independent)");
    v.field("hccs_latency", hccs_latency,
            "latency added once per cross-chip copy over HCCS (descriptor fetch, first flit to the "
            "peer's memory)");
  }
};

/// The root: the core groups, then the groups units register (models/unit_config.h).
struct ChipConfig {
  SocConfig soc;
  HostConfig host;
  PcieConfig pcie;
  HbmConfig hbm;
  L2Config l2;
  SchedulerConfig scheduler;
  AiCoreConfig aicore;
  HcclConfig hccl;
  TopologyConfig topology;
  UnitConfigs units;  // every registered unit group (sdma, dsa, aicpu, dvpp, ...)

  template <class V>
  void visit(V& v) {
    v.group("soc", soc, "chip identity");
    v.group("host", host, "host CPU costs");
    v.group("pcie", pcie, "PCIe host link");
    v.group("hbm", hbm, "device memory");
    v.group("l2", l2, "L2 cache");
    v.group("scheduler", scheduler, "task scheduler");
    v.group("aicore", aicore, "AI Cores");
    v.group("hccl", hccl, "collective communication library (HCCL)");
    v.group("topology", topology, "links between the devices");
    units.visit(v);
  }

  /// A unit's own group (models/unit_config.h), e.g. cfg.unit<AiCpuConfig>().cores.
  template <class T>
  const T& unit() const {
    return units.get<T>();
  }
  template <class T>
  T& unit() {
    return units.get<T>();
  }

  /// The chip generation of soc.npu_arch (validation accepts only numbers in the table).
  const arch::Generation& generation() const { return arch::of(soc.npu_arch); }
};

}  // namespace npusim::models
