// SPDX-License-Identifier: Apache-2.0
// The output picture descriptor of an unfinished decode task (JPEGD, PNGD). The task writes its
// results (retCode, format, width, height, size) into the descriptor when it ends in simulated
// time, which is after the API call returned; the program may destroy the descriptor before it
// synchronizes (acldvppDestroyPicDesc returns at once and succeeds, as CANN's does). So the task
// holds a link, not the pointer: acldvppDestroyPicDesc cuts the links to the descriptor before
// freeing it, and a task whose link is cut drops its results (the pixels still land in the
// output memory, which is checked separately) instead of writing freed memory.
//
//   auto link = dvpp::link_pic_desc(outputDesc);           // at submit
//   ... in the task: link->write([&](acldvppPicDesc& d) { d.ret_code = 0; ... });
//   acldvppDestroyPicDesc: dvpp::unlink_pic_desc(picDesc); delete picDesc;
//
// Thread-safe (the task runs in the thread that advances simulated time). Plain C++.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include "runtime/dvpp/descriptors.h"

namespace npusim::rt::dvpp {

class PicDescLink {
 public:
  explicit PicDescLink(acldvppPicDesc* desc) : desc_(desc) {}
  /// Runs `update` on the descriptor if it still exists; false when it was destroyed.
  bool write(const std::function<void(acldvppPicDesc&)>& update);
  /// The descriptor is being destroyed: later writes are dropped.
  void cut();

 private:
  std::mutex mutex_;
  acldvppPicDesc* desc_;
};

/// The link to `desc` (shared by every unfinished task that writes it).
std::shared_ptr<PicDescLink> link_pic_desc(acldvppPicDesc* desc);

/// Cuts the link to `desc`, if an unfinished task holds one; true when one did.
bool unlink_pic_desc(const acldvppPicDesc* desc);

}  // namespace npusim::rt::dvpp
