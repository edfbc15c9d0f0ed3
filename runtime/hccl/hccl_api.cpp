// SPDX-License-Identifier: Apache-2.0
// C skin of npusim's HCCL (include/hccl/hccl.h). Every function is one run_api() call, like the
// aclrt* functions: under the API lock, timed on the host track ("AscendCL@Hccl..."), its
// failure recorded as the thread's last error. Codes: HCCL's own (hccl_types.h); a runtime error
// underneath (a bad stream, no current context...) is reported as HCCL_E_PARA (bad argument) or
// HCCL_E_RUNTIME.
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "hccl/hccl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/hccl/comm.h"
#include "runtime/core/runtime.h"

#define HCCL_EXPORT extern "C" __attribute__((visibility("default")))

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using npusim::rt::hccl::Comm;
using npusim::rt::hccl::Domain;

namespace {

constexpr char kMagic[8] = {'N', 'P', 'U', 'S', 'I', 'M', 'H', 'C'};

// HcclRootInfo.internal: magic, the domain's id in its process, that process's pid, the
// session hub's id of the domain (0: not registered), the session's name (u8 length, bytes).
struct RootInfo {
  std::uint64_t id = 0;
  std::int32_t pid = 0;
  std::uint64_t remote_id = 0;
  std::string session;
};
constexpr std::size_t kIdAt = sizeof kMagic;
constexpr std::size_t kPidAt = kIdAt + 8;
constexpr std::size_t kRemoteAt = kPidAt + 8;
constexpr std::size_t kSessionAt = kRemoteAt + 8;

void write_root_info(HcclRootInfo* info, const RootInfo& r) {
  std::memset(info->internal, 0, sizeof info->internal);
  std::memcpy(info->internal, kMagic, sizeof kMagic);
  std::memcpy(info->internal + kIdAt, &r.id, sizeof r.id);
  std::memcpy(info->internal + kPidAt, &r.pid, sizeof r.pid);
  std::memcpy(info->internal + kRemoteAt, &r.remote_id, sizeof r.remote_id);
  const auto n = static_cast<unsigned char>(std::min<std::size_t>(r.session.size(), 200));
  info->internal[kSessionAt] = static_cast<char>(n);
  std::memcpy(info->internal + kSessionAt + 1, r.session.data(), n);
}

RootInfo read_root_info(const HcclRootInfo* info) {
  require(std::memcmp(info->internal, kMagic, sizeof kMagic) == 0, HCCL_E_PARA,
          "rootInfo was not filled by HcclGetRootInfo");
  RootInfo r;
  std::memcpy(&r.id, info->internal + kIdAt, sizeof r.id);
  std::memcpy(&r.pid, info->internal + kPidAt, sizeof r.pid);
  std::memcpy(&r.remote_id, info->internal + kRemoteAt, sizeof r.remote_id);
  const auto n = static_cast<unsigned char>(info->internal[kSessionAt]);
  r.session.assign(info->internal + kSessionAt + 1, n);
  return r;
}

HcclResult to_hccl(int code) {
  if (code >= 0 && code < HCCL_E_RESERVED) return static_cast<HcclResult>(code);
  switch (code) {
    case ACL_ERROR_INVALID_PARAM:
    case ACL_ERROR_RT_PARAM_INVALID:
    case ACL_ERROR_RT_INVALID_DEVICEID:
    case ACL_ERROR_RT_STREAM_CONTEXT:
      return HCCL_E_PARA;
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
    case ACL_ERROR_BAD_ALLOC:
      return HCCL_E_MEMORY;
    default:
      return HCCL_E_RUNTIME;
  }
}

template <class F>
HcclResult hccl_api(const char* name, F&& body) {
  return to_hccl(api(name, std::forward<F>(body)));
}

// A live communicator (HCCL_E_PTR for NULL, HCCL_E_PARA for anything else).
Comm& comm_of(HcclComm comm) {
  if (comm == nullptr) fail(HCCL_E_PTR, "comm is NULL");
  require(hccl::live_comm(comm), HCCL_E_PARA, "comm is not a live communicator");
  return *static_cast<Comm*>(comm);
}

template <class E>
int enum_value(const E& e) {
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

std::vector<std::uint64_t> u64_array(const void* p, std::uint32_t n, const char* name) {
  if (p == nullptr) fail(HCCL_E_PTR, std::string(name) + " is NULL");
  std::vector<std::uint64_t> v(n);
  std::memcpy(v.data(), p, n * sizeof(std::uint64_t));
  return v;
}

}  // namespace

HCCL_EXPORT HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
  return hccl_api("HcclGetRootInfo", [&](Call&) {
    if (rootInfo == nullptr) fail(HCCL_E_PTR, "rootInfo is NULL");
    std::shared_ptr<Domain> d = hccl::new_domain();
    // In a session, the domain is registered with its server: ranks of other processes of the
    // session may join it (the root info carries the session).
    RootInfo r;
    r.id = d->id;
    r.pid = static_cast<std::int32_t>(::getpid());
    r.remote_id = hccl::register_domain(d);
    if (r.remote_id != 0) r.session = hccl::session();
    write_root_info(rootInfo, r);
    // The domain lives as long as a rank or the root info's holder may use it: keep it.
    static auto* keep = new std::vector<std::shared_ptr<Domain>>();  // never destroyed
    keep->push_back(std::move(d));
  });
}

