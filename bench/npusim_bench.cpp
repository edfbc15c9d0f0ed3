// SPDX-License-Identifier: Apache-2.0
// npusim benchmark (not a test): how fast the simulator runs, in wall time, on this machine.
//  1. small async copies (64 B H2D, pinned) on 1 stream and on 8 streams: simulated runtime
//     tasks per wall-second (API call + scheduling + DMA model + completion)
//  2. latency-bound copies (4 KiB) until one simulated second has passed: wall seconds
//  3. bulk copies (64 MiB) until one simulated second has passed: wall seconds, which includes
//     the real memcpy of every payload byte (device memory holds real bytes)
//  4. 10,000 launches of a 48-block vector-add kernel (bench/vadd_kernel.cpp): wall time,
//     simulated time and replayed pipe instructions per wall-second
//  5. stream churn: 20,000 create / copy / synchronize / destroy loops (wall time, RSS growth)
//  6. launch memory: RSS growth over 100 x [launches] launches of a 1-block kernel, untraced (nothing a
//     launch leaves behind may accumulate when no outputs are written)
//  7. traced small copies, in a child process run with NPUSIM_OUT set (tracing is on when outputs
//     are): tasks per wall-second, RSS growth per traced task, and the time and size of writing
//     the timeline (written to a temporary directory, then removed)
//  8. a 2048 x 2048 x 2048 fp16 matmul (bench/matmul_kernel.cpp: 128 x 256 base tiles, K steps
//     of 64, double buffered, one block per cube core), run functionally once: wall time,
//     simulated time, TFLOPS in simulated time, replayed pipe instructions per wall-second, a
//     check of 2048 sampled outputs against a double-precision host reference and a hash of
//     the output bits; then, in a child process with aicore.functional=false (timing-only),
//     the first launch (cold: the kernel body runs for every block) and then launches of it for
//     at least 3 wall seconds (warm: the runtime reuses the first launch's block traces,
//     runtime/core/trace_memo.h; NPUSIM_TRACE_MEMO=0 turns that off): replayed pipe instructions per
//     wall-second of each, and whether the simulated time per launch equals the functional run's
//  9. peak resident memory of the process
// Uses the default chip (or NPUSIM_CONFIG / NPUSIM_SET). Wall time here is measured on purpose;
// nothing the simulator reports uses it.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "npusim/ascendc/half.h"
#include "bench_check.h"

// bench/vadd_kernel.cpp (built with the Ascend C toolchain)
int32_t bench_vadd_do(uint32_t block_dim, void* stream, void* x, void* y, void* z, uint32_t len,
                      uint32_t tiles);
// bench/matmul_kernel.cpp
int32_t bench_matmul_do(void* stream, uint32_t blocks, void* a, void* b, void* c, uint32_t m,
                        uint32_t n, uint32_t k);
uint32_t bench_matmul_tiles(uint32_t m, uint32_t n);
long bench_matmul_instrs(uint32_t m, uint32_t n, uint32_t k);

#define CHECK(call) BENCH_CHECK(call)

namespace {

using Clock = std::chrono::steady_clock;

/// CPU time this process has used, in seconds (all threads).
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Resident set size of this process now, in bytes (/proc/self/statm).
long rss_bytes() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * sysconf(_SC_PAGESIZE);
}

/// Simulated time on `s` between two events, in seconds.
double simulated_seconds(aclrtEvent a, aclrtEvent b) {
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, a, b));
  return ms * 1e-3;
}

