// SPDX-License-Identifier: Apache-2.0
// One side of a two-process test (tests/multiprocess/ipc_pair.sh): two OS processes of one npusim
// session share device memory, a notify and an event through the public ACL API, handing keys to
// each other through files in DIR (as the CANN samples do).
//
//   ipc_peer owner DIR   device 0: exports a buffer and a notify (with pid validation), waits
//                        on its stream for the notify, then copies the buffer to the host and
//                        prints what the peer wrote, the sync result and the simulated times.
//   ipc_peer peer DIR    device 1: is refused before being whitelisted (207006), then imports
//                        both, writes 42 into the buffer, records the notify (and an IPC event).
//   ipc_peer victim DIR  as peer, but dies (SIGKILL) after importing, before recording: the
//                        owner's wait must end with an error, not hang.
//   ipc_peer local DIR   shares nothing (copies, an event): must never connect to a session.
//   ipc_peer orphan DIR  exports a notify, then (once ipc_pair.sh has killed the session's
//                        server) waits on its stream for it: the sync fails with 507046 and the
//                        stream's destroy, the device reset and aclFinalize return at once.
// Every file wait is bounded (20 s of wall time): a broken runtime fails instead of hanging.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "../e2e/e2e_common.h"

namespace {

std::string dir;

void put(const std::string& name, const std::string& text) {
  const std::string tmp = dir + "/" + name + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
  }
  std::rename(tmp.c_str(), (dir + "/" + name).c_str());
}

