// SPDX-License-Identifier: Apache-2.0
// npusim public header: shared queues and queue routes (acltdt*Queue*; lib64/libacl_tdt_queue.so
// is the runtime library). Names, values and signatures follow CANN's acl_tdt_queue.h.
// A queue lives on the current device and holds up to `depth` entries (data bytes plus up to 96
// bytes of user data). Enqueueing moves the bytes into device memory over the host link (or the
// device's DMA when they already are device memory), dequeueing moves them out: both take
// simulated time. Timeouts are simulated milliseconds (-1 forever, 0 no wait, > 0 at most that
// long); a full queue fails with ACL_ERROR_RT_QUEUE_FULL, an empty one with
// ACL_ERROR_RT_QUEUE_EMPTY, an unknown queue id with ACL_ERROR_INVALID_QUEUE_ID.
// A bound route src -> dst forwards every entry of src into dst as soon as dst has room; an entry
// leaves src only when every route from src can take it (it is copied to each). Routes may not
// form cycles. Route status: 0 not bound, 1 bound, 2 abnormal (one of its queues was destroyed).
// The mbuf functions (acltdtAllocBuf..., acltdtEnqueue/Dequeue) are not supported on Atlas A2/A3
// and return ACL_ERROR_RT_FEATURE_NOT_SUPPORT. runtime/tdt/tdt.h has the details.
#ifndef NPUSIM_ACL_ACL_TDT_QUEUE_H
#define NPUSIM_ACL_ACL_TDT_QUEUE_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_TDT_QUEUE_PERMISSION_MANAGE 1
#define ACL_TDT_QUEUE_PERMISSION_DEQUEUE 2
#define ACL_TDT_QUEUE_PERMISSION_ENQUEUE 4

typedef void *acltdtBuf;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef struct acltdtQueueRoute acltdtQueueRoute;

typedef enum {
  ACL_TDT_QUEUE_NAME_PTR = 0,  // const char *: the queue's name (at most 127 characters)
  ACL_TDT_QUEUE_DEPTH_UINT32   // uint32_t: entries the queue holds (default 8)
} acltdtQueueAttrType;

typedef enum {
  ACL_TDT_QUEUE_ROUTE_SRC_UINT32 = 0,  // source queue id
  ACL_TDT_QUEUE_ROUTE_DST_UINT32,      // destination queue id
  ACL_TDT_QUEUE_ROUTE_STATUS_INT32     // 0 not bound, 1 bound, 2 abnormal
} acltdtQueueRouteParamType;

typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC = 0,          // routes from the given source
  ACL_TDT_QUEUE_ROUTE_QUERY_DST = 1,          // routes to the given destination
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST = 2,  // the route between the two
  ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL = 100    // abnormal routes
} acltdtQueueRouteQueryMode;

typedef enum {
  ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM = 0,  // acltdtQueueRouteQueryMode
  ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,  // source queue id
  ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32   // destination queue id
} acltdtQueueRouteQueryInfoParamType;

typedef enum { ACL_TDT_NORMAL_MEM = 0, ACL_TDT_DVPP_MEM } acltdtAllocBufType;

// ---- Queues ----
/// attr NULL: an automatic name and depth 8. A name already in use fails (ACL_ERROR_INVALID_PARAM).
ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr, uint32_t *qid);
/// Bound routes of the queue become abnormal.
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid);
ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf *buf, int32_t timeout);
/// data: host or device memory; userData: at most 96 bytes; rsv must be 0.
ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data, size_t dataSize,
                                               const void *userData, size_t userDataSize,
                                               int32_t timeout, uint32_t rsv);
/// Fails with ACL_ERROR_INVALID_PARAM (the entry stays queued, *retDataSize its size) when
/// dataSize is smaller than the entry. userDataSize bytes of the entry's user data are copied
/// (zeros past what was enqueued).
ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void *data, size_t dataSize,
                                               size_t *retDataSize, void *userData,
                                               size_t userDataSize, int32_t timeout);
/// npusim is one process: granting to another pid is recorded; attaching gives this process's
/// own permission (manage | dequeue | enqueue).
ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission,
                                              int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout,
                                               uint32_t *permission);

// ---- Routes ----
ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList);
ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList);
/// Replaces the list's contents with the bound (or abnormal) routes the query matches.
ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo,
                                                    acltdtQueueRouteList *qRouteList);

// ---- Shared buffers (mbuf) ----
ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf *buf);
ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf, void **dataPtr, size_t *size);
ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t *len);
ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t *num);
ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index,
                                                   acltdtBuf *buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf, void *userData, size_t size,
                                                  size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf, const void *userData, size_t size,
                                                  size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf *newBuf);

// ---- Queue attributes ----
ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr *attr);
/// len: 4 for *_UINT32, sizeof(void *) for *_PTR. The name is copied.
ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr, acltdtQueueAttrType type,
                                                size_t len, const void *param);
/// NAME_PTR writes a pointer to the attribute's copy of the name (valid while attr lives).
ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr,
                                                acltdtQueueAttrType type, size_t len,
                                                size_t *paramRealSize, void *param);

// ---- Route descriptions, lists and queries ----
ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute *route);
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute *route,
                                                      acltdtQueueRouteParamType type, size_t len,
                                                      size_t *paramRealSize, void *param);
ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList);
/// Appends a copy of the route.
ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList *routeList,
                                                 const acltdtQueueRoute *route);
/// Copies entry `index` of the list into `route`.
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList *routeList,
                                                 size_t index, acltdtQueueRoute *route);
ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList);
ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(
    const acltdtQueueRouteQueryInfo *param);
ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo *param,
                                                          acltdtQueueRouteQueryInfoParamType type,
                                                          size_t len, const void *value);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_TDT_QUEUE_H
