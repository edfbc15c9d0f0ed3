// SPDX-License-Identifier: Apache-2.0
// C skin: tensor data transfer channels (acl/acl_tdt.h). Semantics: runtime/tdt/tdt.h. Items and
// datasets are host objects (no aclInit needed); channels need aclInit.
#include <algorithm>
#include <string>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/tdt/tdt.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using npusim::rt::tdt::Tdt;

namespace {

acltdtDataItem* live_item(const acltdtDataItem* item) {
  return require_live(Tdt::instance().items, item, "dataItem", "data item");
}

acltdtDataset* live_dataset(const acltdtDataset* dataset) {
  return require_live(Tdt::instance().datasets, dataset, "dataset", "dataset");
}

}  // namespace

extern "C" {

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
  return api_value<acltdtTensorType>(
      "acltdtGetTensorTypeFromItem", Needs::kNothing, ACL_TENSOR_DATA_UNDEFINED,
      [&](Call&) { return static_cast<acltdtTensorType>(live_item(dataItem)->tensor_type); });
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
  return api_value<aclDataType>(
      "acltdtGetDataTypeFromItem", Needs::kNothing, ACL_DT_UNDEFINED,
      [&](Call&) { return static_cast<aclDataType>(live_item(dataItem)->data_type); });
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
  return api_value<void*>("acltdtGetDataAddrFromItem", Needs::kNothing, nullptr,
                          [&](Call&) { return live_item(dataItem)->data; });
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
  return api_value<size_t>("acltdtGetDataSizeFromItem", Needs::kNothing, 0,
                           [&](Call&) { return live_item(dataItem)->size; });
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
  return api_value<size_t>("acltdtGetDimNumFromItem", Needs::kNothing, 0,
                           [&](Call&) { return live_item(dataItem)->dims.size(); });
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
  return api_any("acltdtGetDimsFromItem", [&](Call&) {
    const acltdtDataItem* item = live_item(dataItem);
    require(dimNum >= item->dims.size(), ACL_ERROR_INVALID_PARAM,
            "dimNum " + std::to_string(dimNum) + " is smaller than the item's " +
                std::to_string(item->dims.size()) + " dimensions");
    if (item->dims.empty()) return;
    require_not_null(dims, "dims");
    std::copy(item->dims.begin(), item->dims.end(), dims);
  });
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims,
                                     size_t dimNum, aclDataType dataType, void* data,
                                     size_t size) {
  return api_value<acltdtDataItem*>("acltdtCreateDataItem", Needs::kNothing, nullptr, [&](Call&) {
    const int type = as_int(tdtType);
    require(type >= ACL_TENSOR_DATA_TENSOR && type <= ACL_TENSOR_DATA_END_TENSOR,
            ACL_ERROR_INVALID_PARAM, "tdtType " + std::to_string(type) + " is not a tensor type");
    require(dimNum <= tdt::kMaxDims, ACL_ERROR_INVALID_PARAM,
            "dimNum must be at most " + std::to_string(tdt::kMaxDims));
    require(dims != nullptr || dimNum == 0, ACL_ERROR_INVALID_PARAM,
            "dims is NULL but dimNum is not 0");
    require(data != nullptr || size == 0, ACL_ERROR_INVALID_PARAM,
            "data is NULL but size is not 0");
    tdt::require_span(data, size, "size");
    for (size_t i = 0; i < dimNum; ++i) {
      require(dims[i] >= 0, ACL_ERROR_INVALID_PARAM,
              "dims[" + std::to_string(i) + "] is negative");
    }
    auto* item = new acltdtDataItem;
    item->tensor_type = type;
    item->data_type = as_int(dataType);
    item->dims.assign(dims, dims + dimNum);
    item->data = data;
    item->size = size;
    Tdt::instance().items.insert(item);
    return item;
  });
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
  return api_any("acltdtDestroyDataItem", [&](Call&) {
    acltdtDataItem* item = live_item(dataItem);
    Tdt& t = Tdt::instance();
    for (const void* d : t.datasets) {  // no dataset keeps a dangling item
      auto& items = static_cast<acltdtDataset*>(const_cast<void*>(d))->items;
      items.erase(std::remove(items.begin(), items.end(), item), items.end());
    }
    t.items.erase(item);
    delete item;
  });
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum,
                                    size_t* sliceId) {
  return api_any("acltdtGetSliceInfoFromItem", [&](Call&) {
    const acltdtDataItem* item = live_item(dataItem);
    require_not_null(sliceNum, "sliceNum");
    require_not_null(sliceId, "sliceId");
    *sliceNum = item->slice_num;
    *sliceId = item->slice_id;
  });
}