void small_copies(int streams, int tasks) {
  std::vector<aclrtStream> s(streams);
  for (auto& x : s) CHECK(aclrtCreateStream(&x));
  void *host = nullptr, *dev = nullptr;
  CHECK(aclrtMallocHost(&host, 64 * streams));
  CHECK(aclrtMalloc(&dev, 64 * streams, ACL_MEM_MALLOC_HUGE_FIRST));
  const long rss0 = rss_bytes();
  auto t0 = Clock::now();
  for (int i = 0; i < tasks; ++i) {
    int k = i % streams;
    CHECK(aclrtMemcpyAsync(static_cast<char*>(dev) + 64 * k, 64, static_cast<char*>(host) + 64 * k,
                           64, ACL_MEMCPY_HOST_TO_DEVICE, s[k]));
  }
  for (auto& x : s) CHECK(aclrtSynchronizeStream(x));
  double wall = seconds_since(t0);
  const long grown = rss_bytes() - rss0;
  std::printf("small async copies, %d stream(s)%s: %d tasks in %.3f s wall = %.0f tasks/s, RSS "
              "+%.1f MiB = %.0f B/task\n",
              streams, std::getenv("NPUSIM_OUT") != nullptr ? ", traced" : "", tasks, wall,
              tasks / wall, grown / 1048576.0, static_cast<double>(grown) / tasks);
  for (auto& x : s) CHECK(aclrtDestroyStream(x));
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
}

void one_simulated_second(size_t bytes, const char* what) {
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s));
  void *host = nullptr, *dev = nullptr;
  CHECK(aclrtMallocHost(&host, bytes));
  CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtEvent e0, e1;
  CHECK(aclrtCreateEvent(&e0));
  CHECK(aclrtCreateEvent(&e1));
  auto t0 = Clock::now();
  CHECK(aclrtRecordEvent(e0, s));
  long copies = 0;
  double sim = 0;
  while (sim < 1.0) {  // batches of 64 copies until one simulated second has passed
    for (int i = 0; i < 64; ++i, ++copies) {
      CHECK(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    }
    CHECK(aclrtRecordEvent(e1, s));
    CHECK(aclrtSynchronizeEvent(e1));
    sim = simulated_seconds(e0, e1);
  }
  double wall = seconds_since(t0);
  std::printf("%s: %ld copies, %.3f simulated s in %.3f wall s (%.2f wall s per simulated s)\n",
              what, copies, sim, wall, wall / sim);
  CHECK(aclrtDestroyEvent(e0));
  CHECK(aclrtDestroyEvent(e1));
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
}

/// Pipe instructions one block of bench_vadd replays: per tile MTE2 x2, V x1, MTE3 x1.
constexpr long kInstrPerTile = 4;

