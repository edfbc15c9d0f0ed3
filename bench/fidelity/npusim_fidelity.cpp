// SPDX-License-Identifier: Apache-2.0
// npusim fidelity suite: microbenchmarks run on a chip preset, measured ONLY in simulated time
// (event elapsed times, and the host API spans of the run's timeline.json), printed as a table
// next to the published figures of bench/fidelity/published.yaml:
//   quantity | conditions | published | simulated | error % | source
//
//   npusim_fidelity [--config ascend910b|ascend310p] [--quick] [--published FILE] [--out DIR]
//
// --out DIR also writes DIR/stats.json, {"fidelity": {"<id>": {"value", "unit", "desc"}}}, the
// form `npusim check` reads: bench/fidelity/targets_<preset>.yaml holds the table as targets
// (tests/bench: a change that breaks calibration fails the suite).
//
// The rows (ids as in published.yaml):
//   h2d_gbps_<size>, d2h_gbps_<size>  pinned copies, aclrtMemcpyAsync back to back between two
//                                     events on one stream, 1 KiB .. 256 MiB
//   launch_sync_us                    launch of a tiny Ascend C kernel (bench/vadd_kernel.cpp,
//                                     1 block, 256 floats) + aclrtSynchronizeStream: host time
//                                     from the start of the launch call to the end of the sync
//                                     (timeline host spans), median of 10 after a warm-up
//   enqueue_us                        host time per launch of 1000 back-to-back launches (spans
//                                     of the launch calls, the final sync excluded)
//   event_record_host_us              host time of one aclrtRecordEvent (its span)
//   event_gap_us                      device time between two events recorded back to back
//   add_gbps_<n>                      aclnnAdd fp16 of n elements: 3 * 2 * n bytes / kernel time
//   matmul_tflops_<n>                 aclnnMatmul fp16 n x n x n: 2 n^3 / time, after a warm-up
//   p2p_gbps_<size>                   device 0 -> device 1 copy (peer access enabled)
// Sections that need the timeline or timing-only mode (aicore.functional=false) run in child
// processes of this program (NPUSIM_OUT / NPUSIM_SET set for them); a child prints
// "ROW <id> <value>" lines that the parent collects. Host wall time is never measured.
// Exit status: 0 when every planned row has a finite simulated value, 1 otherwise.
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "../bench_check.h"

// bench/vadd_kernel.cpp (built with the Ascend C toolchain)
int32_t bench_vadd_do(uint32_t block_dim, void* stream, void* x, void* y, void* z, uint32_t len,
                      uint32_t tiles);

#ifndef NPUSIM_FIDELITY_PUBLISHED
#define NPUSIM_FIDELITY_PUBLISHED "bench/fidelity/published.yaml"
#endif

#define CHECK(call) BENCH_CHECK(call)

