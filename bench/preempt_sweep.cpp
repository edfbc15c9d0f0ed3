// SPDX-License-Identifier: Apache-2.0
// Preemption experiment (issue 8): how fast a high-priority kernel gets AI Cores while a
// low-priority stream keeps them all busy, and what each preemption mechanism costs, on a chip
// preset (default ascend910b). Everything reported is simulated time from the run's stats.json.
//
// Workload (real Ascend C kernels, bench/vadd_kernel.cpp, float z = x + y):
//  - two "low" streams (priority 7, so that one's next kernel is in the engine while the other's
//    runs and the cores never idle): vadd kernels of 48 blocks (every AIV core of a 910B), each
//    block `len` elements in tiles of 4096 (double-buffered queues: 96 KiB of UB in use);
//    2^20 / len kernels in all, alternating streams, so the low work is the same for every block
//    length;
//  - stream "high" (priority 0, created last: the highest stream id): `arrivals` vadd kernels of
//    8 blocks x 4096 elements, each submitted after a synchronous host-to-device copy of
//    64 KiB x (1 + 5i mod 11) (gaps that vary, so arrivals fall at varied points of the low
//    blocks), while the low streams still run.
// The host's kernel launch cost is pinned at 2 us (host.kernel_launch_call) so the low kernels
// are all queued before the first high arrival, and L2 at 2 MiB so the low kernels, which re-read
// the same buffers, stream from HBM. Swept: scheduler.preemption (none, drain, checkpoint, kill, dynamic) x low block length x
// aicore.context_bytes (checkpoint and dynamic only: 0 = the used UB bytes, 96 KiB, else as
// given). Each
// configuration runs in a child process (one SystemC elaboration per process) with NPUSIM_OUT
// set to a temporary directory, read back and removed.
// Columns: the high stream's start latency (readiness to the first block's first issue slot)
// p50/p99/max in us, the low span (the low streams' first kernel received by the AI Core engine to
// their last block's end: the time the low work took, its throughput cost), the low streams'
// mean normalized turnaround, ANTT and STP (aicore_engine.h defines them), preemptions, saved MiB, killed work,
// and whether every output byte equals the none run's (an FNV-1a hash of both streams' z).
//
//   npusim_preempt_sweep [--csv FILE] [--preset NAME] [--lens 16384,65536,262144]
//                        [--contexts 0,1048576] [--arrivals 8] [--policies priority,prema]
//   npusim_preempt_sweep --check   (64 Ki-element blocks, 3 arrivals: fails unless checkpoint
//                                   resumed and kill re-ran running blocks, every output byte is
//                                   the same under every mechanism, and checkpoint/kill start the
//                                   high-priority kernels sooner than none)
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "bench_check.h"

int32_t bench_vadd_do(uint32_t block_dim, void* stream, void* x, void* y, void* z, uint32_t len,
                      uint32_t tiles);

extern char** environ;

#define CHECK(call) BENCH_CHECK(call)

