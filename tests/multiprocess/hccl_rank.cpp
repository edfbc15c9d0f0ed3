// SPDX-License-Identifier: Apache-2.0
// Ranks of an HCCL communicator, one process per rank (as torchrun runs them) or several ranks
// per process in host threads: the process holding rank 0 writes HcclGetRootInfo's root info to
// a file, the others poll for it; every rank joins with HcclCommInitRootInfo on device `rank` and
// runs collectives, checking every result exactly.
//   hccl_rank <rank>[+<rank>...] <nranks> <root-info file> [<dead rank> | repeat=N]
// Prints "rank R: OK" per rank and exits 0 when every check passed. With <dead rank>, that rank's
// process exits without cleaning up right after joining; the others' first AllReduce must then
// fail (not hang): they print "rank R: peer lost: <aclError>" and exit 0.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

thread_local int g_rank = 0;

#define CHECK_ACL(x)                                                                      \
  do {                                                                                    \
    const int rc_ = (x);                                                                  \
    if (rc_ != 0) {                                                                       \
      std::fprintf(stderr, "rank %d: %s failed: %d (line %d)\n", g_rank, #x, rc_, __LINE__); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

bool read_root_info(const std::string& path, HcclRootInfo* info) {
  for (int i = 0; i < 6000; ++i) {  // up to 60 s for rank 0 to write it
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
      const std::size_t n = std::fread(info, 1, sizeof *info, f);
      std::fclose(f);
      if (n == sizeof *info) return true;
    }
    ::usleep(10000);
  }
  return false;
}

// Element i of rank r's input: small integers, exact in fp32 sums.
float input(int r, std::size_t i) {
  return static_cast<float>(r * 1000 + static_cast<int>(i % 97));
}

// Rank `rank`'s input and the sum of every rank's, element by element (sized by the callers).
void sum_inputs(int rank, int n, std::vector<float>* in, std::vector<float>* sum) {
  for (std::size_t i = 0; i < in->size(); ++i) {
    (*in)[i] = input(rank, i);
    float s = 0;
    for (int r = 0; r < n; ++r) s += input(r, i);
    (*sum)[i] = s;
  }
}

// Rank `rank`'s input of n chunks and the last rank's chunk `rank`: what a scatter from the
// last rank, or a max-reduction of inputs growing with the rank, leaves on rank `rank`.
void chunk_inputs(int rank, int n, std::vector<float>* in, std::vector<float>* chunk) {
  for (std::size_t i = 0; i < in->size(); ++i) (*in)[i] = input(rank, i);
  for (std::size_t i = 0; i < chunk->size(); ++i) {
    (*chunk)[i] = input(n - 1, rank * chunk->size() + i);
  }
}

struct Device {
  void* p = nullptr;
  std::size_t bytes = 0;
  explicit Device(std::size_t n) : bytes(n) {
    CHECK_ACL(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ~Device() { aclrtFree(p); }
  void put(const std::vector<float>& v) {
    CHECK_ACL(aclrtMemcpy(p, bytes, v.data(), v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<float> get(std::size_t n) {
    std::vector<float> v(n);
    CHECK_ACL(aclrtMemcpy(v.data(), n * 4, p, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
};

thread_local int failures = 0;
void expect(const char* what, const std::vector<float>& got, const std::vector<float>& want) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "rank %d: %s: element %zu is %g, expected %g\n", g_rank, what, i,
                   static_cast<double>(got[i]), static_cast<double>(want[i]));
      ++failures;
      return;
    }
  }
}

struct Mode {
  int n = 0;
  int dead = -1;   // a rank whose process exits after joining
  int repeat = 0;  // > 0: the AllReduce cost measurement
};

// One rank, on device `rank`: joins, runs the collectives, checks them. 0: every check passed.
int run_rank(int rank, const HcclRootInfo& root, const Mode& mode) {
  g_rank = rank;
  const int n = mode.n;
  const int dead = mode.dead;
  const bool bench = mode.repeat > 0;
  const int repeat = mode.repeat;
  CHECK_ACL(aclrtSetDevice(rank));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  HcclComm comm = nullptr;
  CHECK_ACL(HcclCommInitRootInfo(static_cast<uint32_t>(n), &root, static_cast<uint32_t>(rank),
                                 &comm));
  uint32_t size = 0, id = 0;
  CHECK_ACL(HcclGetRankSize(comm, &size));
  CHECK_ACL(HcclGetRankId(comm, &id));
  if (size != static_cast<uint32_t>(n) || id != static_cast<uint32_t>(rank)) {
    std::fprintf(stderr, "rank %d: size %u id %u\n", rank, size, id);
    return 1;
  }

  if (bench) {
    Device send(4096), recv(4096);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repeat; ++i) {
      CHECK_ACL(HcclAllReduce(send.p, recv.p, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                              stream));
      CHECK_ACL(aclrtSynchronizeStream(stream));
    }
    const double us = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - start).count();
    std::printf("rank %d: %d AllReduces of 4 KB, %.1f us of host wall time each\n", rank, repeat,
                us / repeat);
    CHECK_ACL(HcclCommDestroy(comm));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(rank));
    return 0;
  }
  if (dead >= 0) {
    if (rank == dead) ::_exit(3);  // a crash: no HcclCommDestroy, no aclFinalize
    Device send(4096), recv(4096);
    CHECK_ACL(HcclAllReduce(send.p, recv.p, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                            stream));
    const int rc = aclrtSynchronizeStream(stream);
    if (rc == 0) {
      std::fprintf(stderr, "rank %d: the AllReduce with a dead rank succeeded\n", rank);
      return 1;
    }
    std::printf("rank %d: peer lost: %d\n", rank, rc);
    HcclCommDestroy(comm);
    aclrtDestroyStream(stream);
    aclrtResetDevice(rank);
    return 0;
  }

  // AllReduce (sum), below the ring threshold (mesh) and above it (ring: 1 MiB and more).
  for (const std::size_t count : {std::size_t{1000}, std::size_t{300000}}) {
    Device send(count * 4), recv(count * 4);
    std::vector<float> in(count), want(count);
    sum_inputs(rank, n, &in, &want);
    send.put(in);
    CHECK_ACL(HcclAllReduce(send.p, recv.p, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
                            stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect(count < 1000 * 2 ? "HcclAllReduce (mesh)" : "HcclAllReduce (ring)", recv.get(count),
           want);
  }
  // Broadcast from the last rank, AllGather, ReduceScatter (max).
  {
    const std::size_t count = 512;
    Device buf(count * 4);
    std::vector<float> in(count), want(count);
    for (std::size_t i = 0; i < count; ++i) {
      in[i] = input(rank, i);
      want[i] = input(n - 1, i);
    }
    buf.put(in);
    CHECK_ACL(HcclBroadcast(buf.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>(n - 1), comm,
                            stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclBroadcast", buf.get(count), want);
  }
  {
    const std::size_t count = 256;
    Device send(count * 4), recv(count * 4 * n);
    std::vector<float> in(count), want(count * n);
    for (std::size_t i = 0; i < count; ++i) in[i] = input(rank, i);
    for (int r = 0; r < n; ++r) {
      for (std::size_t i = 0; i < count; ++i) want[r * count + i] = input(r, i);
    }
    send.put(in);
    CHECK_ACL(HcclAllGather(send.p, recv.p, count, HCCL_DATA_TYPE_FP32, comm, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclAllGather", recv.get(count * n), want);
  }
  {
    const std::size_t count = 128;
    Device send(count * 4 * n), recv(count * 4);
    std::vector<float> in(count * n), want(count);
    chunk_inputs(rank, n, &in, &want);
    send.put(in);
    CHECK_ACL(HcclReduceScatter(send.p, recv.p, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm,
                                stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclReduceScatter", recv.get(count), want);
  }
  // Reduce (sum) to rank 0, Scatter from the last rank, AlltoAll, Barrier.
  {
    const std::size_t count = 200;
    Device send(count * 4), recv(count * 4);
    std::vector<float> in(count), want(count);
    sum_inputs(rank, n, &in, &want);
    send.put(in);
    CHECK_ACL(HcclReduce(send.p, recv.p, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 0, comm,
                         stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    if (rank == 0) expect("HcclReduce", recv.get(count), want);
  }
  {
    const std::size_t count = 100;
    Device send(count * 4 * n), recv(count * 4);
    std::vector<float> in(count * n), want(count);
    chunk_inputs(rank, n, &in, &want);
    send.put(in);
    CHECK_ACL(HcclScatter(send.p, recv.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>(n - 1),
                          comm, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclScatter", recv.get(count), want);
  }
  {
    const std::size_t count = 50;  // per peer
    Device send(count * 4 * n), recv(count * 4 * n);
    std::vector<float> in(count * n), want(count * n);
    for (std::size_t i = 0; i < count * n; ++i) in[i] = input(rank, i);
    for (int r = 0; r < n; ++r) {
      for (std::size_t i = 0; i < count; ++i) want[r * count + i] = input(r, rank * count + i);
    }
    send.put(in);
    CHECK_ACL(HcclAlltoAll(send.p, count, HCCL_DATA_TYPE_FP32, recv.p, count, HCCL_DATA_TYPE_FP32,
                           comm, stream));
    CHECK_ACL(HcclBarrier(comm, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclAlltoAll", recv.get(count * n), want);
  }
  // Point to point around the ring: send to the next rank, receive from the previous one.
  if (n > 1) {
    const std::size_t count = 64;
    Device send(count * 4), recv(count * 4);
    std::vector<float> in(count), want(count);
    const int prev = (rank + n - 1) % n;
    for (std::size_t i = 0; i < count; ++i) {
      in[i] = input(rank, i);
      want[i] = input(prev, i);
    }
    send.put(in);
    if (rank % 2 == 0) {
      CHECK_ACL(HcclSend(send.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>((rank + 1) % n),
                         comm, stream));
      CHECK_ACL(HcclRecv(recv.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>(prev), comm,
                         stream));
    } else {
      CHECK_ACL(HcclRecv(recv.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>(prev), comm,
                         stream));
      CHECK_ACL(HcclSend(send.p, count, HCCL_DATA_TYPE_FP32, static_cast<uint32_t>((rank + 1) % n),
                         comm, stream));
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
    expect("HcclSend/HcclRecv", recv.get(count), want);
  }

  CHECK_ACL(HcclCommDestroy(comm));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(rank));
  if (failures != 0) return 1;
  std::printf("rank %d: OK\n", rank);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr,
                 "usage: hccl_rank <rank>[+<rank>...] <nranks> <root-info file> "
                 "[<dead rank> | repeat=N]\n");
    return 2;
  }
  // Ranks "a+b": this process holds several ranks, one host thread each (processes and threads
  // mixed in one communicator).
  std::vector<int> ranks;
  for (std::string spec = argv[1]; !spec.empty();) {
    const std::size_t plus = spec.find('+');
    ranks.push_back(std::atoi(spec.substr(0, plus).c_str()));
    spec = plus == std::string::npos ? "" : spec.substr(plus + 1);
  }
  Mode mode;
  mode.n = std::atoi(argv[2]);
  const std::string path = argv[3];
  // The 4th argument: a dead rank, or "repeat=N" (N AllReduces of 4 KB, each synchronised, with
  // the host wall time per AllReduce printed: the cost of crossing processes).
  const std::string extra = argc == 5 ? argv[4] : "";
  if (extra.rfind("repeat=", 0) == 0) {
    mode.repeat = std::atoi(extra.c_str() + 7);
  } else if (!extra.empty()) {
    mode.dead = std::atoi(extra.c_str());
  }
  g_rank = ranks.front();
  CHECK_ACL(aclInit(nullptr));
  HcclRootInfo root{};
  if (std::find(ranks.begin(), ranks.end(), 0) != ranks.end()) {
    CHECK_ACL(HcclGetRootInfo(&root));
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr || std::fwrite(&root, 1, sizeof root, f) != sizeof root) return 2;
    std::fclose(f);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) return 2;
  } else if (!read_root_info(path, &root)) {
    std::fprintf(stderr, "rank %d: no root info in %s\n", ranks.front(), path.c_str());
    return 2;
  }
  int result = 0;
  if (ranks.size() == 1) {
    result = run_rank(ranks.front(), root, mode);
  } else {
    std::vector<int> results(ranks.size(), 0);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      threads.emplace_back([&, i] { results[i] = run_rank(ranks[i], root, mode); });
    }
    for (std::thread& t : threads) t.join();
    for (int r : results) result = std::max(result, r);
  }
  CHECK_ACL(aclFinalize());
  return result;
}