namespace {

void row(const std::string& id, double value) {
  std::printf("ROW %s %.17g\n", id.c_str(), value);
  std::fflush(stdout);
}

std::string size_name(size_t bytes) {
  if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

std::string count_name(int64_t n) {
  if (n >= (1 << 20) && n % (1 << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1 << 10) && n % (1 << 10) == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

/// Simulated seconds between two events.
double elapsed_s(aclrtEvent a, aclrtEvent b) {
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, a, b));
  return static_cast<double>(ms) * 1e-3;
}

struct Events {
  aclrtEvent a = nullptr, b = nullptr;
  Events() {
    CHECK(aclrtCreateEvent(&a));
    CHECK(aclrtCreateEvent(&b));
  }
  ~Events() {
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
  }
};

// ---- copies ---------------------------------------------------------------------------------

void copy_bandwidth(aclrtStream s, const std::vector<size_t>& sizes) {
  const size_t max = *std::max_element(sizes.begin(), sizes.end());
  void *host = nullptr, *dev = nullptr;
  CHECK(aclrtMallocHost(&host, max));
  CHECK(aclrtMalloc(&dev, max, ACL_MEM_MALLOC_HUGE_FIRST));
  std::memset(host, 1, max);
  for (int dir = 0; dir < 2; ++dir) {
    const bool h2d = dir == 0;
    for (size_t bytes : sizes) {
      // Enough copies for about 64 MiB (at least 1, at most 256): bandwidth of back-to-back copies.
      const int n = static_cast<int>(std::clamp<size_t>((64u << 20) / bytes, 1, 256));
      Events e;
      CHECK(aclrtRecordEvent(e.a, s));
      for (int i = 0; i < n; ++i) {
        if (h2d) {
          CHECK(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
        } else {
          CHECK(aclrtMemcpyAsync(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
        }
      }
      CHECK(aclrtRecordEvent(e.b, s));
      CHECK(aclrtSynchronizeStream(s));
      row((h2d ? "h2d_gbps_" : "d2h_gbps_") + size_name(bytes),
          static_cast<double>(bytes) * n / elapsed_s(e.a, e.b) * 1e-9);
    }
  }
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
}

void p2p_bandwidth(const std::vector<size_t>& sizes) {
  uint32_t count = 0;
  CHECK(aclrtGetDeviceCount(&count));
  int32_t can = 0;
  if (count < 2 || aclrtDeviceCanAccessPeer(&can, 0, 1) != ACL_SUCCESS || can != 1) {
    std::fprintf(stderr, "fidelity: no peer device (%u device(s)): P2P rows not measured\n", count);
    return;
  }
  const size_t max = *std::max_element(sizes.begin(), sizes.end());
  void *d0 = nullptr, *d1 = nullptr;
  CHECK(aclrtSetDevice(1));
  CHECK(aclrtMalloc(&d1, max, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtMalloc(&d0, max, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  CHECK(aclrtDeviceEnablePeerAccess(1, 0));
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s));
  for (size_t bytes : sizes) {
    const int n = static_cast<int>(std::clamp<size_t>((64u << 20) / bytes, 1, 64));
    Events e;
    CHECK(aclrtRecordEvent(e.a, s));
    for (int i = 0; i < n; ++i)
      CHECK(aclrtMemcpyAsync(d1, bytes, d0, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK(aclrtRecordEvent(e.b, s));
    CHECK(aclrtSynchronizeStream(s));
    row("p2p_gbps_" + size_name(bytes),
        static_cast<double>(bytes) * n / elapsed_s(e.a, e.b) * 1e-9);
  }
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtDeviceDisablePeerAccess(1));
  CHECK(aclrtFree(d0));
  CHECK(aclrtSetDevice(1));
  CHECK(aclrtFree(d1));
  CHECK(aclrtResetDevice(1));
  CHECK(aclrtSetDevice(0));
}

// ---- aclnn operators ------------------------------------------------------------------------

aclTensor* tensor(std::vector<int64_t> dims, void* data) {
  return aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND,
                         dims.data(), dims.size(), data);
}

void* device_fp16(int64_t n, float value) {
  void* d = nullptr;
  const size_t bytes = static_cast<size_t>(n) * 2;
  CHECK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint16_t> h(static_cast<size_t>(n), aclFloatToFloat16(value));
  CHECK(aclrtMemcpy(d, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return d;
}

/// aclnnAdd fp16 of n elements: one warm-up, then the time of one run between events.
void add_bandwidth(aclrtStream s, const std::vector<int64_t>& counts) {
  for (int64_t n : counts) {
    void* x = device_fp16(n, 1.0f);
    void* y = device_fp16(n, 2.0f);
    void* z = device_fp16(n, 0.0f);
    aclTensor *tx = tensor({n}, x), *ty = tensor({n}, y), *tz = tensor({n}, z);
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    double t = 0;
    for (int run = 0; run < 2; ++run) {
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      CHECK(aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &ws, &ex));
      void* work = nullptr;
      if (ws > 0) CHECK(aclrtMalloc(&work, ws, ACL_MEM_MALLOC_HUGE_FIRST));
      Events e;
      CHECK(aclrtRecordEvent(e.a, s));
      CHECK(aclnnAdd(work, ws, ex, s));
      CHECK(aclrtRecordEvent(e.b, s));
      CHECK(aclrtSynchronizeStream(s));
      t = elapsed_s(e.a, e.b);
      if (work != nullptr) CHECK(aclrtFree(work));
    }
    row("add_gbps_" + count_name(n), 3.0 * 2.0 * static_cast<double>(n) / t * 1e-9);
    aclDestroyScalar(alpha);
    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    aclDestroyTensor(tz);
    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
  }
}

/// aclnnMatmul fp16 n^3: one warm-up run (a cube kernel's first launch is placed on vector cores),
/// then `reps` runs back to back between two events.
void matmul_tflops(aclrtStream s, const std::vector<int64_t>& sizes) {
  constexpr int kReps = 3;
  for (int64_t n : sizes) {
    void* a = device_fp16(n * n, 0.25f);
    void* b = device_fp16(n * n, 0.5f);
    void* c = device_fp16(n * n, 0.0f);
    aclTensor *ta = tensor({n, n}, a), *tb = tensor({n, n}, b), *tc = tensor({n, n}, c);
    auto run = [&]() {
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      CHECK(aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &ws, &ex));
      void* work = nullptr;
      if (ws > 0) CHECK(aclrtMalloc(&work, ws, ACL_MEM_MALLOC_HUGE_FIRST));
      CHECK(aclnnMatmul(work, ws, ex, s));
      return work;
    };
    void* w0 = run();
    CHECK(aclrtSynchronizeStream(s));
    if (w0 != nullptr) CHECK(aclrtFree(w0));
    Events e;
    std::vector<void*> works;
    CHECK(aclrtRecordEvent(e.a, s));
    for (int i = 0; i < kReps; ++i) works.push_back(run());
    CHECK(aclrtRecordEvent(e.b, s));
    CHECK(aclrtSynchronizeStream(s));
    for (void* w : works)
      if (w != nullptr) CHECK(aclrtFree(w));
    const double flops = 2.0 * static_cast<double>(n) * n * n * kReps;
    row("matmul_tflops_" + std::to_string(n), flops / elapsed_s(e.a, e.b) * 1e-12);
    aclDestroyTensor(ta);
    aclDestroyTensor(tb);
    aclDestroyTensor(tc);
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
    CHECK(aclrtFree(c));
  }
}

// ---- host costs (from the run's timeline) ----------------------------------------------------

constexpr int kLaunchSyncReps = 10;
constexpr int kEnqueueLaunches = 1000;

/// The traced part: warm-up launch + sync; 10 x (launch + sync); 1000 launches then one sync;
/// two events recorded back to back.
void host_costs_run(aclrtStream s) {
  constexpr uint32_t kLen = 256;
  void *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(aclrtMalloc(&x, kLen * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&y, kLen * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&z, kLen * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(bench_vadd_do(1, s, x, y, z, kLen, 1));
  CHECK(aclrtSynchronizeStream(s));
  for (int i = 0; i < kLaunchSyncReps; ++i) {
    CHECK(bench_vadd_do(1, s, x, y, z, kLen, 1));
    CHECK(aclrtSynchronizeStream(s));
  }
  for (int i = 0; i < kEnqueueLaunches; ++i) CHECK(bench_vadd_do(1, s, x, y, z, kLen, 1));
  CHECK(aclrtSynchronizeStream(s));
  Events e;
  CHECK(aclrtRecordEvent(e.a, s));
  CHECK(aclrtRecordEvent(e.b, s));
  CHECK(aclrtSynchronizeStream(s));
  row("event_gap_us", elapsed_s(e.a, e.b) * 1e6);
  CHECK(aclrtFree(x));
  CHECK(aclrtFree(y));
  CHECK(aclrtFree(z));
}

struct Span {
  std::string name;
  double ts = 0, dur = 0;  // µs, simulated
};

/// After aclFinalize: the host API spans of timeline.json, in time order, and the rows from them.
void host_costs_rows(const std::string& dir) {
  std::ifstream in(dir + "/timeline.json");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "fidelity: cannot read %s/timeline.json: %s\n", dir.c_str(), ex.what());
    std::exit(1);
  }
  const nlohmann::json& events = j.is_object() ? j["traceEvents"] : j;
  std::vector<Span> spans;
  for (const auto& ev : events) {
    if (!ev.is_object() || ev.value("ph", "") != "X") continue;
    const std::string name = ev.value("name", "");
    if (name.rfind("AscendCL@", 0) != 0) continue;
    spans.push_back({name.substr(9), ev.value("ts", 0.0), ev.value("dur", 0.0)});
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const Span& a, const Span& b) { return a.ts < b.ts; });
  // The sync spans, and the launch span before each: the last 1 + 10 + 1 + 1 syncs are ours
  // (warm-up, 10 launch+sync, the enqueue batch, the events).
  std::vector<size_t> syncs;
  for (size_t i = 0; i < spans.size(); ++i)
    if (spans[i].name == "aclrtSynchronizeStream") syncs.push_back(i);
  if (syncs.size() < 13) {
    std::fprintf(stderr, "fidelity: timeline has %zu stream syncs, expected >= 13\n", syncs.size());
    std::exit(1);
  }
  const size_t first = syncs.size() - 13;
  // Each launch is one host span (named like the last one before the batch's sync): check it.
  const size_t batch_sync = syncs[first + 11];
  const std::string launch_name = spans[batch_sync - 1].name;
  auto is_launch = [&](size_t i) { return spans[i].name == launch_name; };
  bool ok = batch_sync >= kEnqueueLaunches + 1 && !is_launch(batch_sync - kEnqueueLaunches - 1);
  for (size_t i = batch_sync - kEnqueueLaunches; ok && i < batch_sync; ++i) ok = is_launch(i);
  for (int r = 0; ok && r < kLaunchSyncReps; ++r) ok = is_launch(syncs[first + 1 + r] - 1);
  if (!ok) {
    std::fprintf(stderr, "fidelity: the timeline's host spans are not one %s span per launch\n",
                 launch_name.c_str());
    std::exit(1);
  }
  std::vector<double> lat;
  for (int r = 0; r < kLaunchSyncReps; ++r) {
    const size_t sync = syncs[first + 1 + static_cast<size_t>(r)];
    const Span& launch = spans[sync - 1];
    lat.push_back(spans[sync].ts + spans[sync].dur - launch.ts);
  }
  std::sort(lat.begin(), lat.end());
  row("launch_sync_us", 0.5 * (lat[kLaunchSyncReps / 2 - 1] + lat[kLaunchSyncReps / 2]));
  const Span& first_launch = spans[batch_sync - kEnqueueLaunches];
  const Span& last_launch = spans[batch_sync - 1];
  row("enqueue_us", (last_launch.ts + last_launch.dur - first_launch.ts) / kEnqueueLaunches);
  const size_t ev_sync = syncs[first + 12];
  row("event_record_host_us", spans[ev_sync - 1].dur);
}

// ---- children and the table -----------------------------------------------------------------

struct Plan {
  bool quick = false;
  std::vector<size_t> copy_sizes, p2p_sizes;
  std::vector<int64_t> add_functional, add_timing, mm_functional, mm_timing;
};

Plan make_plan(bool quick) {
  Plan p;
  p.quick = quick;
  if (quick) {
    p.copy_sizes = {1u << 10, 1u << 20};
    p.p2p_sizes = {1u << 20};
    p.add_functional = {1 << 20};
    p.mm_functional = {256};
    p.mm_timing = {512};
  } else {
    p.copy_sizes = {1u << 10, 64u << 10, 1u << 20, 16u << 20, 256u << 20};
    p.p2p_sizes = {1u << 20, 8u << 20, 64u << 20};
    p.add_functional = {1 << 16, 1 << 18, 1 << 20, 4 << 20};
    p.add_timing = {16 << 20, 128 << 20};  // 128 Mi: 768 MiB, beyond any preset's L2
    p.mm_functional = {512, 1024};
    p.mm_timing = {1536, 2048, 3072, 4096};
  }
  return p;
}

int child(const std::string& section, const Plan& p) {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s));
  if (section == "main") {
    copy_bandwidth(s, p.copy_sizes);
    add_bandwidth(s, p.add_functional);
    matmul_tflops(s, p.mm_functional);
    p2p_bandwidth(p.p2p_sizes);
  } else if (section == "timing") {
    add_bandwidth(s, p.add_timing);
    matmul_tflops(s, p.mm_timing);
  } else if (section == "host") {
    host_costs_run(s);
  }
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (section == "host") host_costs_rows(std::getenv("NPUSIM_OUT"));
  return 0;
}

std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "npusim_fidelity";
  buf[n] = '\0';
  return buf;
}

/// Runs this program as `--child section` with extra environment; collects its ROW lines.
void run_child(const std::string& section, bool quick, const std::vector<std::string>& env,
               std::map<std::string, double>& rows) {
  std::string cmd;
  for (const auto& e : env) cmd += e + " ";
  cmd += "'" + self_path() + "' --child " + section + (quick ? " --quick" : "");
  std::fflush(stdout);
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) {
    std::perror("popen");
    std::exit(1);
  }
  char line[512];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    char id[256];
    char value[128];
    if (std::sscanf(line, "ROW %255s %127s", id, value) == 2) rows[id] = std::strtod(value, nullptr);
  }
  const int status = pclose(f);
  if (status != 0) {
    std::fprintf(stderr, "fidelity: section %s failed (status %d)\n", section.c_str(), status);
    std::exit(1);
  }
}

