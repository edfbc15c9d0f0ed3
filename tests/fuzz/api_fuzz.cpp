// SPDX-License-Identifier: Apache-2.0
// A seeded random API-sequence fuzzer: several host threads call the ACL runtime in random order
// with valid, destroyed and null handles and pointers (streams, events, contexts, device, pinned
// and managed memory), random sizes, kinds, flags and timeouts. It checks that nothing crashes,
// hangs or corrupts (run it under ASan/UBSan too), that every call returns an aclError the API
// documents, and that memory does not grow from the first half of the run to the second.
//
//   npusim_api_fuzz [--seed N] [--calls N] [--threads N] [--ipc 1 | --tdt 1]
//                                                              (calls: total over all threads)
// --tdt 1 exercises the data-transfer APIs instead: channels (capacities, sends and receives
// with short timeouts, stop/clean/destroy under other threads' feet) and queues (enqueue,
// dequeue into buffers too small, routes bound and unbound between live and destroyed queues).
// --ipc 1 exercises the sharing APIs instead: virtual memory (reserve, physical allocations,
// map/unmap, shareable handles), IPC memory keys, IPC events and notifies, with copies through
// mappings that other threads unmap meanwhile.
//
// Prints "api fuzz: <calls> calls, <n> distinct error codes, RSS ..." and, last,
// "N passed, N failed" (failed = calls that returned an unknown code, or memory growth).
// Host memory is only ever passed as buffers the fuzzer owns: a wild host pointer would crash
// a real CANN program too, so it is not a finding.
#include <sys/resource.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

namespace {

// Codes a call may return here (the ones the API documents for these functions).
const std::set<int> kKnownCodes = {
    ACL_SUCCESS, ACL_ERROR_INVALID_PARAM, ACL_ERROR_UNINITIALIZE, ACL_ERROR_REPEAT_INITIALIZE,
    ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_RT_CONTEXT_NULL,
    ACL_ERROR_RT_STREAM_CONTEXT, ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_RT_MEMORY_FREE,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
    ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, ACL_ERROR_RT_EVENT_NOT_COMPLETE, ACL_ERROR_RT_INTERNAL_ERROR,
    ACL_ERROR_RT_DEVICE_MEM_ERROR, ACL_ERROR_RT_NO_STREAM_RESOURCE, ACL_ERROR_RT_NO_EVENT_RESOURCE,
    ACL_ERROR_RT_STREAM_TASK_FULL, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
    ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, ACL_ERROR_RT_ADDR_UNALIGNED,
    // model run instances
    ACL_ERROR_RT_STREAM_CAPTURED, ACL_ERROR_RT_STREAM_NOT_CAPTURED, ACL_ERROR_RT_MODEL_RUNNING,
    ACL_ERROR_RT_MODEL_CAPTURED, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
    // operators (aclnn): their own codes, and a kernel that read freed memory failing its stream
    ACLNN_ERR_PARAM_NULLPTR, ACLNN_ERR_PARAM_INVALID, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION,
    ACL_ERROR_RT_AICORE_EXCEPTION,
    // sharing (--ipc): a whitelist refusal
    ACL_ERROR_RT_NO_PERMISSION,
    // data transfer (--tdt): full / empty (also after a timeout), unknown queue, stopped channel
    ACL_ERROR_RT_QUEUE_FULL, ACL_ERROR_RT_QUEUE_EMPTY, ACL_ERROR_INVALID_QUEUE_ID, ACL_ERROR_FAILURE};

long rss_kib() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f != nullptr) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * 4;
}

