// SPDX-License-Identifier: Apache-2.0
// npusim_hccl_test: an HCCL performance tester in the manner of CANN's hccl_test, on the simulated
// server. One host thread per rank (rank r on device r, HcclCommInitRootInfo), for every size from
// -b to -e (times -f): -w warm-up runs, then -n timed runs of the collective on each rank's
// stream between two events; prints one line per size:
//   data_size (bytes per rank: the buffer each rank contributes, as hccl_test counts it),
//   aveg_time (us, simulated: the slowest rank's (end event - start event) / n),
//   alg_bandwidth (GB/s = data_size / aveg_time),
//   check_result (the last result compared element by element with the expected values).
// Buffers are in place (send = recv: half the host memory for 1 GiB on 8 ranks; AlltoAll has a
// separate output, zeroed); every rank's
// input is 1.0 (all_reduce: the result after k runs is n^k, exact in fp32 while below 2^24) or
// rank + 1 (the others). Usage:
//   npusim_hccl_test [-t all_reduce|all_gather|reduce_scatter|broadcast|alltoall] [-p ranks]
//                    [-b 8K] [-e 64M] [-f 2] [-n 5] [-w 1] [-c 1]
// Use NPUSIM_CONFIG / NPUSIM_SET to pick the server (soc.num_devices >= -p).
#include "hccl/hccl.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_check.h"

