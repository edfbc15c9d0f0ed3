/* SPDX-License-Identifier: Apache-2.0 */
/* npusim's HCCL types: the names, values and layouts CANN's collective communication library
 * documents (result codes, data types, reduce operations, the root-info blob, send/recv items),
 * written for npusim's libhccl.so. */
#ifndef NPUSIM_HCCL_TYPES_H_
#define NPUSIM_HCCL_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of every HCCL call. */
typedef enum {
  HCCL_SUCCESS = 0,
  HCCL_E_PARA = 1,          /* a parameter is wrong */
  HCCL_E_PTR = 2,           /* a NULL pointer */
  HCCL_E_MEMORY = 3,        /* memory error */
  HCCL_E_INTERNAL = 4,      /* internal error */
  HCCL_E_NOT_SUPPORT = 5,   /* not supported */
  HCCL_E_NOT_FOUND = 6,     /* resource not found */
  HCCL_E_UNAVAIL = 7,       /* resource unavailable */
  HCCL_E_SYSCALL = 8,       /* a system call failed */
  HCCL_E_TIMEOUT = 9,       /* timed out */
  HCCL_E_OPEN_FILE_FAILURE = 10,
  HCCL_E_TCP_CONNECT = 11,
  HCCL_E_ROCE_CONNECT = 12,
  HCCL_E_TCP_TRANSFER = 13,
  HCCL_E_ROCE_TRANSFER = 14,
  HCCL_E_RUNTIME = 15,      /* a runtime (aclrt) call failed */
  HCCL_E_DRV = 16,
  HCCL_E_PROFILING = 17,
  HCCL_E_CCE = 18,
  HCCL_E_NETWORK = 19,
  HCCL_E_AGAIN = 20,
  HCCL_E_REMOTE = 21,
  HCCL_E_SUSPENDING = 22,
  HCCL_E_RESERVED
} HcclResult;

/* A communicator (one rank of a communication domain). */
typedef void *HcclComm;

typedef enum {
  HCCL_REDUCE_SUM = 0,
  HCCL_REDUCE_PROD = 1,
  HCCL_REDUCE_MAX = 2,
  HCCL_REDUCE_MIN = 3,
  HCCL_REDUCE_RESERVED
} HcclReduceOp;

typedef enum {
  HCCL_DATA_TYPE_INT8 = 0,
  HCCL_DATA_TYPE_INT16 = 1,
  HCCL_DATA_TYPE_INT32 = 2,
  HCCL_DATA_TYPE_FP16 = 3,
  HCCL_DATA_TYPE_FP32 = 4,
  HCCL_DATA_TYPE_INT64 = 5,
  HCCL_DATA_TYPE_UINT64 = 6,
  HCCL_DATA_TYPE_UINT8 = 7,
  HCCL_DATA_TYPE_UINT16 = 8,
  HCCL_DATA_TYPE_UINT32 = 9,
  HCCL_DATA_TYPE_FP64 = 10,
  HCCL_DATA_TYPE_BFP16 = 11,
  HCCL_DATA_TYPE_INT128 = 12,
  HCCL_DATA_TYPE_RESERVED
} HcclDataType;

/* What HcclGetRootInfo fills and every rank passes to HcclCommInitRootInfo. */
#define HCCL_ROOT_INFO_BYTES 4108
typedef struct HcclRootInfoDef {
  char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

/* One task of HcclBatchSendRecv. */
typedef enum {
  HCCL_SEND = 0,
  HCCL_RECV = 1,
  HCCL_SEND_RECV_RESERVED
} HcclSendRecvType;

typedef struct HcclSendRecvItemDef {
  HcclSendRecvType sendRecvType;
  void *buf;
  uint64_t count;
  HcclDataType dataType;
  uint32_t remoteRank;
} HcclSendRecvItem;

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_HCCL_TYPES_H_ */