/// Handles shared by every thread; destroyed ones stay in the pool (stale handles).
struct Pool {
  std::mutex m;
  std::vector<aclrtStream> streams{nullptr};
  std::vector<aclrtEvent> events{nullptr};
  std::vector<aclrtContext> contexts{nullptr};
  std::vector<void*> device{nullptr};
  std::vector<void*> pinned{nullptr};
  std::vector<void*> managed{nullptr};
  std::vector<aclmdlRI> models{nullptr};
  std::vector<aclTensor*> tensors{nullptr};
  std::vector<aclrtDrvMemHandle> physical{nullptr};
  std::vector<void*> reserved{nullptr};
  std::vector<std::uint64_t> shareable{0};
  std::vector<std::string> keys{"", "garbage"};
  std::vector<aclrtNotify> notifies{nullptr};
  std::vector<acltdtChannelHandle*> channels{nullptr};
  std::vector<std::uint32_t> queues{0, 999999};  // --tdt: queue ids (two never valid)

  template <class T>
  T pick(std::vector<T>& v, std::mt19937_64& rng) {
    std::lock_guard<std::mutex> lock(m);
    return v[rng() % v.size()];
  }
  /// Adds `h`; in a full pool it replaces one, which is returned to be released (a program that
  /// keeps dropping handles would leak; the fuzzer measures the runtime's memory, not that).
  template <class T>
  T add(std::vector<T>& v, T h) {
    std::lock_guard<std::mutex> lock(m);
    if (v.size() < 512) {
      v.push_back(h);
      return nullptr;
    }
    T& slot = v[1 + (reinterpret_cast<std::uintptr_t>(h) >> 6) % (v.size() - 1)];
    T old = slot;
    slot = h;
    return old;
  }
};

struct Stats {
  std::mutex m;
  std::set<int> codes;
  std::atomic<long> unknown{0};
  std::atomic<long> ipc_ok[16] = {};  // --ipc: successful calls per operation
};

constexpr std::size_t kBuf = 1 << 16;

void note(Stats& st, int code, const char* what) {
  if (kKnownCodes.count(code) == 0) {
    ++st.unknown;
    std::fprintf(stderr, "api fuzz: %s returned unknown code %d\n", what, code);
  }
  std::lock_guard<std::mutex> lock(st.m);
  st.codes.insert(code);
}