void kernel_launches(int launches) {
  constexpr uint32_t kBlocks = 48, kLen = 2048, kTiles = 8;
  constexpr size_t kBytes = sizeof(float) * kBlocks * kLen;
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s));
  std::vector<float> hx(kBlocks * kLen), hy(kBlocks * kLen), hz(kBlocks * kLen);
  for (size_t i = 0; i < hx.size(); ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = 0.5f * static_cast<float>(i);
  }
  void *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(aclrtMalloc(&x, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&y, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&z, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(x, kBytes, hx.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(y, kBytes, hy.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtEvent e0, e1;
  CHECK(aclrtCreateEvent(&e0));
  CHECK(aclrtCreateEvent(&e1));
  auto t0 = Clock::now();
  const double cpu0 = cpu_seconds();
  CHECK(aclrtRecordEvent(e0, s));
  for (int i = 0; i < launches; ++i) CHECK(bench_vadd_do(kBlocks, s, x, y, z, kLen, kTiles));
  CHECK(aclrtRecordEvent(e1, s));
  CHECK(aclrtSynchronizeStream(s));
  double wall = seconds_since(t0);
  const double cpu = cpu_seconds() - cpu0;
  double sim = simulated_seconds(e0, e1);
  CHECK(aclrtMemcpy(hz.data(), kBytes, z, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < hz.size(); ++i) {
    if (hz[i] != hx[i] + hy[i]) {
      std::fprintf(stderr, "bench_vadd: wrong result at %zu\n", i);
      std::exit(1);
    }
  }
  long instrs = static_cast<long>(launches) * kBlocks * kTiles * kInstrPerTile;
  std::printf(
      "%d launches of a %u-block vector add: %.3f wall s, %.3f CPU s, %.3f simulated ms, %ld "
      "pipe instructions = %.0f instructions/s (%.0f per CPU-second)\n",
      launches, kBlocks, wall, cpu, sim * 1e3, instrs, instrs / wall, instrs / cpu);
  CHECK(aclrtDestroyEvent(e0));
  CHECK(aclrtDestroyEvent(e1));
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtFree(x));
  CHECK(aclrtFree(y));
  CHECK(aclrtFree(z));
}

/// `loops` times: create a stream, copy 64 B on it, synchronize, destroy it (state that every
/// stream ever used left behind made this slow down and grow). Wall time and RSS growth.
void stream_churn(int loops) {
  void *host = nullptr, *dev = nullptr;
  CHECK(aclrtMallocHost(&host, 64));
  CHECK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  const long rss0 = rss_bytes();
  auto t0 = Clock::now();
  for (int i = 0; i < loops; ++i) {
    aclrtStream s = nullptr;
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtDestroyStream(s));
  }
  const double wall = seconds_since(t0);
  std::printf("%d stream create/copy/sync/destroy loops: %.3f wall s, RSS %+.1f MiB\n", loops, wall,
              (rss_bytes() - rss0) / 1048576.0);
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
}

/// Untraced launches of a 1-block, 1-tile vector add (64 floats): RSS after `launches / 10` and
/// after `launches`; the growth in between, per launch, is memory a launch leaves behind.
void launch_memory(int launches) {
  constexpr uint32_t kLen = 64;
  constexpr size_t kBytes = sizeof(float) * kLen;
  aclrtStream s = nullptr;
  CHECK(aclrtCreateStream(&s));
  void *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(aclrtMalloc(&x, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&y, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&z, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  const int first = launches / 10;
  long rss_first = 0;
  auto t0 = Clock::now();
  for (int i = 0; i < launches; ++i) {
    CHECK(bench_vadd_do(1, s, x, y, z, kLen, 1));
    if (i + 1 == first) {
      CHECK(aclrtSynchronizeStream(s));
      rss_first = rss_bytes();
    }
  }
  CHECK(aclrtSynchronizeStream(s));
  const double wall = seconds_since(t0);
  const long grown = rss_bytes() - rss_first;
  std::printf("%d launches of a 1-block kernel%s: %.3f wall s = %.0f launches/s; RSS %.1f MiB "
              "after %d, %+.1f MiB after %d = %.1f B/launch\n",
              launches, std::getenv("NPUSIM_OUT") != nullptr ? ", traced" : "", wall,
              launches / wall, rss_first / 1048576.0, first, grown / 1048576.0, launches,
              static_cast<double>(grown) / (launches - first));
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtFree(x));
  CHECK(aclrtFree(y));
  CHECK(aclrtFree(z));
}

/// The traced section: this program again, with NPUSIM_OUT set to a temporary directory.
/// Runs this program again (/proc/self/exe) with `args`, in this environment without the
/// variables starting with `drop` and with `add`; the child's wait status.
int run_self(std::vector<std::string> args, const char* drop, std::vector<std::string> add) {
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, drop, std::strlen(drop)) != 0) env_text.emplace_back(*e);
  }
  env_text.insert(env_text.end(), add.begin(), add.end());
  std::vector<char*> env, argv;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), env.data()) != 0) {
    std::perror("posix_spawn");
    std::exit(1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

void exit_unless_passed(int status, const char* section) {
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "%s failed (status %d)\n", section, status);
    std::exit(1);
  }
}

void traced_child(char* self, int tasks) {
  char dir_template[] = "/tmp/npusim_bench_trace_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) {
    std::perror("mkdtemp");
    std::exit(1);
  }
  const int status = run_self({self, std::to_string(tasks), "--traced-child"}, "NPUSIM_OUT=",
                              {std::string("NPUSIM_OUT=") + dir});
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  exit_unless_passed(status, "traced section");
}

