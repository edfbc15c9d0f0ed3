// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/errors.h"

namespace npusim::rt {

void fail(int code, std::string message) { throw ApiError(code, std::move(message)); }

void fail_verbatim(int code, std::string message) {
  throw ApiError(code, std::move(message), true);
}

}  // namespace npusim::rt
