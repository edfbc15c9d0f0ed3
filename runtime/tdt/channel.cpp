// SPDX-License-Identifier: Apache-2.0
// TDT channels: creation by (device, name), send and receive of datasets with capacity and
// timeouts, stop, clean, destroy (tdt.h).
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "runtime/core/errors.h"
#include "runtime/tdt/tdt.h"

namespace npusim::rt::tdt {
namespace {

std::string describe(const ChannelState& c) {
  return "channel \"" + c.name + "\" (device " + std::to_string(c.device) + ", capacity " +
         std::to_string(c.capacity) + ")";
}

void require_running(const ChannelState& c) {
  require(!c.stopped, ACL_ERROR_FAILURE, describe(c) + " was stopped");
  require(!c.destroyed, ACL_ERROR_FAILURE, describe(c) + " was destroyed");
}

std::uint64_t bytes_of(const Message& m) {
  std::uint64_t n = 0;
  for (const Tensor& t : m.tensors) n += t.bytes.size();
  return n;
}

// The dataset's items as they enter the channel (their bytes copied).
Message message_of(const acltdtDataset& dataset) {
  Message m;
  m.name = dataset.name;
  for (const acltdtDataItem* item : dataset.items) {
    Tensor t;
    t.tensor_type = item->tensor_type;
    t.data_type = item->data_type;
    t.dims = item->dims;
    const auto* p = static_cast<const unsigned char*>(item->data);
    if (item->size > 0) t.bytes.assign(p, p + item->size);
    t.slice_num = item->slice_num;
    t.slice_id = item->slice_id;
    m.tensors.push_back(std::move(t));
  }
  return m;
}

void free_owned_items(Tdt& tdt, acltdtDataset& dataset) {
  std::vector<acltdtDataItem*> kept;
  for (acltdtDataItem* item : dataset.items) {
    if (item->owner == &dataset) {
      tdt.items.erase(item);
      delete item;
    } else {
      kept.push_back(item);
    }
  }
  dataset.items.swap(kept);
}

void require_live_dataset(const Tdt& tdt, const acltdtDataset* dataset) {
  require_live(tdt.datasets, dataset, "dataset", "dataset");
}

// Each item, and all of them, fit the device's memory.
void require_dataset_fits_device(Call& call, const acltdtDataset& dataset) {
  std::uint64_t total = 0;
  for (const acltdtDataItem* item : dataset.items) {
    require_fits_device(call, item->size, "an item of the dataset");
    total += item->size;  // both at most the device's memory: no wrap
    require_fits_device(call, total, "the dataset");
  }
}

// A dataset to receive into: live, and holding no items the application added.
void require_receiving_dataset(const Tdt& tdt, const acltdtDataset* dataset) {
  require_live_dataset(tdt, dataset);
  for (const acltdtDataItem* item : dataset->items) {
    require(item->owner == dataset, ACL_ERROR_INVALID_PARAM,
            "dataset holds items added by acltdtAddDataItem: receive into an empty dataset");
  }
}

// A received tensor as an item the dataset owns (freed with it).
acltdtDataItem* owned_item(Tensor t, acltdtDataset* dataset) {
  auto* item = new acltdtDataItem;
  item->tensor_type = t.tensor_type;
  item->data_type = t.data_type;
  item->dims = std::move(t.dims);
  item->owned = std::move(t.bytes);
  item->size = item->owned.size();
  item->data = item->size > 0 ? item->owned.data() : nullptr;
  item->slice_num = t.slice_num;
  item->slice_id = t.slice_id;
  item->owner = dataset;
  return item;
}

// The received message replaces what the dataset held.
void fill_dataset(Tdt& tdt, acltdtDataset& dataset, Message m) {
  free_owned_items(tdt, dataset);
  dataset.name = m.name;
  for (Tensor& t : m.tensors) {
    acltdtDataItem* item = owned_item(std::move(t), &dataset);
    tdt.items.insert(item);
    dataset.items.push_back(item);
  }
}

}  // namespace

acltdtChannelHandle* create_channel(Call& call, std::uint32_t device, const char* name,
                                    std::size_t capacity) {
  call.device(device);  // 107001 when out of range
  require_not_null(name, "name");
  const std::size_t len = strnlen(name, kMaxNameLength + 1);
  require(len > 0 && len <= kMaxNameLength, ACL_ERROR_INVALID_PARAM,
          "name must have 1 to " + std::to_string(kMaxNameLength) + " characters");
  require(capacity >= kMinChannelCapacity && capacity <= kMaxChannelCapacity,
          ACL_ERROR_INVALID_PARAM,
          "capacity " + std::to_string(capacity) + " is outside [" +
              std::to_string(kMinChannelCapacity) + ", " + std::to_string(kMaxChannelCapacity) +
              "]");
  Tdt& tdt = Tdt::instance();
  for (const void* h : tdt.channels) {
    const ChannelState& c = *static_cast<const acltdtChannelHandle*>(h)->state;
    require(!(c.device == device && c.name == name), ACL_ERROR_INVALID_PARAM,
            "a channel named \"" + std::string(name) + "\" already exists on device " +
                std::to_string(device));
  }
  auto* handle = new acltdtChannelHandle{std::make_shared<ChannelState>()};
  handle->state->device = device;
  handle->state->name = name;
  handle->state->capacity = capacity;
  tdt.channels.insert(handle);
  return handle;
}

ChannelState& live_channel(Call& call, const acltdtChannelHandle* handle) {
  (void)call;
  return *require_live(Tdt::instance().channels, handle, "handle", "channel")->state;
}

void destroy_channel(Call& call, acltdtChannelHandle* handle) {
  ChannelState& c = live_channel(call, handle);
  c.destroyed = true;  // threads blocked on it wake and fail
  c.messages.clear();
  Tdt::instance().channels.erase(handle);
  delete handle;
}

void stop_channel(Call& call, acltdtChannelHandle* handle) {
  live_channel(call, handle).stopped = true;
}

void clean_channel(Call& call, acltdtChannelHandle* handle) {
  live_channel(call, handle).messages.clear();
}

void send(Call& call, const acltdtChannelHandle* handle, const acltdtDataset* dataset,
          std::int32_t timeout_ms) {
  ChannelState& c = live_channel(call, handle);
  require_live_dataset(Tdt::instance(), dataset);
  require_running(c);
  require_dataset_fits_device(call, *dataset);
  std::shared_ptr<ChannelState> st = handle->state;  // the handle may be destroyed meanwhile
  Message m = message_of(*dataset);
  const bool room = wait_for(
      call, [st] { return st->has_room() || st->stopped || st->destroyed; }, timeout_ms,
      ACL_ERROR_RT_QUEUE_FULL, "acltdtSendTensor waits for room in " + describe(*st));
  require_running(*st);
  if (!room) fail_waited(ACL_ERROR_RT_QUEUE_FULL, describe(*st), "full", timeout_ms);
  Reservation slot(st->reserved);
  transfer(call, st->device, Direction::kH2D, bytes_of(m), "TDT_SEND_H2D");
  require_running(*st);
  slot.release();
  st->messages.push_back(std::move(m));
}

void receive(Call& call, const acltdtChannelHandle* handle, acltdtDataset* dataset,
             std::int32_t timeout_ms) {
  ChannelState& c = live_channel(call, handle);
  Tdt& tdt = Tdt::instance();
  require_receiving_dataset(tdt, dataset);
  require_running(c);
  std::shared_ptr<ChannelState> st = handle->state;
  const bool ready = wait_for(
      call, [st] { return !st->messages.empty() || st->stopped || st->destroyed; }, timeout_ms,
      ACL_ERROR_RT_QUEUE_EMPTY, "acltdtReceiveTensor waits for data in " + describe(*st));
  require_running(*st);
  if (!ready) fail_waited(ACL_ERROR_RT_QUEUE_EMPTY, describe(*st), "empty", timeout_ms);
  Message m = std::move(st->messages.front());
  st->messages.pop_front();
  transfer(call, st->device, Direction::kD2H, bytes_of(m), "TDT_RECV_D2H");
  // The dataset may have been destroyed by another thread while the copy ran.
  require(tdt.datasets.count(dataset) != 0, ACL_ERROR_INVALID_PARAM,
          "dataset was destroyed during the receive");
  fill_dataset(tdt, *dataset, std::move(m));
}

}  // namespace npusim::rt::tdt