/// In the child: traced small copies (half the tasks on 1 stream, half on 8), then the outputs.
int traced_copies(int tasks) {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  small_copies(1, tasks / 2);
  small_copies(8, tasks / 2);
  CHECK(aclrtResetDevice(0));
  auto t0 = Clock::now();
  CHECK(aclFinalize());  // writes timeline.json
  const double wall = seconds_since(t0);
  const char* dir = std::getenv("NPUSIM_OUT");
  std::error_code ec;
  const auto size = std::filesystem::file_size(std::string(dir) + "/timeline.json", ec);
  std::printf("traced: outputs written in %.3f s wall (timeline.json %.1f MiB)\n", wall,
              ec ? 0.0 : static_cast<double>(size) / 1048576.0);
  return 0;
}

using Half = npusim::ascendc::Half;

constexpr uint32_t kMmM = 2048, kMmN = 2048, kMmK = 2048;

/// The matmul's operands on the device and the launch shape.
struct MatmulSetup {
  aclrtStream s = nullptr;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  uint32_t blocks = 0;
  std::vector<Half> ha, hb;
};

MatmulSetup matmul_setup() {
  MatmulSetup st;
  CHECK(aclrtCreateStream(&st.s));
  st.ha.resize(static_cast<size_t>(kMmM) * kMmK);
  st.hb.resize(static_cast<size_t>(kMmK) * kMmN);
  for (size_t i = 0; i < st.ha.size(); ++i)
    st.ha[i] = Half(std::sin(0.1f * static_cast<float>(i % 100003)));
  for (size_t i = 0; i < st.hb.size(); ++i)
    st.hb[i] = Half(std::cos(0.07f * static_cast<float>(i % 100019)) * 0.5f);
  const size_t a_bytes = st.ha.size() * 2, b_bytes = st.hb.size() * 2;
  const size_t c_bytes = static_cast<size_t>(kMmM) * kMmN * 2;
  CHECK(aclrtMalloc(&st.a, a_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&st.b, b_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&st.c, c_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(st.a, a_bytes, st.ha.data(), a_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(st.b, b_bytes, st.hb.data(), b_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  int64_t cores = 0;
  CHECK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &cores));
  const uint32_t tiles = bench_matmul_tiles(kMmM, kMmN);
  st.blocks = cores > 0 && static_cast<uint32_t>(cores) < tiles ? static_cast<uint32_t>(cores)
                                                               : tiles;
  // One small launch first: the runtime learns from it that the kernel is a cube (AIC) kernel;
  // until then it would place launches on vector cores.
  CHECK(bench_matmul_do(st.s, 1, st.a, st.b, st.c, 128, 256, 64));
  CHECK(aclrtSynchronizeStream(st.s));
  return st;
}

void matmul_teardown(MatmulSetup& st) {
  CHECK(aclrtDestroyStream(st.s));
  CHECK(aclrtFree(st.a));
  CHECK(aclrtFree(st.b));
  CHECK(aclrtFree(st.c));
}

/// `launches` launches of the 2048^3 matmul; wall, CPU and simulated seconds.
void matmul_run(MatmulSetup& st, long launches, double& wall, double& sim, double& cpu) {
  const double cpu0 = cpu_seconds();
  aclrtEvent e0, e1;
  CHECK(aclrtCreateEvent(&e0));
  CHECK(aclrtCreateEvent(&e1));
  auto t0 = Clock::now();
  CHECK(aclrtRecordEvent(e0, st.s));
  for (long i = 0; i < launches; ++i) {
    CHECK(bench_matmul_do(st.s, st.blocks, st.a, st.b, st.c, kMmM, kMmN, kMmK));
  }
  CHECK(aclrtRecordEvent(e1, st.s));
  CHECK(aclrtSynchronizeStream(st.s));
  wall = seconds_since(t0);
  cpu = cpu_seconds() - cpu0;
  sim = simulated_seconds(e0, e1);
  CHECK(aclrtDestroyEvent(e0));
  CHECK(aclrtDestroyEvent(e1));
}

void matmul_functional(char* self) {
  MatmulSetup st = matmul_setup();
  double wall = 0, sim = 0, cpu = 0;
  matmul_run(st, 1, wall, sim, cpu);
  std::vector<Half> hc(static_cast<size_t>(kMmM) * kMmN);
  CHECK(aclrtMemcpy(hc.data(), hc.size() * 2, st.c, hc.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST));
  uint64_t hash = 14695981039346656037ull;  // FNV-1a over the output bits
  for (const Half& v : hc) hash = (hash ^ v.bits()) * 1099511628211ull;
  // 2048 sampled outputs against a double-precision reference: fp32 accumulation of exact
  // products (K * 2^-24 * sum |a * b|) plus the rounding to half (2^-11 relative).
  for (uint32_t t = 0; t < 2048; ++t) {
    const size_t i = (static_cast<size_t>(t) * 2654435761u) % hc.size();
    double ref = 0, scale = 0;
    for (uint32_t k = 0; k < kMmK; ++k) {
      const double p = static_cast<double>(static_cast<float>(st.ha[i / kMmN * kMmK + k])) *
                       static_cast<float>(st.hb[static_cast<size_t>(k) * kMmN + i % kMmN]);
      ref += p;
      scale += std::fabs(p);
    }
    if (std::fabs(static_cast<float>(hc[i]) - ref) >
        std::ldexp(std::fabs(ref), -11) + std::ldexp(kMmK * scale, -24)) {
      std::fprintf(stderr, "bench_matmul: wrong result at %zu: %g, expected %g\n", i,
                   static_cast<double>(static_cast<float>(hc[i])), ref);
      std::exit(1);
    }
  }
  const long instrs = bench_matmul_instrs(kMmM, kMmN, kMmK);
  std::printf(
      "fp16 matmul %ux%ux%u, %u blocks, functional: %.3f wall s, %.3f CPU s (target <= 10 "
      "wall s: %s), %.3f simulated ms = %.1f TFLOPS in simulated time, %ld pipe instructions = "
      "%.0f instructions/s (output hash %016llx)\n",
      kMmM, kMmN, kMmK, st.blocks, wall, cpu, wall <= 10.0 ? "met" : "MISSED", sim * 1e3,
      2.0 * kMmM * kMmN * kMmK / sim * 1e-12, instrs, instrs / wall,
      static_cast<unsigned long long>(hash));
  matmul_teardown(st);
  // The timing-only run: this program again, with aicore.functional=false.
  std::string set = "aicore.functional=false";
  if (const char* old = std::getenv("NPUSIM_SET"); old != nullptr && *old != '\0')
    set = std::string(old) + ";" + set;
  char sim_arg[64];
  std::snprintf(sim_arg, sizeof sim_arg, "%.17g", sim);
  // The timing-only warning, once, is expected: NPUSIM_LOG=error.
  exit_unless_passed(run_self({self, sim_arg, "--timing-child"}, "NPUSIM_SET=",
                              {"NPUSIM_SET=" + set, "NPUSIM_LOG=error"}),
                     "timing-only section");
}

/// In the child (aicore.functional=false): launches for at least 3 wall seconds.
int matmul_timing_only(double functional_sim) {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  MatmulSetup st = matmul_setup();
  constexpr double kMinWall = 3.0;
  long launches = 0;
  double first_wall = 0, first_cpu = 0, first_sim = 0;
  matmul_run(st, 1, first_wall, first_sim, first_cpu);  // cold: alone, its simulated time
  double wall = 0, sim = 0, cpu = 0;
  while (wall < kMinWall) {
    double w = 0, s = 0, c = 0;
    const long batch = wall < 0.2 ? 1 : 1 + static_cast<long>(launches * 0.5);
    matmul_run(st, batch, w, s, c);
    launches += batch;
    wall += w;
    sim += s;
    cpu += c;
  }
  // A fixed batch, to compare simulated times with NPUSIM_TRACE_MEMO=0 (the loop's batches
  // depend on wall time).
  double fixed_sim = 0;
  {
    double w = 0, c = 0;
    matmul_run(st, 8, w, fixed_sim, c);
  }
  const long per_launch = bench_matmul_instrs(kMmM, kMmN, kMmK);
  const long instrs = launches * per_launch;
  const char* memo = std::getenv("NPUSIM_TRACE_MEMO");
  const bool memo_off = memo != nullptr && std::strcmp(memo, "0") == 0;
  // The target is judged per CPU-second: on a shared machine the wall rate also measures the
  // other processes.
  std::printf(
      "fp16 matmul %ux%ux%u, timing-only, first launch (cold: every block runs the kernel body): "
      "%.3f wall s, %.3f CPU s, %ld pipe instructions = %.0f instructions per wall-second, %.0f "
      "per CPU-second; simulated time %.6f ms, functional %.6f ms (%s)\n",
      kMmM, kMmN, kMmK, first_wall, first_cpu, per_launch, per_launch / first_wall,
      per_launch / first_cpu, first_sim * 1e3, functional_sim * 1e3,
      first_sim == functional_sim ? "identical" : "DIFFERENT");
  std::printf(
      "fp16 matmul %ux%ux%u, timing-only, later launches (warm: %s): %ld launches, %.3f wall s, "
      "%.3f CPU s, %ld pipe instructions = %.0f instructions per wall-second, %.0f per "
      "CPU-second (target >= 10 M: %s); simulated time %.6f ms per launch on average, 8 "
      "launches back to back %.9f ms\n",
      kMmM, kMmN, kMmK,
      memo_off ? "trace memo off, NPUSIM_TRACE_MEMO=0"
               : "block traces reused from the first launch",
      launches, wall, cpu, instrs, instrs / wall, instrs / cpu,
      instrs / cpu >= 1e7 ? "met" : "MISSED", sim * 1e3 / launches, fixed_sim * 1e3);
  matmul_teardown(st);
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // npusim_bench [tasks] [launches] [section...]
  //   sections: copies, second, kernels, streams, launches, traced, matmul (default all)
  int tasks = argc > 1 ? std::atoi(argv[1]) : 400000;
  if (argc > 2 && std::strcmp(argv[2], "--traced-child") == 0) return traced_copies(tasks);
  if (argc > 2 && std::strcmp(argv[2], "--timing-child") == 0)
    return matmul_timing_only(std::atof(argv[1]));
  int launches = argc > 2 ? std::atoi(argv[2]) : 10000;
  auto wanted = [&](const char* section) {
    if (argc <= 3) return true;
    for (int i = 3; i < argc; ++i) {
      if (std::strcmp(argv[i], section) == 0) return true;
    }
    return false;
  };
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  std::printf("npusim bench on %s\n", aclrtGetSocName());
  if (wanted("copies")) {
    small_copies(1, tasks);
    small_copies(8, tasks);
  }
  if (wanted("second")) {
    one_simulated_second(4096, "latency-bound 4 KiB H2D copies");
    one_simulated_second(64u << 20, "bulk 64 MiB H2D copies");
  }
  if (wanted("kernels")) kernel_launches(launches);
  if (wanted("streams")) stream_churn(20000);
  if (wanted("launches")) launch_memory(100 * launches);
  if (wanted("traced")) traced_child(argv[0], tasks);
  if (wanted("matmul")) matmul_functional(argv[0]);
  struct rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak resident memory: %.1f MiB\n", ru.ru_maxrss / 1024.0);
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}