namespace {

// The communication domain a root info names: of this process, or (in a session) of the
// session's hub.
std::shared_ptr<Domain> root_domain(const RootInfo& info) {
  std::shared_ptr<Domain> d;
  if (info.pid == static_cast<std::int32_t>(::getpid())) d = hccl::find_domain(info.id);
  if (d == nullptr && info.remote_id != 0) {
    const std::string mine = hccl::session();
    require(mine == info.session, HCCL_E_PARA,
            "rootInfo names a domain of session '" + info.session + "', this process is " +
                (mine.empty() ? std::string("in no session (NPUSIM_SESSION, NPUSIM_SERVER)")
                              : "in session '" + mine + "'"));
    d = hccl::remote_domain(info.remote_id);
  }
  require(d != nullptr, HCCL_E_PARA,
          info.remote_id == 0 && info.pid != static_cast<std::int32_t>(::getpid())
              ? "rootInfo comes from process " + std::to_string(info.pid) +
                    ", which was in no session (ranks in several processes need one: "
                    "NPUSIM_SESSION)"
              : std::string("rootInfo names no communication domain of this process"));
  return d;
}

// nRanks and rank against the devices and against what the domain's other ranks gave.
void check_rank_count(Call& c, const Domain& d, std::uint32_t nRanks, std::uint32_t rank) {
  const auto devices = static_cast<std::uint32_t>(c.runtime().devices().size());
  require(nRanks >= 1 && nRanks <= devices, HCCL_E_PARA,
          "nRanks " + std::to_string(nRanks) + " must be in [1, " + std::to_string(devices) +
              "] (one rank per device)");
  require(rank < nRanks, HCCL_E_PARA,
          "rank " + std::to_string(rank) + " is not below nRanks " + std::to_string(nRanks));
  require(d.nranks == 0 || d.nranks == nRanks, HCCL_E_PARA,
          "nRanks " + std::to_string(nRanks) + " differs from the " + std::to_string(d.nranks) +
              " another rank of the domain gave");
  require(d.nranks == 0 || d.joined < d.nranks, HCCL_E_PARA,
          "every rank of this rootInfo's domain has joined already (a new communicator needs a "
          "new HcclGetRootInfo)");
}

// The domain sized by its first rank; the rank and the device must both be free in it.
void claim_rank(Domain& d, std::uint32_t nRanks, std::uint32_t rank, std::uint32_t device) {
  if (d.nranks == 0) {
    d.nranks = nRanks;
    d.ranks.assign(nRanks, nullptr);
    d.devices.assign(nRanks, Domain::kNoDevice);
  }
  require(d.ranks[rank] == nullptr, HCCL_E_PARA,
          "rank " + std::to_string(rank) + " of the domain has already joined");
  for (Comm* other : d.ranks) {
    require(other == nullptr || other->device() != device, HCCL_E_PARA,
            "device " + std::to_string(device) + " already holds rank " +
                std::to_string(other != nullptr ? other->rank() : 0) + " of the domain");
  }
}

// The rank's communicator, announced to the session's hub (if any) and entered in the domain.
Comm* join_rank(Call& c, const std::shared_ptr<Domain>& d, std::uint32_t nRanks,
                std::uint32_t rank, std::uint32_t device) {
  auto owned = std::make_unique<Comm>(d, rank, device);
  Comm* mine = owned.get();
  if (d->remote_id != 0) {  // the session's hub hears of every rank
    mine->reserve_arena(c);
    try {
      hccl::join_remote(c, d, rank, nRanks, device);
    } catch (...) {
      mine->destroy(c);
      throw;
    }
  }
  d->ranks[rank] = mine;
  d->devices[rank] = device;
  d->local_devices.push_back(device);
  ++d->local;
  ++d->joined;
  hccl::add_comm(owned.release());
  return mine;
}

std::string missing_ranks(const Domain& d) {
  std::string missing;
  for (std::uint32_t i = 0; i < d.nranks; ++i) {
    if (d.ranks[i] == nullptr) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  }
  return missing;
}

// Rendezvous: every rank blocks until all nRanks joined (other host threads act meanwhile); a
// deadlock takes the rank out again.
void await_all_ranks(Call& c, const std::shared_ptr<Domain>& d, Comm* mine, std::uint32_t rank) {
  WaitResult r = c.wait([d] { return d->joined >= d->nranks; }, kForever, [&] {
    return "HcclCommInitRootInfo (rank " + std::to_string(rank) + ") waits for rank(s) " +
           missing_ranks(*d) + " to join";
  });
  if (r != WaitResult::kDone) {
    mine->destroy(c);
    if (d->joined < d->nranks) --d->joined;
    hccl::remove_comm(mine);
    delete mine;
    fail(HCCL_E_TIMEOUT, "deadlock: not every rank of the domain called HcclCommInitRootInfo");
  }
}

}  // namespace