std::string get(const std::string& name) {
  for (int i = 0; i < 2000; ++i) {
    std::ifstream in(dir + "/" + name);
    if (in) {
      std::stringstream s;
      s << in.rdbuf();
      return s.str();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::printf("timeout waiting for %s\n", name.c_str());
  std::exit(3);
}

#define CHECK(call)                                                         \
  do {                                                                      \
    const aclError e_ = (call);                                             \
    if (e_ != ACL_SUCCESS) {                                                \
      std::printf("%s failed: %d\n", #call, static_cast<int>(e_));          \
      std::exit(2);                                                         \
    }                                                                       \
  } while (0)

std::uint64_t now_us(aclrtStream stream) {
  aclrtEvent e = nullptr;
  e2e_create_events({&e});
  CHECK(aclrtRecordEvent(e, stream));
  CHECK(aclrtSynchronizeEvent(e));
  std::uint64_t ts = 0;
  CHECK(aclrtEventGetTimestamp(e, &ts));
  e2e_destroy_events({e});
  return ts;
}

aclrtPhysicalMemProp physical_prop(std::int32_t device) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  return prop;
}

int owner() {
  aclrtStream stream = e2e_open(0);
  void* buf = nullptr;
  CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemset(buf, 4096, 0, 4096));
  char mem_key[65] = {};
  CHECK(aclrtIpcMemGetExportKey(buf, 4096, mem_key, sizeof mem_key, 0));
  aclrtNotify notify = nullptr;
  CHECK(aclrtCreateNotify(&notify, 0));
  char notify_key[65] = {};
  CHECK(aclrtNotifyGetExportKey(notify, notify_key, sizeof notify_key, 0));
  // A physical allocation, filled with 7s, shared by its handle.
  aclrtPhysicalMemProp prop = physical_prop(0);
  size_t gran = 0;
  CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
  aclrtDrvMemHandle phys = nullptr;
  CHECK(aclrtMallocPhysical(&phys, gran, &prop, 0));
  void* va = nullptr;
  CHECK(aclrtReserveMemAddress(&va, gran, 0, nullptr, 0));
  CHECK(aclrtMapMem(va, gran, 0, phys, 0));
  CHECK(aclrtMemset(va, gran, 7, gran));
  std::uint64_t shareable = 0;
  CHECK(aclrtMemExportToShareableHandle(phys, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
  // An IPC event recorded behind some device work, exported before that work has finished.
  aclrtEvent ev = nullptr;
  CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC));
  void* work = nullptr;
  CHECK(aclrtMalloc(&work, 8 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < 4; ++i) CHECK(aclrtMemsetAsync(work, 8 << 20, i, 8 << 20, stream));
  CHECK(aclrtRecordEvent(ev, stream));
  aclrtIpcEventHandle handle;
  CHECK(aclrtIpcGetEventHandle(ev, &handle));
  std::string hex;
  for (unsigned char c : std::string(handle.reserved, sizeof handle.reserved)) {
    char b[3];
    std::snprintf(b, sizeof b, "%02x", c);
    hex += b;
  }
  put("keys", std::string(mem_key) + " " + notify_key + " " + std::to_string(shareable) + " " + hex);
  int peer_pid = std::stoi(get("pid"));
  CHECK(aclrtIpcMemSetImportPid(mem_key, &peer_pid, 1));
  CHECK(aclrtNotifySetImportPid(notify, &peer_pid, 1));
  CHECK(aclrtMemSetPidToShareableHandle(shareable, &peer_pid, 1));
  put("allowed", "1");
  CHECK(aclrtWaitAndResetNotify(notify, stream, 0));
  void* pinned = nullptr;
  CHECK(aclrtMallocHost(&pinned, 4096));
  auto* host = static_cast<std::int32_t*>(pinned);
  *host = -1;
  CHECK(aclrtMemcpyAsync(host, sizeof *host, buf, sizeof *host, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  const aclError sync = aclrtSynchronizeStream(stream);
  std::printf("owner: sync=%d value=%d\n", static_cast<int>(sync), static_cast<int>(*host));
  (void)aclrtFreeHost(pinned);
  if (sync == ACL_SUCCESS) std::printf("owner: notify passed at %llu us\n",
                                       static_cast<unsigned long long>(now_us(stream)));
  std::uint64_t ev_us = 0;
  CHECK(aclrtEventGetTimestamp(ev, &ev_us));
  std::printf("owner: event recorded at %llu us\n", static_cast<unsigned long long>(ev_us));
  if (sync == ACL_SUCCESS) get("closed");  // importers close first, then the exporter
  CHECK(aclrtIpcMemClose(mem_key));
  (void)aclrtDestroyNotify(notify);
  (void)aclrtDestroyEvent(ev);
  (void)aclrtFree(work);
  CHECK(aclrtUnmapMem(va));
  CHECK(aclrtReleaseMemAddress(va));
  CHECK(aclrtFreePhysical(phys));
  (void)aclrtFree(buf);
  (void)aclrtDestroyStreamForce(stream);
  (void)aclrtResetDeviceForce(0);
  CHECK(aclFinalize());
  std::printf("owner: done\n");
  return 0;
}

int peer(bool die) {
  aclrtStream stream = e2e_open(1);
  std::istringstream keys(get("keys"));
  std::string mem_key, notify_key, hex;
  std::uint64_t shareable = 0;
  keys >> mem_key >> notify_key >> shareable >> hex;
  void* buf = nullptr;
  const aclError refused = aclrtIpcMemImportByKey(&buf, mem_key.c_str(), 0);
  std::printf("peer: import before the whitelist: %d\n", static_cast<int>(refused));
  std::int32_t pid = 0;
  CHECK(aclrtDeviceGetBareTgid(&pid));
  put("pid", std::to_string(pid));
  get("allowed");
  CHECK(aclrtIpcMemImportByKey(&buf, mem_key.c_str(), ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
  aclrtNotify notify = nullptr;
  CHECK(aclrtNotifyImportByKey(&notify, notify_key.c_str(), ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
  aclrtDrvMemHandle phys = nullptr;
  CHECK(aclrtMemImportFromShareableHandle(shareable, 1, &phys));
  aclrtPhysicalMemProp prop = physical_prop(1);
  size_t gran = 0;
  CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
  void* va = nullptr;
  CHECK(aclrtReserveMemAddress(&va, gran, 0, nullptr, 0));
  CHECK(aclrtMapMem(va, gran, 0, phys, 0));
  std::uint32_t word = 0;
  CHECK(aclrtMemcpy(&word, sizeof word, va, sizeof word, ACL_MEMCPY_DEVICE_TO_HOST));
  std::printf("peer: physical memory reads 0x%08x\n", word);
  CHECK(aclrtUnmapMem(va));
  CHECK(aclrtReleaseMemAddress(va));
  CHECK(aclrtFreePhysical(phys));
  aclrtIpcEventHandle handle;
  for (std::size_t i = 0; i < sizeof handle.reserved; ++i) {
    handle.reserved[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  aclrtEvent ev = nullptr;
  CHECK(aclrtIpcOpenEventHandle(handle, &ev));
  CHECK(aclrtStreamWaitEvent(stream, ev));
  CHECK(aclrtSynchronizeStream(stream));
  std::printf("peer: event wait passed at %llu us\n",
              static_cast<unsigned long long>(now_us(stream)));
  CHECK(aclrtDestroyEvent(ev));
  if (die) {
    std::printf("peer: dying before the record\n");
    std::fflush(stdout);
    raise(SIGKILL);
  }
  // Some device work first, so the record's simulated time is well after the owner's wait.
  void* local = nullptr;
  CHECK(aclrtMalloc(&local, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < 4; ++i) CHECK(aclrtMemsetAsync(local, 1 << 20, i, 1 << 20, stream));
  const std::int32_t value = 42;
  CHECK(aclrtMemcpy(local, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
  // Into the owner's buffer (device 0) from this device: over the chip-to-chip link.
  CHECK(aclrtMemcpyAsync(buf, sizeof value, local, sizeof value, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  CHECK(aclrtRecordNotify(notify, stream));
  CHECK(aclrtSynchronizeStream(stream));
  std::printf("peer: recorded at %llu us\n", static_cast<unsigned long long>(now_us(stream)));
  CHECK(aclrtIpcMemClose(mem_key.c_str()));
  put("closed", "1");
  CHECK(aclrtDestroyNotify(notify));
  e2e_free({local});
  e2e_close(stream, 1);
  std::printf("peer: done\n");
  return 0;
}

int local() {
  aclrtStream stream = e2e_open(0);
  void* buf = nullptr;
  CHECK(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemsetAsync(buf, 4096, 1, 4096, stream));
  std::printf("local: done at %llu us\n", static_cast<unsigned long long>(now_us(stream)));
  e2e_free({buf});
  E2E_CHECK(aclrtDestroyStream(stream));
  E2E_CHECK(aclFinalize());
  return 0;
}

int orphan() {
  aclrtStream stream = e2e_open(0);
  aclrtNotify notify = nullptr;
  CHECK(aclrtCreateNotify(&notify, 0));
  char key[65] = {};
  CHECK(aclrtNotifyGetExportKey(notify, key, sizeof key, 0));  // connects to the session
  put("ready", std::to_string(getpid()));
  get("killed");
  CHECK(aclrtWaitAndResetNotify(notify, stream, 0));
  const aclError sync = aclrtSynchronizeStream(stream);
  const auto start = std::chrono::steady_clock::now();
  const aclError destroy = aclrtDestroyStream(stream);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start).count();
  std::printf("orphan: sync=%d destroy=%d in %lld ms\n", static_cast<int>(sync),
              static_cast<int>(destroy), static_cast<long long>(ms));
  if (destroy != ACL_SUCCESS) CHECK(aclrtDestroyStreamForce(stream));
  CHECK(aclrtDestroyNotify(notify));
  e2e_finish(0);
  std::printf("orphan: done\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ipc_peer owner|peer|victim DIR\n");
    return 1;
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  dir = argv[2];
  const std::string role = argv[1];
  if (role == "owner") return owner();
  if (role == "local") return local();
  if (role == "orphan") return orphan();
  if (role == "peer" || role == "victim") return peer(role == "victim");
  std::fprintf(stderr, "unknown role %s\n", role.c_str());
  return 1;
}
