// SPDX-License-Identifier: Apache-2.0
// aclInit / aclFinalize: process-level start and teardown of the runtime.
#pragma once

namespace npusim::rt {

class Call;

/// aclInit: checks the optional JSON file, starts the backend (first time) and the devices.
void initialize(Call& call, const char* config_path);
/// aclrtSetDevice in a process that has never called aclInit: initialises as aclInit(nullptr)
/// would, as CANN's runtime does (CANN 9's Ascend C examples call aclrtSetDevice first). Once
/// aclInit has been called, nothing: after aclFinalize, calls fail with ACL_ERROR_UNINITIALIZE.
void initialize_implicitly(Call& call);
/// aclFinalize: waits for (or discards) every task, destroys every context, stream and event,
/// frees all device, pinned host and managed memory, host registrations and kernel binaries,
/// writes the outputs.
void finalize(Call& call);

}  // namespace npusim::rt