HCCL_EXPORT HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo,
                                            uint32_t rank, HcclComm* comm) {
  return hccl_api("HcclCommInitRootInfo", [&](Call& c) {
    if (rootInfo == nullptr) fail(HCCL_E_PTR, "rootInfo is NULL");
    if (comm == nullptr) fail(HCCL_E_PTR, "comm is NULL");
    const std::shared_ptr<Domain> d = root_domain(read_root_info(rootInfo));
    check_rank_count(c, *d, nRanks, rank);
    const std::uint32_t device = c.context().device;
    claim_rank(*d, nRanks, rank, device);
    Comm* mine = join_rank(c, d, nRanks, rank, device);
    await_all_ranks(c, d, mine, rank);
    hccl::settle(d);
    *comm = mine;
  });
}

HCCL_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
  return hccl_api("HcclCommInitAll", [&](Call& c) {
    if (devices == nullptr) fail(HCCL_E_PTR, "devices is NULL");
    if (comms == nullptr) fail(HCCL_E_PTR, "comms is NULL");
    const auto count = static_cast<std::uint32_t>(c.runtime().devices().size());
    require(ndev >= 1 && ndev <= count, HCCL_E_PARA,
            "ndev " + std::to_string(ndev) + " must be in [1, " + std::to_string(count) + "]");
    for (std::uint32_t i = 0; i < ndev; ++i) {
      require(devices[i] >= 0 && static_cast<std::uint32_t>(devices[i]) < count, HCCL_E_PARA,
              "devices[" + std::to_string(i) + "] = " + std::to_string(devices[i]) +
                  " is not a device");
      for (std::uint32_t j = 0; j < i; ++j) {
        require(devices[j] != devices[i], HCCL_E_PARA,
                "device " + std::to_string(devices[i]) + " is listed twice");
      }
    }
    std::shared_ptr<Domain> d = hccl::new_domain();
    d->nranks = ndev;
    d->ranks.assign(ndev, nullptr);
    d->local = ndev;
    for (std::uint32_t i = 0; i < ndev; ++i) {
      auto* comm = new Comm(d, i, static_cast<std::uint32_t>(devices[i]));
      d->ranks[i] = comm;
      d->devices.push_back(static_cast<std::uint32_t>(devices[i]));
      hccl::add_comm(comm);
      comms[i] = comm;
    }
    d->joined = ndev;
    static auto* keep = new std::vector<std::shared_ptr<Domain>>();  // never destroyed
    keep->push_back(std::move(d));
  });
}

HCCL_EXPORT HcclResult HcclCommInitClusterInfo(const char*, uint32_t, HcclComm*) {
  return to_hccl(unsupported("HcclCommInitClusterInfo", HCCL_E_NOT_SUPPORT));
}

HCCL_EXPORT HcclResult HcclCommDestroy(HcclComm comm) {
  return hccl_api("HcclCommDestroy", [&](Call& c) {
    Comm& mine = comm_of(comm);
    mine.destroy(c);
    hccl::remove_comm(&mine);
    delete &mine;
  });
}

HCCL_EXPORT HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
  return hccl_api("HcclGetRankSize", [&](Call&) {
    Comm& mine = comm_of(comm);
    if (rankSize == nullptr) fail(HCCL_E_PTR, "rankSize is NULL");
    *rankSize = mine.size();
  });
}

