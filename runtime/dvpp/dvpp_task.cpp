// SPDX-License-Identifier: Apache-2.0
#include "runtime/dvpp/dvpp_task.h"

#include <algorithm>
#include <memory>
#include <string>

#include "acl/acl_base.h"
#include "models/dvpp_config.h"
#include "runtime/core/errors.h"
#include "runtime/core/stream.h"

namespace npusim::rt::dvpp {

bool has_module(const models::ChipConfig& config, DvppModule module) {
  return config.unit<models::DvppConfig>().module(module).channels > 0;
}

void check_module(Call& call, DvppModule module, const char* api) {
  require(has_module(call.config(), module), ACL_ERROR_FEATURE_UNSUPPORTED,
          std::string(api) + ": " + call.config().soc.name + " has no DVPP " +
              models::dvpp_module_name(module) + " (dvpp." + models::dvpp_module_name(module) +
              ".channels is 0)");
}

DvppFrame frame(std::uint64_t in_width, std::uint64_t in_height, std::uint64_t read_bytes,
                std::uint64_t out_width, std::uint64_t out_height, std::uint64_t write_bytes) {
  DvppFrame f;
  f.pixels = std::max(in_width * in_height, out_width * out_height);
  f.read_bytes = read_bytes;
  f.write_bytes = write_bytes;
  return f;
}

void submit(Call& call, void* stream, DvppModule module, std::vector<DvppFrame> frames,
            const char* name, std::function<int()> effect) {
  Stream& s = call.stream(stream);
  Task task;
  task.kind = models::dvpp_task_kind(module);
  task.direction = Direction::kD2D;
  task.name = name;
  auto work = std::make_shared<models::DvppWork>();
  work->module = module;
  for (const DvppFrame& f : frames) task.bytes += f.read_bytes + f.write_bytes;
  work->frames = std::move(frames);
  task.payload = std::move(work);
  task.effect = std::move(effect);
  submit_to_stream(call, s, std::move(task));
}

}  // namespace npusim::rt::dvpp
