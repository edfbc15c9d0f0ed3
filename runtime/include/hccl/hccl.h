/* SPDX-License-Identifier: Apache-2.0 */
/* npusim's HCCL API (libhccl.so): communicators and collectives between the simulated chips of
 * one server. Every collective is queued as tasks on the caller's stream (and on the
 * communicator's helper streams of the same device) and runs in simulated time over the
 * chip-to-chip links; the call itself returns once the tasks are queued, as CANN's does. */
#ifndef NPUSIM_HCCL_H_
#define NPUSIM_HCCL_H_

#include "acl/acl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Communicators ---- */
/* Fills `rootInfo` with a new communication domain's identity (call once, on the root). */
extern HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
/* Joins rank `rank` of an `nRanks`-rank domain on the calling thread's current device; returns
 * once all nRanks ranks have joined. */
extern HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo,
                                       uint32_t rank, HcclComm *comm);
/* Creates the ndev communicators of one domain at once, rank i on devices[i]. */
extern HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);
extern HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank,
                                          HcclComm *comm);
extern HcclResult HcclCommDestroy(HcclComm comm);
extern HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
extern HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
extern HcclResult HcclGetCommName(HcclComm comm, char *commName);
extern HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError);
extern const char *HcclGetErrorString(HcclResult code);

/* ---- Collectives ---- */
extern HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count,
                                HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                aclrtStream stream);
extern HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
                                HcclComm comm, aclrtStream stream);
extern HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                                    HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                    aclrtStream stream);
extern HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount,
                                HcclDataType dataType, HcclComm comm, aclrtStream stream);
extern HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                             HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);
extern HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
                              HcclDataType dataType, uint32_t root, HcclComm comm,
                              aclrtStream stream);
extern HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
                               const void *recvBuf, uint64_t recvCount, HcclDataType recvType,
                               HcclComm comm, aclrtStream stream);
extern HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
                                HcclDataType sendType, const void *recvBuf,
                                const void *recvCounts, const void *rdispls,
                                HcclDataType recvType, HcclComm comm, aclrtStream stream);
extern HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix,
                                 HcclDataType sendType, const void *recvBuf,
                                 HcclDataType recvType, HcclComm comm, aclrtStream stream);
extern HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

/* ---- Point to point ---- */
extern HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType,
                           uint32_t destRank, HcclComm comm, aclrtStream stream);
extern HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType,
                           uint32_t srcRank, HcclComm comm, aclrtStream stream);
extern HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum,
                                    HcclComm comm, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_HCCL_H_ */