namespace {

#define CHECK_ACL(call) BENCH_CHECK(call)

std::uint64_t parse_size(const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  switch (end != nullptr ? *end : '\0') {
    case 'K':
    case 'k':
      v *= 1024;
      break;
    case 'M':
    case 'm':
      v *= 1024.0 * 1024;
      break;
    case 'G':
    case 'g':
      v *= 1024.0 * 1024 * 1024;
      break;
    default:
      break;
  }
  return static_cast<std::uint64_t>(v);
}

struct Options {
  std::string op = "all_reduce";
  std::uint32_t ranks = 8;
  std::uint64_t begin = 8 * 1024;
  std::uint64_t end = 64 * 1024 * 1024;
  double factor = 2;
  int iters = 5;
  int warmup = 1;
  bool check = true;
};

// A host-side barrier of the rank threads (C++17 has no std::barrier).
class HostBarrier {
 public:
  explicit HostBarrier(std::uint32_t n) : n_(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(m_);
    const std::uint64_t gen = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != gen; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::uint32_t n_;
  std::uint32_t arrived_ = 0;
  std::uint64_t generation_ = 0;
};

struct Shared {
  explicit Shared(std::uint32_t ranks) : host_barrier(ranks) {}
  Options opt;
  HostBarrier host_barrier;
  HcclRootInfo root{};
  std::vector<float> time_us;  // by rank, of the current size
  std::vector<int> ok;         // by rank
};

// Element count of the buffer every rank allocates for `bytes` of data per rank.
std::uint64_t buffer_elems(const Options& o, std::uint64_t elems) {
  if (o.op == "all_gather" || o.op == "reduce_scatter") return elems * o.ranks;
  return elems;
}

HcclResult run_once(const Options& o, HcclComm comm, aclrtStream s, void* buf, void* out,
                    std::uint64_t elems) {
  const std::uint32_t n = o.ranks;
  char* base = static_cast<char*>(buf);
  if (o.op == "all_reduce") {
    return HcclAllReduce(buf, buf, elems, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
  }
  if (o.op == "all_gather") {  // rank r's block is already in place
    std::uint32_t r = 0;
    HcclGetRankId(comm, &r);
    return HcclAllGather(base + r * elems * 4, buf, elems, HCCL_DATA_TYPE_FP32, comm, s);
  }
  if (o.op == "reduce_scatter") {
    std::uint32_t r = 0;
    HcclGetRankId(comm, &r);
    return HcclReduceScatter(buf, base + r * elems * 4, elems, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX,
                             comm, s);
  }
  if (o.op == "broadcast") return HcclBroadcast(buf, elems, HCCL_DATA_TYPE_FP32, 0, comm, s);
  if (o.op == "alltoall") {
    const std::uint64_t per = elems / n;
    return HcclAlltoAll(buf, per, HCCL_DATA_TYPE_FP32, out, per, HCCL_DATA_TYPE_FP32, comm, s);
  }
  return HCCL_E_PARA;
}

void rank_main(Shared& sh, std::uint32_t rank) {
  const Options& o = sh.opt;
  CHECK_ACL(aclrtSetDevice(static_cast<int32_t>(rank)));
  HcclComm comm = nullptr;
  CHECK_ACL(HcclCommInitRootInfo(o.ranks, &sh.root, rank, &comm));
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));
  aclrtEvent start = nullptr, stop = nullptr;
  CHECK_ACL(aclrtCreateEvent(&start));
  CHECK_ACL(aclrtCreateEvent(&stop));
  constexpr std::uint64_t kChunk = 16u << 20;  // host staging of the inputs
  void* host = nullptr;
  CHECK_ACL(aclrtMallocHost(&host, kChunk));
  for (std::uint64_t bytes = o.begin; bytes <= o.end;
       bytes = std::max<std::uint64_t>(bytes + 1, static_cast<std::uint64_t>(bytes * o.factor))) {
    const std::uint64_t elems = std::max<std::uint64_t>(bytes / 4, 1);
    const std::uint64_t total = buffer_elems(o, elems);
    void* buf = nullptr;
    CHECK_ACL(aclrtMalloc(&buf, total * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    void* out = nullptr;  // AlltoAll only (its buffers must not overlap)
    if (o.op == "alltoall") {
      CHECK_ACL(aclrtMalloc(&out, total * 4, ACL_MEM_MALLOC_HUGE_FIRST));
      CHECK_ACL(aclrtMemset(out, total * 4, 0, total * 4));
    }
    const float input = o.op == "all_reduce" ? 1.0f : static_cast<float>(rank + 1);
    std::vector<float> fill(kChunk / 4, input);
    std::memcpy(host, fill.data(), kChunk);
    for (std::uint64_t off = 0; off < total * 4; off += kChunk) {
      const std::uint64_t len = std::min<std::uint64_t>(kChunk, total * 4 - off);
      CHECK_ACL(
          aclrtMemcpy(static_cast<char*>(buf) + off, len, host, len, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    for (int i = 0; i < o.warmup; ++i) CHECK_ACL(run_once(o, comm, s, buf, out, elems));
    // Every rank starts from the same simulated moment, and every rank queues all its timed runs
    // before any thread lets the simulation run (host barriers): the figure is the device's, not
    // the host threads' interleaving.
    CHECK_ACL(HcclBarrier(comm, s));
    CHECK_ACL(aclrtSynchronizeStream(s));
    sh.host_barrier.arrive_and_wait();
    CHECK_ACL(aclrtRecordEvent(start, s));
    for (int i = 0; i < o.iters; ++i) CHECK_ACL(run_once(o, comm, s, buf, out, elems));
    CHECK_ACL(aclrtRecordEvent(stop, s));
    sh.host_barrier.arrive_and_wait();
    CHECK_ACL(aclrtSynchronizeStream(s));
    float ms = 0;
    CHECK_ACL(aclrtEventElapsedTime(&ms, start, stop));
    sh.time_us[rank] = ms * 1000.0f / static_cast<float>(o.iters);
    // Expected values of the rank's buffer.
    int ok = 1;
    if (o.check) {
      const int runs = o.warmup + o.iters;
      double want_all = 1;
      if (o.op == "all_reduce") {
        for (int i = 0; i < runs; ++i) want_all *= o.ranks;
      }
      const std::uint64_t check_elems = o.op == "reduce_scatter" ? elems : total;
      const std::uint64_t first = o.op == "reduce_scatter" ? rank * elems : 0;
      for (std::uint64_t off = 0; off < check_elems * 4 && ok; off += kChunk) {
        const std::uint64_t len = std::min<std::uint64_t>(kChunk, check_elems * 4 - off);
        const char* result = static_cast<const char*>(o.op == "alltoall" ? out : buf);
        CHECK_ACL(aclrtMemcpy(host, len, result + first * 4 + off, len, ACL_MEMCPY_DEVICE_TO_HOST));
        const float* v = static_cast<const float*>(host);
        for (std::uint64_t i = 0; i < len / 4; ++i) {
          const std::uint64_t e = off / 4 + i;  // element of the checked range
          float want = 0;
          if (o.op == "all_reduce") {
            want = static_cast<float>(want_all);
          } else if (o.op == "all_gather") {
            want = static_cast<float>(e / elems + 1);
          } else if (o.op == "reduce_scatter") {
            want = static_cast<float>(o.ranks);  // MAX of rank + 1
          } else if (o.op == "broadcast") {
            want = 1.0f;
          } else {  // alltoall: block k came from rank k; past the blocks: untouched (0)
            const std::uint64_t per = elems / o.ranks;
            want = per == 0 || e >= per * o.ranks ? 0.0f : static_cast<float>(e / per + 1);
          }
          if (v[i] != want) {
            ok = 0;
            break;
          }
        }
      }
    }
    sh.ok[rank] = ok;
    CHECK_ACL(HcclBarrier(comm, s));
    CHECK_ACL(aclrtSynchronizeStream(s));
    if (rank == 0) {
      // The other ranks finished their timing before the barrier above completed.
      float worst = 0;
      int all_ok = 1;
      for (std::uint32_t r = 0; r < o.ranks; ++r) {
        worst = std::max(worst, sh.time_us[r]);
        all_ok &= sh.ok[r];
      }
      const double gbps = static_cast<double>(bytes) / (worst * 1e-6) / 1e9;
      std::printf("%20llu %18.3f %22.4f %16s\n", static_cast<unsigned long long>(bytes), worst,
                  gbps, o.check ? (all_ok ? "success" : "fail") : "NULL");
      std::fflush(stdout);
    }
    CHECK_ACL(HcclBarrier(comm, s));  // rank 0 printed before anyone frees or rewrites
    CHECK_ACL(aclrtSynchronizeStream(s));
    CHECK_ACL(aclrtFree(buf));
    if (out != nullptr) CHECK_ACL(aclrtFree(out));
  }
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtDestroyEvent(start));
  CHECK_ACL(aclrtDestroyEvent(stop));
  CHECK_ACL(HcclCommDestroy(comm));
  CHECK_ACL(aclrtDestroyStream(s));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* v = argv[i + 1];
    if (key == "-t")
      o.op = v;
    else if (key == "-p")
      o.ranks = static_cast<std::uint32_t>(std::atoi(v));
    else if (key == "-b")
      o.begin = parse_size(v);
    else if (key == "-e")
      o.end = parse_size(v);
    else if (key == "-f")
      o.factor = std::atof(v);
    else if (key == "-n")
      o.iters = std::atoi(v);
    else if (key == "-w")
      o.warmup = std::atoi(v);
    else if (key == "-c")
      o.check = std::atoi(v) != 0;
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (o.op != "all_reduce" && o.op != "all_gather" && o.op != "reduce_scatter" &&
      o.op != "broadcast" && o.op != "alltoall") {
    std::fprintf(stderr,
                 "-t must be all_reduce, all_gather, reduce_scatter, broadcast or alltoall\n");
    return 2;
  }
  if (o.iters < 1 || o.warmup < 0 || o.factor <= 1 || o.begin == 0 || o.end < o.begin) {
    std::fprintf(stderr, "bad -n/-w/-f/-b/-e\n");
    return 2;
  }
  CHECK_ACL(aclInit(nullptr));
  std::uint32_t devices = 0;
  CHECK_ACL(aclrtGetDeviceCount(&devices));
  if (o.ranks < 1 || o.ranks > devices) {
    std::fprintf(stderr, "-p %u: the server has %u device(s) (NPUSIM_SET soc.num_devices=...)\n",
                 o.ranks, devices);
    return 2;
  }
  Shared sh(o.ranks);
  sh.opt = o;
  CHECK_ACL(aclrtSetDevice(0));
  CHECK_ACL(HcclGetRootInfo(&sh.root));
  sh.time_us.assign(o.ranks, 0);
  sh.ok.assign(o.ranks, 0);
  std::printf(
      "the minimum data size: %llu Bytes, the maximum data size: %llu Bytes, %u ranks, %s\n",
      static_cast<unsigned long long>(o.begin), static_cast<unsigned long long>(o.end), o.ranks,
      o.op.c_str());
  std::printf("%20s %18s %22s %16s\n",
              "data_size(Bytes):", "aveg_time(us):", "alg_bandwidth(GB/s):", "check_result:");
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < o.ranks; ++r) threads.emplace_back(rank_main, std::ref(sh), r);
  for (auto& t : threads) t.join();
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return 0;
}