HCCL_EXPORT HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
  return hccl_api("HcclGetRankId", [&](Call&) {
    Comm& mine = comm_of(comm);
    if (rank == nullptr) fail(HCCL_E_PTR, "rank is NULL");
    *rank = mine.rank();
  });
}

HCCL_EXPORT HcclResult HcclGetCommName(HcclComm comm, char* commName) {
  return hccl_api("HcclGetCommName", [&](Call&) {
    Comm& mine = comm_of(comm);
    if (commName == nullptr) fail(HCCL_E_PTR, "commName is NULL");
    const std::string name = mine.name();  // < 128 bytes (the documented buffer size)
    std::memcpy(commName, name.c_str(), name.size() + 1);
  });
}

HCCL_EXPORT HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
  return hccl_api("HcclGetCommAsyncError", [&](Call&) {
    comm_of(comm);
    if (asyncError == nullptr) fail(HCCL_E_PTR, "asyncError is NULL");
    *asyncError = HCCL_SUCCESS;  // task failures are reported on the streams (aclrtSynchronize*)
  });
}

namespace {

// HcclGetErrorString's texts.
struct ErrorText {
  int code;
  const char* text;
};
constexpr ErrorText kErrorTexts[] = {
    {HCCL_SUCCESS, "success"},
    {HCCL_E_PARA, "parameter error"},
    {HCCL_E_PTR, "empty pointer"},
    {HCCL_E_MEMORY, "memory error"},
    {HCCL_E_INTERNAL, "internal error"},
    {HCCL_E_NOT_SUPPORT, "not support feature"},
    {HCCL_E_NOT_FOUND, "not found specific resource"},
    {HCCL_E_UNAVAIL, "resource unavailable"},
    {HCCL_E_SYSCALL, "call system interface error"},
    {HCCL_E_TIMEOUT, "timeout"},
    {HCCL_E_OPEN_FILE_FAILURE, "open file fail"},
    {HCCL_E_TCP_CONNECT, "tcp connect fail"},
    {HCCL_E_ROCE_CONNECT, "roce connect fail"},
    {HCCL_E_TCP_TRANSFER, "tcp transfer fail"},
    {HCCL_E_ROCE_TRANSFER, "roce transfer fail"},
    {HCCL_E_RUNTIME, "call runtime api fail"},
    {HCCL_E_DRV, "call driver api fail"},
    {HCCL_E_PROFILING, "call profiling api fail"},
    {HCCL_E_CCE, "call cce api fail"},
    {HCCL_E_NETWORK, "call network api fail"},
    {HCCL_E_AGAIN, "try again"},
    {HCCL_E_REMOTE, "error cqe"},
    {HCCL_E_SUSPENDING, "error communicator suspending"},
};

}  // namespace

HCCL_EXPORT const char* HcclGetErrorString(HcclResult code) {
  for (const ErrorText& e : kErrorTexts) {
    if (e.code == enum_value(code)) return e.text;
  }
  return "unknown error";
}

HCCL_EXPORT HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count,
                                     HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                     aclrtStream stream) {
  return hccl_api("HcclAllReduce", [&](Call& c) {
    comm_of(comm).all_reduce(c, stream, sendBuf, recvBuf, count, enum_value(dataType),
                             enum_value(op));
  });
}

HCCL_EXPORT HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType,
                                     uint32_t root, HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclBroadcast", [&](Call& c) {
    comm_of(comm).broadcast(c, stream, buf, count, enum_value(dataType), root);
  });
}

HCCL_EXPORT HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                                         HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                         aclrtStream stream) {
  return hccl_api("HcclReduceScatter", [&](Call& c) {
    comm_of(comm).reduce_scatter(c, stream, sendBuf, recvBuf, recvCount, enum_value(dataType),
                                 enum_value(op));
  });
}

HCCL_EXPORT HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount,
                                     HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclAllGather", [&](Call& c) {
    comm_of(comm).all_gather(c, stream, sendBuf, recvBuf, sendCount, enum_value(dataType));
  });
}

HCCL_EXPORT HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count,
                                  HcclDataType dataType, HcclReduceOp op, uint32_t root,
                                  HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclReduce", [&](Call& c) {
    comm_of(comm).reduce(c, stream, sendBuf, recvBuf, count, enum_value(dataType), enum_value(op),
                         root);
  });
}

