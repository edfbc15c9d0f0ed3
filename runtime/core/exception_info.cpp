// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/exception_info.h"

#include "sim/log.h"

namespace npusim::rt {

void deliver_exceptions(std::vector<PendingException>& reports) {
  for (PendingException& r : reports) {
    try {
      if (r.process_callback != nullptr) r.process_callback(&r.info);
      if (r.binary_callback != nullptr) r.binary_callback(&r.info, r.binary_user_data);
    } catch (...) {
      sim::log_error("an exception callback threw; it is ignored");
    }
  }
}

}  // namespace npusim::rt
