// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/pic_desc_link.h"

#include <unordered_map>

namespace npusim::rt::dvpp {
namespace {

/// The links tasks hold, by descriptor. An entry whose tasks all ended (expired) is dropped
/// when the descriptor is destroyed, or swept once the table has grown.
struct Links {
  std::mutex mutex;
  std::unordered_map<const acldvppPicDesc*, std::weak_ptr<PicDescLink>> by_desc;
  std::size_t sweep_at = 1024;
};

Links& links() {
  static Links* l = new Links;  // never destroyed: tasks may end during exit
  return *l;
}

void sweep_expired(Links& l) {
  for (auto it = l.by_desc.begin(); it != l.by_desc.end();) {
    it = it->second.expired() ? l.by_desc.erase(it) : std::next(it);
  }
  l.sweep_at = 2 * l.by_desc.size() + 1024;
}

}  // namespace

bool PicDescLink::write(const std::function<void(acldvppPicDesc&)>& update) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (desc_ == nullptr) return false;
  update(*desc_);
  return true;
}

void PicDescLink::cut() {
  std::lock_guard<std::mutex> lock(mutex_);
  desc_ = nullptr;
}

std::shared_ptr<PicDescLink> link_pic_desc(acldvppPicDesc* desc) {
  Links& l = links();
  std::lock_guard<std::mutex> lock(l.mutex);
  std::weak_ptr<PicDescLink>& slot = l.by_desc[desc];
  std::shared_ptr<PicDescLink> link = slot.lock();
  if (!link) {
    link = std::make_shared<PicDescLink>(desc);
    slot = link;
  }
  if (l.by_desc.size() >= l.sweep_at) sweep_expired(l);
  return link;
}

bool unlink_pic_desc(const acldvppPicDesc* desc) {
  Links& l = links();
  std::shared_ptr<PicDescLink> link;  // released after the table's lock
  {
    std::lock_guard<std::mutex> lock(l.mutex);
    const auto it = l.by_desc.find(desc);
    if (it == l.by_desc.end()) return false;
    link = it->second.lock();
    l.by_desc.erase(it);
  }
  if (!link) return false;
  link->cut();
  return true;
}

}  // namespace npusim::rt::dvpp
