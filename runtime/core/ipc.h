// SPDX-License-Identifier: Apache-2.0
// Sharing between processes (and, today, between threads, contexts and devices of one process):
// IPC device memory (aclrtIpcMem*), IPC events (ACL_EVENT_IPC, aclrtIpcGetEventHandle /
// aclrtIpcOpenEventHandle), IPC notifies (aclrtNotifyGetExportKey / ImportByKey / SetImportPid)
// and the process id the whitelists hold (aclrtDeviceGetBareTgid). The shared state goes through
// the Runtime's IpcRegistry (ipc_registry.h); the virtual memory handles are in vmm.h.
//
// Rules (CANN runtime API reference):
//  - IPC memory: the exporter names [devPtr, devPtr + size) inside one live device allocation;
//    the key is a string of at most 64 characters (len >= 65 with its terminator). An import
//    gives a device pointer to the start of that range, usable by the importer's streams (another
//    device's memory needs peer access: aclrtDeviceEnablePeerAccess, or the import flag
//    ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS). aclrtIpcMemClose: importers first, then the
//    exporter; afterwards the key is unknown. An import of freed memory fails.
//    In one process an import is the exporter's own address (one device address space); a
//    server gives another process its own mapping of the same pages (docs/multiprocess.md).
//  - IPC events: only an aclrtCreateEventExWithFlag(ACL_EVENT_IPC) event exports; the opened
//    event is the same event (records, waits, queries and synchronisation see one state), usable
//    by streams of the opener's devices without peer access. Destroying the exported event
//    withdraws its handle.
//  - IPC notifies: an exported notify imported by key; recording it from another device needs
//    peer access unless imported with ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS; waits stay on
//    the notify's device. Destroying the exported notify withdraws its key.
//  - Errors: a key or handle never exported, closed or withdrawn -> ACL_ERROR_RT_PARAM_INVALID;
//    an importer not on the whitelist of a pid-validated export, or a whitelist change by another
//    process than the exporter -> ACL_ERROR_RT_NO_PERMISSION.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/core/ipc_registry.h"

namespace npusim::rt {

class Call;
class RemoteIpcRegistry;

/// Tells a session's registry how IPC memory, events, notifies and physical allocations travel.
void install_ipc_codecs(RemoteIpcRegistry& registry);

/// aclrtDeviceGetBareTgid: this process's id (the id whitelists hold).
std::int32_t process_pid();
/// Throws the documented error for a failed registry call (`what` names the object).
void check_ipc(IpcStatus status, const std::string& what);
/// Key strings of IPC memory and notifies <-> registry ids; 0 for a malformed key.
std::string ipc_key(IpcKind kind, std::uint64_t id);
std::uint64_t parse_ipc_key(IpcKind kind, const char* key);

void ipc_mem_export(Call& call, void* ptr, std::size_t size, char* key, std::size_t len,
                    std::uint64_t flags);
void ipc_mem_set_pids(Call& call, const char* key, const std::int32_t* pids, std::size_t count);
void* ipc_mem_import(Call& call, const char* key, std::uint64_t flags);
void ipc_mem_close(Call& call, const char* key);

/// `handle` points at an aclrtIpcEventHandle.
void ipc_event_export(Call& call, void* event, void* handle);
void* ipc_event_open(Call& call, const void* handle);

void notify_export(Call& call, void* notify, char* key, std::size_t len, std::uint64_t flags);
void notify_set_pids(Call& call, void* notify, const std::int32_t* pids, std::size_t count);
void* notify_import(Call& call, const char* key, std::uint64_t flags);

}  // namespace npusim::rt