HCCL_EXPORT HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount,
                                   HcclDataType dataType, uint32_t root, HcclComm comm,
                                   aclrtStream stream) {
  return hccl_api("HcclScatter", [&](Call& c) {
    comm_of(comm).scatter(c, stream, sendBuf, recvBuf, recvCount, enum_value(dataType), root);
  });
}

HCCL_EXPORT HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                                    const void* recvBuf, uint64_t recvCount, HcclDataType recvType,
                                    HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclAlltoAll", [&](Call& c) {
    Comm& mine = comm_of(comm);
    require(sendCount == recvCount, HCCL_E_PARA,
            "sendCount and recvCount differ (every rank sends and receives the same count)");
    const std::uint32_t n = mine.size();
    std::vector<std::uint64_t> counts(n, sendCount), sd(n), rd(n);
    for (std::uint32_t k = 0; k < n; ++k) sd[k] = rd[k] = k * sendCount;
    mine.all_to_all_v(c, stream, sendBuf, counts, sd, enum_value(sendType), recvBuf, counts, rd,
                      enum_value(recvType), "HcclAlltoAll");
  });
}

HCCL_EXPORT HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts,
                                     const void* sdispls, HcclDataType sendType,
                                     const void* recvBuf, const void* recvCounts,
                                     const void* rdispls, HcclDataType recvType, HcclComm comm,
                                     aclrtStream stream) {
  return hccl_api("HcclAlltoAllV", [&](Call& c) {
    Comm& mine = comm_of(comm);
    const std::uint32_t n = mine.size();
    mine.all_to_all_v(c, stream, sendBuf, u64_array(sendCounts, n, "sendCounts"),
                      u64_array(sdispls, n, "sdispls"), enum_value(sendType), recvBuf,
                      u64_array(recvCounts, n, "recvCounts"), u64_array(rdispls, n, "rdispls"),
                      enum_value(recvType), "HcclAlltoAllV");
  });
}

HCCL_EXPORT HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix,
                                      HcclDataType sendType, const void* recvBuf,
                                      HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclAlltoAllVC", [&](Call& c) {
    Comm& mine = comm_of(comm);
    const std::uint32_t n = mine.size();
    const std::uint32_t r = mine.rank();
    // matrix[i * n + j]: elements rank i sends to rank j; data is packed in rank order.
    const std::vector<std::uint64_t> m = u64_array(sendCountMatrix, n * n, "sendCountMatrix");
    std::vector<std::uint64_t> sc(n), sd(n), rc(n), rd(n);
    std::uint64_t soff = 0, roff = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      sc[k] = m[r * n + k];
      sd[k] = soff;
      soff += sc[k];
      rc[k] = m[k * n + r];
      rd[k] = roff;
      roff += rc[k];
    }
    mine.all_to_all_v(c, stream, sendBuf, sc, sd, enum_value(sendType), recvBuf, rc, rd,
                      enum_value(recvType), "HcclAlltoAllVC");
  });
}

HCCL_EXPORT HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclBarrier", [&](Call& c) { comm_of(comm).barrier(c, stream); });
}

HCCL_EXPORT HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType,
                                uint32_t destRank, HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclSend", [&](Call& c) {
    Comm::P2p item{true, sendBuf, count, enum_value(dataType), destRank};
    comm_of(comm).send_recv(c, stream, {item}, "HcclSend");
  });
}

HCCL_EXPORT HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType,
                                uint32_t srcRank, HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclRecv", [&](Call& c) {
    Comm::P2p item{false, recvBuf, count, enum_value(dataType), srcRank};
    comm_of(comm).send_recv(c, stream, {item}, "HcclRecv");
  });
}

HCCL_EXPORT HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum,
                                         HcclComm comm, aclrtStream stream) {
  return hccl_api("HcclBatchSendRecv", [&](Call& c) {
    Comm& mine = comm_of(comm);
    if (sendRecvInfo == nullptr) fail(HCCL_E_PTR, "sendRecvInfo is NULL");
    std::vector<Comm::P2p> items;
    for (std::uint32_t i = 0; i < itemNum; ++i) {
      const HcclSendRecvItem& it = sendRecvInfo[i];
      const int kind = enum_value(it.sendRecvType);
      require(kind == HCCL_SEND || kind == HCCL_RECV, HCCL_E_PARA,
              "sendRecvInfo[" + std::to_string(i) + "].sendRecvType is not HCCL_SEND/HCCL_RECV");
      items.push_back(
          {kind == HCCL_SEND, it.buf, it.count, enum_value(it.dataType), it.remoteRank});
    }
    mine.send_recv(c, stream, items, "HcclBatchSendRecv");
  });
}