void worker(Pool& pool, Stats& st, std::uint64_t seed, long calls, long& done_calls) {
  std::mt19937_64 rng(seed);
  std::vector<char> host(kBuf, 1);
  aclrtSetDevice(0);
  auto size = [&rng] { return static_cast<std::size_t>(rng() % 5 == 0 ? rng() % kBuf : rng() % 256); };
  auto timeout = [&rng] { return static_cast<int32_t>(rng() % 4 == 0 ? -1 : rng() % 3); };
  for (long i = 0; i < calls; ++i) {
    const int op = static_cast<int>(rng() % 36);
    int rc = ACL_SUCCESS;
    switch (op) {
      case 0: { aclrtStream s = nullptr; rc = aclrtCreateStream(&s); if (rc == 0) aclrtDestroyStreamForce(pool.add(pool.streams, s)); break; }
      case 1: rc = aclrtDestroyStream(pool.pick(pool.streams, rng)); break;
      case 2: rc = aclrtDestroyStreamForce(pool.pick(pool.streams, rng)); break;
      case 3: rc = aclrtSynchronizeStreamWithTimeout(pool.pick(pool.streams, rng), timeout()); break;
      case 4: { aclrtEvent e = nullptr; rc = aclrtCreateEvent(&e); if (rc == 0) aclrtDestroyEvent(pool.add(pool.events, e)); break; }
      case 5: rc = aclrtRecordEvent(pool.pick(pool.events, rng), pool.pick(pool.streams, rng)); break;
      case 6: rc = aclrtStreamWaitEvent(pool.pick(pool.streams, rng), pool.pick(pool.events, rng)); break;
      case 7: rc = aclrtSynchronizeEventWithTimeout(pool.pick(pool.events, rng), timeout()); break;
      case 8: { aclrtEventRecordedStatus s; rc = aclrtQueryEventStatus(pool.pick(pool.events, rng), &s); break; }
      case 9: rc = aclrtDestroyEvent(pool.pick(pool.events, rng)); break;
      case 10: { float ms; rc = aclrtEventElapsedTime(&ms, pool.pick(pool.events, rng), pool.pick(pool.events, rng)); break; }
      case 11: { void* p = nullptr; rc = aclrtMalloc(&p, size() + 1, ACL_MEM_MALLOC_HUGE_FIRST); if (rc == 0) aclrtFree(pool.add(pool.device, p)); break; }
      case 12: rc = aclrtFree(pool.pick(pool.device, rng)); break;
      case 13: { void* p = nullptr; rc = aclrtMallocHost(&p, size() + 1); if (rc == 0) aclrtFreeHost(pool.add(pool.pinned, p)); break; }
      case 14: rc = aclrtFreeHost(pool.pick(pool.pinned, rng)); break;
      case 15: { void* p = nullptr; rc = aclrtMemAllocManaged(&p, size() + 1, ACL_RT_MEM_ATTACH_GLOBAL); if (rc == 0) aclrtFree(pool.add(pool.managed, p)); break; }
      case 16: case 17: {  // synchronous copies between any two of: device, pinned, managed, own host buffer
        void* sides[4] = {pool.pick(pool.device, rng), pool.pick(pool.pinned, rng),
                          pool.pick(pool.managed, rng), host.data()};
        const auto kind = static_cast<aclrtMemcpyKind>(rng() % 6);
        const std::size_t n = size();
        rc = aclrtMemcpy(sides[rng() % 4], n, sides[rng() % 4], n, kind);
        break;
      }
      case 18: {
        void* sides[4] = {pool.pick(pool.device, rng), pool.pick(pool.pinned, rng),
                          pool.pick(pool.managed, rng), host.data()};
        const auto kind = static_cast<aclrtMemcpyKind>(rng() % 6);
        const std::size_t n = size();
        // Asynchronous copies from the thread's own host buffer would need it to outlive the
        // task: they use pinned or device sides only.
        rc = aclrtMemcpyAsync(sides[rng() % 3], n, sides[rng() % 3], n, kind, pool.pick(pool.streams, rng));
        break;
      }
      case 19: { const std::size_t n = size(); rc = aclrtMemset(pool.pick(pool.device, rng), n, 0x5a, n); break; }
      case 20: { const std::size_t n = size(); rc = aclrtMemsetAsync(pool.pick(pool.device, rng), n, 0x5a, n, pool.pick(pool.streams, rng)); break; }
      case 21: { aclrtContext c = nullptr; rc = aclrtCreateContext(&c, 0); if (rc == 0) aclrtDestroyContext(pool.add(pool.contexts, c)); aclrtSetDevice(0); break; }
      case 22: rc = aclrtDestroyContext(pool.pick(pool.contexts, rng)); aclrtSetDevice(0); break;
      case 23: rc = aclrtSetCurrentContext(pool.pick(pool.contexts, rng)); if (rc != 0) aclrtSetDevice(0); break;
      case 24: { size_t f, t; rc = aclrtGetMemInfo(static_cast<aclrtMemAttr>(rng() % 8), &f, &t); break; }
      case 25: rc = aclrtSynchronizeDeviceWithTimeout(timeout()); break;
      case 26: {  // reductions over device buffers (or anything else) with any kind and type
        const int kinds[] = {9, 10, 11, 12, 13, 14};
        const int types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_UINT32, ACL_INT4, ACL_DOUBLE};
        aclrtReduceKind kind;
        aclDataType type;
        std::memcpy(&kind, &kinds[rng() % 6], sizeof kind);
        std::memcpy(&type, &types[rng() % 9], sizeof type);
        char* dst = static_cast<char*>(pool.pick(pool.device, rng));
        const char* src = rng() % 8 == 0 ? host.data() : static_cast<const char*>(pool.pick(pool.device, rng));
        if (dst != nullptr && rng() % 4 == 0) dst += rng() % 4;
        rc = aclrtReduceAsync(dst, src, size(), kind, type, pool.pick(pool.streams, rng), nullptr);
        break;
      }
      case 33: {  // a second device: its memory joins the pool; peer access toggled either way
        const auto dev = static_cast<int32_t>(rng() % 2);
        aclrtSetDevice(dev);
        if (dev == 1 && rng() % 2 == 0) {
          void* p = nullptr;
          if (aclrtMalloc(&p, size() + 1, ACL_MEM_MALLOC_HUGE_FIRST) == 0) aclrtFree(pool.add(pool.device, p));
        }
        const auto peer = static_cast<int32_t>(rng() % 3);
        rc = rng() % 2 == 0 ? aclrtDeviceEnablePeerAccess(peer, static_cast<uint32_t>(rng() % 2))
                            : aclrtDeviceDisablePeerAccess(peer);
        aclrtSetDevice(0);
        break;
      }
      case 27: {  // random numbers with any function, type and parameter encoding
        const int types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_INT8};
        aclrtRandomNumTaskInfo info;
        std::memset(&info, static_cast<int>(rng() & 0xFF), sizeof info);
        std::memcpy(&info.dataType, &types[rng() % 8], sizeof info.dataType);
        const int func = static_cast<int>(rng() % 5);
        std::memcpy(&info.randomNumFuncParaInfo.funcType, &func, sizeof func);
        aclrtRandomParaInfo* params[] = {&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min,
                                         &info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max,
                                         &info.randomSeed, &info.randomNum};
        for (aclrtRandomParaInfo* p : params) {
          p->isAddr = static_cast<uint8_t>(rng() % 8 == 0 ? 1 : rng() % 8 == 0 ? 2 : 0);
          p->size = static_cast<uint8_t>(rng() % 10);
          const std::uint64_t v = p->isAddr == 1 ? reinterpret_cast<std::uintptr_t>(pool.pick(pool.device, rng)) : rng() % 300;
          std::memcpy(p->valueOrAddr, &v, 8);
        }
        info.randomParaAddr = rng() % 4 == 0 ? pool.pick(pool.device, rng) : nullptr;
        info.randomResultAddr = pool.pick(pool.device, rng);
        info.randomCounterAddr = pool.pick(pool.device, rng);
        rc = aclrtRandomNumAsync(&info, pool.pick(pool.streams, rng), nullptr);
        break;
      }
      // Model run instances: captures begun and ended on any stream by any thread, executions
      // of live, destroyed and null models.
      case 28: {
        const int mode = rng() % 8 == 0 ? 0 : 1 + static_cast<int>(rng() % 2);  // GLOBAL rarely
        rc = aclmdlRICaptureBegin(pool.pick(pool.streams, rng), static_cast<aclmdlRICaptureMode>(mode));
        break;
      }
      case 29: { aclmdlRI m = nullptr; rc = aclmdlRICaptureEnd(pool.pick(pool.streams, rng), &m); if (rc == 0) aclmdlRIDestroy(pool.add(pool.models, m)); break; }
      case 30: rc = aclmdlRIExecuteAsync(pool.pick(pool.models, rng), pool.pick(pool.streams, rng)); break;
      case 31: rc = aclmdlRIDestroy(pool.pick(pool.models, rng)); break;
      case 34: {  // an operator's tensor over pooled device memory (live, freed or NULL)
        const int64_t n = static_cast<int64_t>(1 + rng() % 64);
        aclTensor* t = aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1,
                                       pool.pick(pool.device, rng));
        if (t != nullptr) {
          if (aclTensor* old = pool.add(pool.tensors, t)) (void)aclDestroyTensor(old);
        }
        if (rng() % 4 == 0) rc = aclDestroyTensor(pool.pick(pool.tensors, rng));  // maybe stale
        break;
      }
      case 35: {  // an operator over pooled tensors (any shape mix, stale ones), on a pooled stream
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        aclTensor* a = pool.pick(pool.tensors, rng);
        aclTensor* b = pool.pick(pool.tensors, rng);
        aclTensor* out = pool.pick(pool.tensors, rng);
        if (rng() % 2 == 0) {
          float one = 1.0f;
          aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
          rc = aclnnAddGetWorkspaceSize(a, b, alpha, out, &ws, &ex);
          (void)aclDestroyScalar(alpha);
        } else {
          rc = aclnnMulGetWorkspaceSize(a, b, out, &ws, &ex);
        }
        note(st, rc, "aclnn first phase");
        if (rc == ACLNN_SUCCESS) {
          rc = rng() % 2 == 0 ? aclnnAdd(nullptr, 0, ex, pool.pick(pool.streams, rng))
                              : aclnnMul(nullptr, 0, ex, pool.pick(pool.streams, rng));
        }
        break;
      }
      case 32: {
        aclmdlRICaptureStatus status;
        aclmdlRI m = nullptr;
        rc = aclmdlRICaptureGetInfo(pool.pick(pool.streams, rng), &status, &m);
        aclmdlRICaptureMode mode = static_cast<aclmdlRICaptureMode>(1 + rng() % 2);
        (void)aclmdlRICaptureThreadExchangeMode(&mode);
        break;
      }
    }
    note(st, rc, "call");
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    ++done_calls;
  }
}

