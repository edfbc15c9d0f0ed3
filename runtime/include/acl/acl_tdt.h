// SPDX-License-Identifier: Apache-2.0
// npusim public header: tensor data transfer channels (acltdt*; lib64/libacl_tdt_channel.so is
// the runtime library). Names, values and signatures follow CANN's acl_tdt.h.
// A channel is a FIFO of datasets on one device with a capacity (datasets); the host sends into
// it and receives from it. Every send moves the dataset's bytes host-to-device and every receive
// device-to-host over the simulated host link, so both take simulated time. Timeouts are in
// simulated milliseconds: -1 waits until it can proceed, 0 does not wait, > 0 waits at most that
// long. A full channel fails a send with ACL_ERROR_RT_QUEUE_FULL, an empty one a receive with
// ACL_ERROR_RT_QUEUE_EMPTY (also after a wait that timed out, or one that nothing could ever end:
// a single host thread waiting forever). runtime/tdt/tdt.h has the details.
#ifndef NPUSIM_ACL_ACL_TDT_H
#define NPUSIM_ACL_ACL_TDT_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acltdtTensorType {
  ACL_TENSOR_DATA_UNDEFINED = -1,
  ACL_TENSOR_DATA_TENSOR,           // a tensor
  ACL_TENSOR_DATA_END_OF_SEQUENCE,  // end of the data
  ACL_TENSOR_DATA_ABNORMAL,         // the sender failed
  ACL_TENSOR_DATA_SLICE_TENSOR,     // one slice of a sliced tensor
  ACL_TENSOR_DATA_END_TENSOR        // the last slice of a sliced tensor
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

// ---- Data items: one tensor (type, shape, element type, bytes) ----
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);
/// Copies the item's dims; dimNum must be at least the item's dimension count.
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims,
                                                   size_t dimNum);
/// The item refers to `data` (not copied): it must stay valid while the item is sent.
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType,
                                                         const int64_t *dims, size_t dimNum,
                                                         aclDataType dataType, void *data,
                                                         size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);
/// Slice count and index of a slice tensor (0 and 0 for a whole tensor).
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem,
                                                        size_t *sliceNum, size_t *sliceId);

// ---- Datasets: an ordered list of items, sent and received as one ----
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void);
/// Frees the items a receive put into the dataset; items the user added stay alive.
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);
ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset);

// ---- Channels ----
/// A channel of the default capacity (128 datasets in npusim).
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name);
/// capacity: datasets, in [2, 8192].
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId,
                                                                         const char *name,
                                                                         size_t capacity);
/// Wakes every thread blocked in a send or receive on the channel; they, and every later send or
/// receive, fail with ACL_ERROR_FAILURE.
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle,
                                              const acltdtDataset *dataset, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle,
                                                 acltdtDataset *dataset, int32_t timeout);
/// Drops every dataset in the channel.
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);
/// Datasets in the channel now.
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle,
                                                    size_t *size);

#ifdef __cplusplus
}
#endif

#endif  // NPUSIM_ACL_ACL_TDT_H