std::string scalar(const YAML::Node& n, const char* key) {
  return n[key] && n[key].IsScalar() ? n[key].as<std::string>() : "";
}

std::string fmt(double v) {
  char b[64];
  if (!std::isfinite(v)) return "n/a";
  std::snprintf(b, sizeof b, std::fabs(v) >= 100 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.2f",
                v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config = "ascend910b", published = NPUSIM_FIDELITY_PUBLISHED, section, out;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--config" && i + 1 < argc) {
      config = argv[++i];
    } else if (a == "--published" && i + 1 < argc) {
      published = argv[++i];
    } else if (a == "--child" && i + 1 < argc) {
      section = argv[++i];
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: npusim_fidelity [--config ascend910b|ascend310p] [--quick] "
                   "[--published FILE] [--out DIR]\n");
      return 2;
    }
  }
  const Plan plan = make_plan(quick);
  if (!section.empty()) return child(section, plan);

  YAML::Node doc;
  try {
    doc = YAML::LoadFile(published);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fidelity: cannot read %s: %s\n", published.c_str(), e.what());
    return 1;
  }
  const std::string cfg = "NPUSIM_CONFIG='" + config + "'";
  const std::string log = "NPUSIM_LOG=error";
  std::string set = "aicore.functional=false";
  if (const char* old = std::getenv("NPUSIM_SET"); old != nullptr && *old != '\0')
    set = std::string(old) + ";" + set;
  char dir_template[] = "/tmp/npusim_fidelity_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  std::map<std::string, double> rows;
  run_child("main", quick, {cfg, log}, rows);
  run_child("host", quick, {cfg, log, std::string("NPUSIM_OUT='") + dir + "'"}, rows);
  std::map<std::string, double> timing_rows;
  if (!plan.add_timing.empty() || !plan.mm_timing.empty())
    run_child("timing", quick, {cfg, log, "NPUSIM_SET='" + set + "'"}, timing_rows);
  for (const auto& [id, v] : timing_rows) rows[id] = v;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);

  // The table: published.yaml's rows in its order (those this plan measured), then any
  // measured row the file does not describe.
  std::printf("npusim fidelity, preset %s%s (simulated time only; published figures: %s)\n\n",
              config.c_str(), quick ? ", quick subset" : "",
              published == NPUSIM_FIDELITY_PUBLISHED ? "bench/fidelity/published.yaml"
                                                     : published.c_str());
  std::printf("| quantity | conditions | published | simulated | error %% | source |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::map<std::string, bool> printed;
  nlohmann::json metrics = nlohmann::json::object();
  int finite = 0, total = 0;
  auto print = [&](const std::string& id, const YAML::Node& r) {
    const double sim = rows[id];
    ++total;
    if (std::isfinite(sim)) ++finite;
    printed[id] = true;
    const bool described = r.IsMap();
    std::string unit = described ? scalar(r, "unit") : "";
    std::string quantity = described ? scalar(r, "quantity") : id;
    std::string cond = described ? scalar(r, "conditions") : "";
    if (timing_rows.count(id) != 0) cond += "; timing-only (aicore.functional=false)";
    std::string pub = "—", err = "—", source = "—";
    const YAML::Node pubs = described ? r["published"] : YAML::Node();
    if (pubs && pubs[config]) {
      const YAML::Node& p = pubs[config];
      source = scalar(p, "source");
      if (!scalar(p, "conditions").empty()) cond += "; published: " + scalar(p, "conditions");
      double lo = NAN, hi = NAN;
      if (p["value"]) lo = hi = p["value"].as<double>();
      if (p["min"]) lo = p["min"].as<double>();
      if (p["max"]) hi = p["max"].as<double>();
      if (std::isfinite(lo) && std::isfinite(hi)) {
        pub = lo == hi ? fmt(lo) : fmt(lo) + "–" + fmt(hi);
        pub += " " + unit;
        if (std::isfinite(sim)) {
          const double e = sim < lo ? (sim - lo) / lo : sim > hi ? (sim - hi) / hi : 0.0;
          char b[32];
          std::snprintf(b, sizeof b, "%+.0f", e * 100);
          if (std::fabs(e * 100) < 0.5) std::snprintf(b, sizeof b, "0");
          err = b;
          if (lo != hi && e == 0.0) err = "0 (in range)";
        }
      }
    }
    if (std::isfinite(sim)) metrics[id] = {{"value", sim}, {"unit", unit}, {"desc", quantity}};
    std::printf("| %s | %s | %s | %s %s | %s | %s |\n", quantity.c_str(), cond.c_str(),
                pub.c_str(), fmt(sim).c_str(), unit.c_str(), err.c_str(), source.c_str());
  };
  try {
    const YAML::Node list = doc["rows"];
    if (!list.IsSequence()) throw std::runtime_error("no 'rows' list");
    for (const auto& r : list) {
      const std::string id = scalar(r, "id");
      if (rows.count(id) != 0) print(id, r);
    }
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "fidelity: %s: %s\n", published.c_str(), e.what());
    return 1;
  }
  for (const auto& [id, v] : rows)
    if (!printed[id]) print(id, YAML::Node());
  std::printf("\nfidelity: %d of %d rows have a finite simulated value\n", finite, total);
  if (!out.empty()) {
    std::filesystem::create_directories(out, ec);
    std::ofstream f(out + "/stats.json");
    f << nlohmann::json{{"fidelity", metrics}, {"preset", config}}.dump(2) << "\n";
    if (!f) {
      std::fprintf(stderr, "fidelity: cannot write %s/stats.json\n", out.c_str());
      return 1;
    }
  }
  return finite == total && total > 0 ? 0 : 1;
}