constexpr std::size_t kGran = std::size_t{2} << 20;

// The sharing APIs with live, stale and bogus handles, keys and addresses.
void ipc_worker(Pool& pool, Stats& st, std::uint64_t seed, long calls, long& done_calls) {
  std::mt19937_64 rng(seed);
  std::vector<char> host(kBuf, 1);
  aclrtSetDevice(0);
  int32_t me = 0;
  aclrtDeviceGetBareTgid(&me);
  auto granule = [&rng] { return static_cast<std::ptrdiff_t>(rng() % 3) * static_cast<std::ptrdiff_t>(kGran); };
  auto at = [&](void* base) { return base == nullptr ? nullptr : static_cast<char*>(base) + granule(); };
  for (long i = 0; i < calls; ++i) {
    const int op = static_cast<int>(rng() % 16);
    int rc = ACL_SUCCESS;
    switch (op) {
      case 0: {
        aclrtPhysicalMemProp p = {};
        p.memAttr = rng() % 8 == 0 ? ACL_DDR_MEM : ACL_HBM_MEM_NORMAL;
        p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        p.location.id = static_cast<uint32_t>(rng() % 3);
        aclrtDrvMemHandle h = nullptr;
        rc = aclrtMallocPhysical(&h, kGran * (1 + rng() % 2) + (rng() % 8 == 0 ? 1 : 0), &p, 0);
        if (rc == 0) aclrtFreePhysical(pool.add(pool.physical, h));
        break;
      }
      case 1: rc = aclrtFreePhysical(pool.pick(pool.physical, rng)); break;
      case 2: {
        void* v = nullptr;
        rc = aclrtReserveMemAddress(&v, kGran * (1 + rng() % 3), 0, nullptr, 0);
        if (rc == 0) aclrtReleaseMemAddress(pool.add(pool.reserved, v));
        break;
      }
      case 3: rc = aclrtReleaseMemAddress(pool.pick(pool.reserved, rng)); break;
      case 4: rc = aclrtMapMem(at(pool.pick(pool.reserved, rng)), kGran * (1 + rng() % 2), 0, pool.pick(pool.physical, rng), 0); break;
      case 5: rc = aclrtUnmapMem(at(pool.pick(pool.reserved, rng))); break;
      case 6: {
        const std::size_t n = rng() % kBuf;
        void* dev = at(pool.pick(pool.reserved, rng));
        rc = rng() % 2 == 0 ? aclrtMemcpy(dev, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE)
                            : aclrtMemcpy(host.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
        break;
      }
      case 7: {
        uint64_t sh = 0;
        rc = aclrtMemExportToShareableHandle(pool.pick(pool.physical, rng), ACL_MEM_HANDLE_TYPE_NONE, rng() % 2, &sh);
        if (rc == 0) { std::lock_guard<std::mutex> lock(pool.m); if (pool.shareable.size() < 512) pool.shareable.push_back(sh); }
        break;
      }
      case 8: { int32_t pid = rng() % 2 == 0 ? me : me + 1; rc = aclrtMemSetPidToShareableHandle(pool.pick(pool.shareable, rng), &pid, 1); break; }
      case 9: {
        aclrtDrvMemHandle h = nullptr;
        rc = aclrtMemImportFromShareableHandle(pool.pick(pool.shareable, rng), static_cast<int32_t>(rng() % 3), &h);
        if (rc == 0) aclrtFreePhysical(pool.add(pool.physical, h));
        break;
      }
      case 10: {
        char key[65] = {};
        void* dev = at(pool.pick(pool.reserved, rng));
        rc = aclrtIpcMemGetExportKey(dev, 1 + rng() % 4096, key, 65, rng() % 2);
        if (rc == 0) { std::lock_guard<std::mutex> lock(pool.m); if (pool.keys.size() < 512) pool.keys.push_back(key); }
        break;
      }
      case 11: {
        const std::string key = pool.pick(pool.keys, rng);
        void* p = nullptr;
        rc = aclrtIpcMemImportByKey(&p, key.c_str(), rng() % 2);
        break;
      }
      case 12: { const std::string key = pool.pick(pool.keys, rng); rc = aclrtIpcMemClose(key.c_str()); break; }
      case 13: { const std::string key = pool.pick(pool.keys, rng); int32_t pid = me; rc = aclrtIpcMemSetImportPid(key.c_str(), &pid, 1); break; }
      case 14: {  // an IPC event: created, exported, opened, recorded and waited for, destroyed
        aclrtEvent e = nullptr;
        rc = aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC);
        if (rc != 0) break;
        aclrtIpcEventHandle h;
        aclrtEvent opened = nullptr;
        if (aclrtIpcGetEventHandle(e, &h) == 0 && aclrtIpcOpenEventHandle(h, &opened) == 0) {
          note(st, aclrtRecordEvent(e, pool.pick(pool.streams, rng)), "record");
          note(st, aclrtStreamWaitEvent(pool.pick(pool.streams, rng), opened), "wait");
          note(st, aclrtSynchronizeEventWithTimeout(opened, 1), "sync");
          aclrtDestroyEvent(opened);
        }
        rc = aclrtDestroyEvent(e);
        break;
      }
      case 15: {  // notifies: exported, imported (whitelisted or not), recorded, destroyed
        aclrtNotify n = nullptr;
        rc = aclrtCreateNotify(&n, 0);
        if (rc != 0) break;
        char key[65] = {};
        if (aclrtNotifyGetExportKey(n, key, 65, rng() % 2 == 0 ? 0 : ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0) {
          if (rng() % 2 == 0) note(st, aclrtNotifySetImportPid(n, &me, 1), "set pid");
          aclrtNotify imported = nullptr;
          if (aclrtNotifyImportByKey(&imported, key, 0) == 0) {
            note(st, aclrtRecordNotify(imported, pool.pick(pool.streams, rng)), "record notify");
            note(st, aclrtDestroyNotify(imported), "destroy imported");
          }
        }
        aclrtNotify old = pool.add(pool.notifies, n);
        if (old != nullptr) aclrtDestroyNotify(old);
        rc = aclrtDestroyNotify(pool.pick(pool.notifies, rng));
        break;
      }
    }
    note(st, rc, "ipc call");
    if (rc == ACL_SUCCESS) ++st.ipc_ok[op];
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    ++done_calls;
  }
}


void tdt_worker(Pool& pool, Stats& st, std::uint64_t seed, long calls, long& done_calls) {
  std::mt19937_64 rng(seed);
  std::vector<char> host(kBuf, 3);
  aclrtSetDevice(0);
  auto timeout = [&rng] { return static_cast<int32_t>(rng() % 3); };  // 0, 1 or 2 simulated ms
  auto qid = [&] {
    std::lock_guard<std::mutex> lock(pool.m);
    return pool.queues[rng() % pool.queues.size()];
  };
  for (long i = 0; i < calls; ++i) {
    const int op = static_cast<int>(rng() % 12);
    int rc = ACL_SUCCESS;
    switch (op) {
      case 0: {
        // Mostly fresh names (a name in use is refused), sometimes a taken one.
        const std::string name = "fuzz" + std::to_string(rng() % 8 == 0 ? 0 : seed * 100000 + i);
        acltdtChannelHandle* h = rng() % 2 == 0 ? acltdtCreateChannel(0, name.c_str())
                                                : acltdtCreateChannelWithCapacity(0, name.c_str(), rng() % 5);
        if (h == nullptr) { rc = ACL_ERROR_INVALID_PARAM; break; }
        acltdtChannelHandle* old = pool.add(pool.channels, h);
        if (old != nullptr) acltdtDestroyChannel(old);
        break;
      }
      case 1: rc = acltdtDestroyChannel(pool.pick(pool.channels, rng)); break;
      case 2: {  // a dataset of one tensor (host bytes, possibly empty) sent with a short timeout
        const std::size_t n = rng() % 4096;
        const int64_t dims[1] = {static_cast<int64_t>(n / 4)};
        acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, host.data(), n / 4 * 4);
        acltdtDataset* ds = acltdtCreateDataset();
        if (item != nullptr && ds != nullptr) note(st, acltdtAddDataItem(ds, item), "add item");
        rc = acltdtSendTensor(pool.pick(pool.channels, rng), ds, timeout());
        if (ds != nullptr) note(st, acltdtDestroyDataset(ds), "destroy dataset");
        if (item != nullptr) note(st, acltdtDestroyDataItem(item), "destroy item");
        break;
      }
      case 3: {
        acltdtDataset* ds = acltdtCreateDataset();
        rc = acltdtReceiveTensor(pool.pick(pool.channels, rng), ds, timeout());
        if (ds != nullptr) {
          for (std::size_t k = 0; k < acltdtGetDatasetSize(ds); ++k) {
            const acltdtDataItem* item = acltdtGetDataItem(ds, k);
            (void)acltdtGetDataSizeFromItem(item);
          }
          note(st, acltdtDestroyDataset(ds), "destroy received dataset");
        }
        break;
      }
      case 4: { size_t n = 0; rc = acltdtQueryChannelSize(pool.pick(pool.channels, rng), &n); break; }
      case 5: rc = rng() % 2 == 0 ? acltdtCleanChannel(pool.pick(pool.channels, rng))
                                  : acltdtStopChannel(pool.pick(pool.channels, rng)); break;
      case 6: {
        acltdtQueueAttr* attr = acltdtCreateQueueAttr();
        const uint32_t depth = static_cast<uint32_t>(rng() % 5);
        if (attr != nullptr && rng() % 2 == 0) note(st, acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth), "depth");
        uint32_t q = 0;
        rc = acltdtCreateQueue(attr, &q);
        if (attr != nullptr) note(st, acltdtDestroyQueueAttr(attr), "destroy attr");
        if (rc == 0) {
          std::uint32_t old = 0;
          {
            std::lock_guard<std::mutex> lock(pool.m);
            if (pool.queues.size() < 64) {
              pool.queues.push_back(q);
            } else {
              std::uint32_t& slot = pool.queues[2 + q % (pool.queues.size() - 2)];
              old = slot;
              slot = q;
            }
          }
          if (old != 0) acltdtDestroyQueue(old);
        }
        break;
      }
      case 7: rc = acltdtDestroyQueue(qid()); break;
      case 8: {
        const std::size_t n = rng() % 2048;
        const char user[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        rc = acltdtEnqueueData(qid(), host.data(), n, user, rng() % 9, timeout(), 0);
        break;
      }
      case 9: {
        std::vector<char> out(rng() % 2048);
        size_t got = 0;
        char user[8];
        rc = acltdtDequeueData(qid(), out.data(), out.size(), &got, user, rng() % 9, timeout());
        break;
      }
      case 10: case 11: {  // a route between two queues (live, destroyed or never made)
        acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
        acltdtQueueRoute* route = acltdtCreateQueueRoute(qid(), qid());
        if (list != nullptr && route != nullptr) note(st, acltdtAddQueueRoute(list, route), "add route");
        rc = op == 10 ? acltdtBindQueueRoutes(list) : acltdtUnbindQueueRoutes(list);
        if (route != nullptr) note(st, acltdtDestroyQueueRoute(route), "destroy route");
        if (list != nullptr) note(st, acltdtDestroyQueueRouteList(list), "destroy route list");
        break;
      }
    }
    note(st, rc, "tdt call");
    if (rc == ACL_SUCCESS) ++st.ipc_ok[op];
    ++done_calls;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  long calls = 20000;
  int threads = 3;
  bool ipc = false, tdt = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--calls") == 0) calls = std::strtol(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--ipc") == 0) ipc = std::atoi(argv[i + 1]) != 0;
    if (std::strcmp(argv[i], "--tdt") == 0) tdt = std::atoi(argv[i + 1]) != 0;
  }
  setenv("NPUSIM_HANG_TIMEOUT", "0.05", 0);  // parked waits give up quickly
  setenv("NPUSIM_LOG", "off", 0);
  if (aclInit(nullptr) != ACL_SUCCESS) {
    std::printf("api fuzz: aclInit failed\n0 passed, 1 failed\n");
    return 1;
  }
  Pool pool;
  Stats st;
  long rss_half = 0;
  for (int half = 0; half < 2; ++half) {
    std::vector<std::thread> ts;
    std::vector<long> done(threads, 0);
    for (int t = 0; t < threads; ++t) {
      ts.emplace_back(tdt ? tdt_worker : ipc ? ipc_worker : worker, std::ref(pool), std::ref(st), seed * 1000 + half * 100 + t,
                      calls / 2 / threads, std::ref(done[t]));
    }
    for (auto& t : ts) t.join();
    if (half == 0) rss_half = rss_kib();
  }
  const long rss_end = rss_kib();
  aclrtSynchronizeDeviceWithTimeout(-1);
  const int fin = aclFinalize();
  // The pools are bounded (512 live handles of each kind): memory must not keep growing. (Not
  // under AddressSanitizer: its quarantine of freed memory grows the RSS by design.)
#if defined(__SANITIZE_ADDRESS__)
  const bool grew = false;
#else
  const bool grew = rss_end > rss_half + 64 * 1024;
#endif
  std::printf("api fuzz: seed %llu, %ld calls on %d threads, %zu distinct codes, RSS %ld KiB "
              "after half, %ld KiB at the end, aclFinalize %d\n",
              static_cast<unsigned long long>(seed), calls, threads, st.codes.size(), rss_half,
              rss_end, fin);
  long idle_ops = 0;  // --ipc: every operation must succeed sometimes, or the run tested little
  if (ipc || tdt) {
    std::printf("api fuzz: successful calls per %s operation:", tdt ? "data-transfer" : "sharing");
    const std::size_t ops = tdt ? 12 : 16;
    for (std::size_t k = 0; k < ops; ++k) {
      const auto& n = st.ipc_ok[k];
      std::printf(" %ld", n.load());
      if (n.load() == 0) ++idle_ops;
    }
    std::printf("\n");
  }
  const long failed = idle_ops + st.unknown.load() + (grew ? 1 : 0) + (fin != 0 ? 1 : 0);
  std::printf("%ld passed, %ld failed\n", calls - st.unknown.load(), failed);
  return failed == 0 ? 0 : 1;
}
