// SPDX-License-Identifier: Apache-2.0
// How a DVPP API call reaches the DVPP unit (models/dvpp.h). Plain C++ over the runtime's
// internal API: the image calls (runtime/dvpp/acl_dvpp_*.cpp) and the video calls (aclvdec*,
// aclvenc*, hi_mpi_*) all build their tasks here, so the unit sees one kind of task per module.
//
//   check_module(call, DvppModule::kJpegd, "acldvppJpegDecodeAsync");   // chip has JPEGD?
//   DvppFrame f = frame(in_w, in_h, in_bytes, out_w, out_h, out_bytes);
//   submit(call, stream, DvppModule::kJpegd, {f}, "JPEGD", [=]() -> int { ...decode...; return 0;
//   });
//
// The task runs in its stream's order like any other; its simulated time is the module's
// (frames x pixels at the preset's published rates, plus HBM traffic); `effect` runs once at the
// task's simulated end (before the stream moves on), returns an aclError (0 = success; a
// non-zero value fails the task as a device error would), and must only touch memory it was
// given (it runs later than the API call, from the thread that advances simulated time).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/dvpp_work.h"
#include "runtime/core/api_call.h"

namespace npusim::rt::dvpp {

using models::DvppFrame;
using models::DvppModule;

/// Fails the call with ACL_ERROR_FEATURE_UNSUPPORTED (200006, logged with `api`) when the
/// current device's chip has no `module` (dvpp.<module>.channels = 0 in its configuration).
void check_module(Call& call, DvppModule module, const char* api);

/// True when the chip of `config` has `module`.
bool has_module(const models::ChipConfig& config, DvppModule module);

/// The work of one frame: the module's time scales with the larger of the input and output
/// pixel counts; the bytes are what it reads from and writes to device memory.
DvppFrame frame(std::uint64_t in_width, std::uint64_t in_height, std::uint64_t read_bytes,
                std::uint64_t out_width, std::uint64_t out_height, std::uint64_t write_bytes);

/// Submits a task of `module` with `frames` on `stream` (NULL = the current context's default
/// stream; throws the stream errors of Call::stream). `name` labels the task on the timeline
/// ("JPEGD", "VPC_RESIZE"...). `effect` may be empty (timing only).
void submit(Call& call, void* stream, DvppModule module, std::vector<DvppFrame> frames,
            const char* name, std::function<int()> effect);

}  // namespace npusim::rt::dvpp