namespace {

constexpr std::uint32_t kTile = 4096;
constexpr std::uint32_t kLowBlocks = 48;
constexpr std::uint32_t kHighBlocks = 8;
constexpr std::uint32_t kHighLen = 4096;
constexpr std::uint64_t kLowWork = 1u << 20;  // elements per block, summed over the low kernels
constexpr std::size_t kGapUnit = 64 * 1024;   // arrival gaps: 1..11 x 64 KiB host copies
constexpr std::size_t kGapMax = 11 * kGapUnit;

std::uint64_t fnv(const void* data, std::size_t n, std::uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

struct Buffers {
  void *x = nullptr, *y = nullptr, *z = nullptr;
  std::size_t bytes = 0;
};

Buffers make_buffers(std::size_t elements, float scale) {
  Buffers b;
  b.bytes = elements * sizeof(float);
  std::vector<float> host(elements);
  for (std::size_t i = 0; i < elements; ++i) host[i] = scale * static_cast<float>(i % 1000);
  CHECK(aclrtMalloc(&b.x, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b.y, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b.z, b.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(b.x, b.bytes, host.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  for (float& v : host) v = v * 0.5f + 1.0f;
  CHECK(aclrtMemcpy(b.y, b.bytes, host.data(), b.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return b;
}

std::uint64_t hash_of(const Buffers& b, std::uint64_t h) {
  std::vector<char> host(b.bytes);
  CHECK(aclrtMemcpy(host.data(), b.bytes, b.z, b.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  return fnv(host.data(), host.size(), h);
}

/// The child: one configuration (from NPUSIM_CONFIG / NPUSIM_SET); writes hash.txt to NPUSIM_OUT.
int child(std::uint32_t len, int arrivals) {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream low[2] = {nullptr, nullptr}, high = nullptr;
  CHECK(aclrtCreateStreamWithConfig(&low[0], 7, 0));
  CHECK(aclrtCreateStreamWithConfig(&low[1], 7, 0));
  CHECK(aclrtCreateStreamWithConfig(&high, 0, 0));
  const Buffers lb = make_buffers(static_cast<std::size_t>(kLowBlocks) * len, 1.0f);
  const Buffers hb = make_buffers(static_cast<std::size_t>(kHighBlocks) * kHighLen, 3.0f);
  std::vector<char> gap(kGapMax, 1);
  void* gap_dev = nullptr;
  CHECK(aclrtMalloc(&gap_dev, gap.size(), ACL_MEM_MALLOC_HUGE_FIRST));
  const std::uint64_t low_kernels = std::max<std::uint64_t>(kLowWork / len, 2);
  for (std::uint64_t i = 0; i < low_kernels; ++i) {
    CHECK(bench_vadd_do(kLowBlocks, low[i % 2], lb.x, lb.y, lb.z, len, len / kTile));
  }
  for (int i = 0; i < arrivals; ++i) {
    const std::size_t bytes = kGapUnit * (1 + (static_cast<std::size_t>(i) * 5) % 11);
    CHECK(aclrtMemcpy(gap_dev, bytes, gap.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(bench_vadd_do(kHighBlocks, high, hb.x, hb.y, hb.z, kHighLen, kHighLen / kTile));
  }
  CHECK(aclrtSynchronizeStream(high));
  CHECK(aclrtSynchronizeStream(low[0]));
  CHECK(aclrtSynchronizeStream(low[1]));
  const std::uint64_t h = hash_of(hb, hash_of(lb, 1469598103934665603ull));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  const char* dir = std::getenv("NPUSIM_OUT");
  std::ofstream(std::string(dir) + "/hash.txt") << std::hex << h << "\n";
  return 0;
}

struct Row {
  std::string policy = "priority";
  std::string mechanism;
  std::uint32_t len = 0;
  std::uint64_t context = 0;
  double block_us = 0, p50 = NAN, p99 = NAN, max = NAN, low_span = NAN, low_ntt = NAN,
         antt = NAN, stp = NAN, preemptions = 0, saved_mib = 0, killed_us = 0;
  std::string hash;
};

double num(const nlohmann::json& j) { return j.is_number() ? j.get<double>() : NAN; }

/// Runs one configuration in a child process and reads its stats.json.
bool run(const char* self, const std::string& preset, Row& row, int arrivals) {
  char dir_template[] = "/tmp/npusim_preempt_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) {
    std::perror("mkdtemp");
    return false;
  }
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "NPUSIM_", 7) != 0) env_text.emplace_back(*e);
  }
  env_text.push_back(std::string("NPUSIM_OUT=") + dir);
  env_text.push_back("NPUSIM_STATS=full");  // every statistic below is present, zeros too
  env_text.push_back("NPUSIM_CONFIG=" + preset);
  env_text.push_back("NPUSIM_SET=scheduler.policy=" + row.policy +
                     ";scheduler.preemption=" + row.mechanism +
                     ";aicore.context_bytes=" + std::to_string(row.context) + "B" +
                     // The experiment is about the device: the host enqueues the low kernels at
                     // 2 us each (not the preset's calibrated launch cost), so they are all
                     // queued long before the high arrivals and the cores never idle.
                     ";host.kernel_launch_call=2us" +
                     // The low kernels re-read the same buffers, which the preset's L2 would
                     // serve after the first kernel; the experiment wants HBM-bound low blocks that
                     // hold their cores, so L2 is shrunk below their working set.
                     ";l2.size=2MiB");
  std::vector<char*> env;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::string len = std::to_string(row.len), n = std::to_string(arrivals);
  char child_arg[] = "--child";
  char* argv[] = {const_cast<char*>(self), child_arg, len.data(), n.data(), nullptr};
  std::fflush(stdout);
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, env.data()) != 0) {
    std::perror("posix_spawn");
    return false;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok) {
    std::ifstream in(std::string(dir) + "/stats.json");
    const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
    std::ifstream(std::string(dir) + "/hash.txt") >> row.hash;
    ok = !stats.is_discarded() && stats.contains("chip0");
    if (ok) {
      const nlohmann::json& a = stats["chip0"]["aicore"];
      row.antt = num(a["antt"]["value"]);
      row.stp = num(a["stp"]["value"]);
      row.preemptions = num(a["preemptions"]["value"]);
      std::string high;  // the stream with the highest id: "s<id>"
      for (const auto& [id, s] : a["streams"].items()) {
        if (high.empty() || std::stoi(id.substr(1)) > std::stoi(high.substr(1))) high = id;
      }
      double ntt_sum = 0, low_from = INFINITY, low_to = 0;
      int lows = 0;
      for (const auto& [id, s] : a["streams"].items()) {
        row.saved_mib += num(s["saved_bytes"]["value"]) / 1048576.0;
        row.killed_us += num(s["killed_time"]["value"]);  // stats.json times are in µs
        if (id == high) {
          row.p50 = num(s["start_latency_p50"]["value"]);
          row.p99 = num(s["start_latency_p99"]["value"]);
          row.max = num(s["start_latency_max"]["value"]);
        } else {
          ntt_sum += num(s["normalized_turnaround"]["value"]);
          low_from = std::min(low_from, num(s["first_received"]["value"]));
          low_to = std::max(low_to, num(s["last_end"]["value"]));
          ++lows;
        }
      }
      row.low_ntt = lows > 0 ? ntt_sum / lows : NAN;
      row.low_span = lows > 0 ? low_to - low_from : NAN;
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (!ok) std::fprintf(stderr, "configuration %s len %u failed\n", row.mechanism.c_str(), row.len);
  return ok;
}

std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

std::vector<std::uint64_t> list(const char* text) {
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::strtoull(item.c_str(), nullptr, 10));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3 && std::strcmp(argv[1], "--child") == 0) {
    return child(static_cast<std::uint32_t>(std::atoi(argv[2])), std::atoi(argv[3]));
  }
  std::string csv, preset = "ascend910b";
  std::vector<std::uint64_t> lens = {16384, 65536, 262144}, contexts = {0, 1048576};
  std::vector<std::string> policies = {"priority"};
  int arrivals = 8;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--csv" && more) {
      csv = argv[++i];
    } else if (a == "--preset" && more) {
      preset = argv[++i];
    } else if (a == "--lens" && more) {
      lens = list(argv[++i]);
    } else if (a == "--contexts" && more) {
      contexts = list(argv[++i]);
    } else if (a == "--policies" && more) {
      policies = words(argv[++i]);
    } else if (a == "--arrivals" && more) {
      arrivals = std::atoi(argv[++i]);
    } else if (a == "--check") {
      check = true;
      lens = {65536};
      contexts = {0};
      arrivals = 3;
    } else {
      std::fprintf(stderr, "unknown argument %s (see the header of bench/preempt_sweep.cpp)\n",
                   a.c_str());
      return 2;
    }
  }
  std::vector<Row> rows;
  for (const std::string& policy : policies) {
  for (std::uint64_t len : lens) {
    if (len < kTile || len % kTile != 0) {
      std::fprintf(stderr, "--lens: %llu is not a multiple of %u\n",
                   static_cast<unsigned long long>(len), kTile);
      return 2;
    }
    for (const char* mech : {"none", "drain", "checkpoint", "kill", "dynamic"}) {
      const bool sweep_context =
          std::strcmp(mech, "checkpoint") == 0 || std::strcmp(mech, "dynamic") == 0;
      for (std::uint64_t ctx : sweep_context ? contexts : std::vector<std::uint64_t>{0}) {
        Row r;
        r.policy = policy;
        r.mechanism = mech;
        r.len = static_cast<std::uint32_t>(len);
        r.context = ctx;
        if (!run(argv[0], preset, r, arrivals)) return 1;
        rows.push_back(r);
      }
    }
  }
  }
  std::string text =
      "policy,mechanism,low_block_elements,context_bytes,high_start_p50_us,high_start_p99_us,"
      "high_start_max_us,low_span_us,low_ntt,antt,stp,preemptions,saved_mib,killed_us,"
      "same_output\n";
  std::string ref;
  bool same_all = true;
  for (const Row& r : rows) {
    if (r.mechanism == "none") ref = r.hash;
    const bool same = r.hash == ref && !r.hash.empty();
    same_all = same_all && same;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s,%s,%u,%llu,%.3f,%.3f,%.3f,%.1f,%.3f,%.3f,%.3f,%.0f,%.2f,%.1f,%s\n",
                  r.policy.c_str(), r.mechanism.c_str(), r.len, static_cast<unsigned long long>(r.context), r.p50,
                  r.p99, r.max, r.low_span, r.low_ntt, r.antt, r.stp, r.preemptions, r.saved_mib,
                  r.killed_us, same ? "yes" : "NO");
    text += line;
  }
  std::fputs(text.c_str(), stdout);
  if (!csv.empty()) std::ofstream(csv) << text;
  if (!same_all) {
    std::fprintf(stderr, "outputs differ between mechanisms\n");
    return 1;
  }
  if (check) {
    double none = NAN, worst = 0;
    for (const Row& r : rows) {
      if (r.mechanism == "none") none = r.max;
      if (r.mechanism == "checkpoint" || r.mechanism == "kill") worst = std::max(worst, r.max);
      // the comparison of outputs means something only if blocks really were resumed / re-run
      if ((r.mechanism == "checkpoint" && !(r.saved_mib > 0)) ||
          (r.mechanism == "kill" && !(r.killed_us > 0))) {
        std::fprintf(stderr, "%s preempted no running block\n", r.mechanism.c_str());
        return 1;
      }
    }
    if (!(worst < none)) {
      std::fprintf(stderr, "checkpoint/kill max start latency %.3f us is not below none's %.3f us\n",
                   worst, none);
      return 1;
    }
    std::printf("check: identical outputs under every mechanism; checkpoint/kill max start "
                "latency %.3f us < none %.3f us\n", worst, none);
  }
  return 0;
}