acltdtDataset* acltdtCreateDataset(void) {
  return api_value<acltdtDataset*>("acltdtCreateDataset", Needs::kNothing, nullptr, [&](Call&) {
    auto* dataset = new acltdtDataset;
    Tdt::instance().datasets.insert(dataset);
    return dataset;
  });
}

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
  return api_any("acltdtDestroyDataset", [&](Call&) {
    acltdtDataset* d = live_dataset(dataset);
    Tdt& t = Tdt::instance();
    for (acltdtDataItem* item : d->items) {
      if (item->owner != d) continue;
      t.items.erase(item);
      delete item;
    }
    t.datasets.erase(d);
    delete d;
  });
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
  return api_value<acltdtDataItem*>("acltdtGetDataItem", Needs::kNothing, nullptr, [&](Call&) {
    const acltdtDataset* d = live_dataset(dataset);
    require(index < d->items.size(), ACL_ERROR_INVALID_PARAM,
            "index " + std::to_string(index) + " is past the dataset's " +
                std::to_string(d->items.size()) + " items");
    return d->items[index];
  });
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
  return api_any("acltdtAddDataItem", [&](Call&) {
    acltdtDataset* d = live_dataset(dataset);
    acltdtDataItem* item = live_item(dataItem);
    require(item->owner == nullptr, ACL_ERROR_INVALID_PARAM,
            "dataItem belongs to a received dataset");
    d->items.push_back(item);
  });
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
  return api_value<size_t>("acltdtGetDatasetSize", Needs::kNothing, 0,
                           [&](Call&) { return live_dataset(dataset)->items.size(); });
}

const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
  return api_value<const char*>("acltdtGetDatasetName", Needs::kNothing, nullptr,
                                [&](Call&) { return live_dataset(dataset)->name.c_str(); });
}

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
  return api_value<acltdtChannelHandle*>(
      "acltdtCreateChannel", Needs::kInit, nullptr, [&](Call& c) {
        return tdt::create_channel(c, deviceId, name, tdt::kDefaultChannelCapacity);
      });
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name,
                                                     size_t capacity) {
  return api_value<acltdtChannelHandle*>(
      "acltdtCreateChannelWithCapacity", Needs::kInit, nullptr,
      [&](Call& c) { return tdt::create_channel(c, deviceId, name, capacity); });
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
  return api("acltdtStopChannel", [&](Call& c) { tdt::stop_channel(c, handle); });
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
  return api("acltdtDestroyChannel", [&](Call& c) { tdt::destroy_channel(c, handle); });
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                          int32_t timeout) {
  return api("acltdtSendTensor", [&](Call& c) { tdt::send(c, handle, dataset, timeout); });
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                             int32_t timeout) {
  return api("acltdtReceiveTensor", [&](Call& c) { tdt::receive(c, handle, dataset, timeout); });
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
  return api("acltdtCleanChannel", [&](Call& c) { tdt::clean_channel(c, handle); });
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
  return api("acltdtQueryChannelSize", [&](Call& c) {
    const tdt::ChannelState& ch = tdt::live_channel(c, handle);
    require_not_null(size, "size");
    *size = ch.messages.size();
  });
}

}  // extern "C"
