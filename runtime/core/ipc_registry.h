// SPDX-License-Identifier: Apache-2.0
// Shareable objects: what one process exports (a device memory range, a physical allocation, an
// event, a notify) under an id another process imports, with the exporter's pid whitelist and the
// close/withdraw rules of the CANN IPC APIs. The runtime reaches it only through this interface:
// LocalIpcRegistry serves threads, contexts and devices of one process; a simulation server
// shared by several processes implements the same calls over its socket (docs/multiprocess.md).
//
// Rules (CANN runtime API reference, "IPC memory" / "virtual memory" / IPC events and notifies):
//  - An export gets an id that names it for the whole machine; the APIs turn it into their key
//    string (aclrtIpcMemGetExportKey, aclrtNotifyGetExportKey), a 64-bit shareable handle
//    (aclrtMemExportToShareableHandle) or the bytes of an aclrtIpcEventHandle.
//  - With pid validation (the default export flag) only the pids the exporter listed
//    (aclrtIpcMemSetImportPid, aclrtMemSetPidToShareableHandle, aclrtNotifySetImportPid) may
//    import, the exporter's own pid included; without it any process may. Only the exporter may
//    list pids. Events are exported without a whitelist.
//  - close(): a process that imported the id drops one import; the exporter (with no import of
//    its own left) withdraws the export, after which the id is unknown. Destroying the exported
//    object (event, notify, the allocating physical handle) also withdraws it (withdraw()); an
//    IPC memory key of freed memory is refused at import. Imports already made stay valid: they
//    hold the object.
// The importer's pid is a parameter of every call, so whitelisting is checked (and tested) in one
// process exactly as a server would check it for another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace npusim::rt {

enum class IpcKind : std::uint8_t { kMemory, kPhysical, kEvent, kNotify };

enum class IpcStatus : std::uint8_t {
  kOk,
  kUnknownKey,    // never exported, withdrawn, or of another kind
  kNotOwner,      // only the exporting process may do this
  kNotPermitted,  // pid validation is on and the importer is not on the whitelist
};

/// What an export carries. In one process the object itself (the runtime's state shared by
/// exporter and importers); a server carries a description instead (docs/multiprocess.md).
using IpcObject = std::shared_ptr<void>;

class IpcRegistry {
 public:
  virtual ~IpcRegistry() = default;
  /// Publishes `object`; returns its id (never 0, never reused).
  virtual std::uint64_t publish(IpcKind kind, std::int32_t owner_pid, bool check_pid,
                                IpcObject object) = 0;
  /// The exporter adds `pids` to the whitelist of `id`.
  virtual IpcStatus allow(std::uint64_t id, IpcKind kind, std::int32_t caller_pid,
                          const std::vector<std::int32_t>& pids) = 0;
  /// `importer_pid` imports `id`: on success *object is the exported object.
  virtual IpcStatus import(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                           IpcObject* object) = 0;
  /// `pid` closes `id`: drops one of its imports, else (the exporter) withdraws the export.
  virtual IpcStatus close(std::uint64_t id, IpcKind kind, std::int32_t pid) = 0;
  /// The exported object is gone (freed, destroyed): the id becomes unknown.
  virtual void withdraw(std::uint64_t id) = 0;
  /// Every export of `owner_pid` is withdrawn (aclFinalize, process exit).
  virtual void withdraw_all(std::int32_t owner_pid) = 0;
  /// Open imports of `id` (tests, diagnostics).
  virtual std::size_t imports(std::uint64_t id) const = 0;
};

/// The in-process registry: exports live in this process's memory.
class LocalIpcRegistry final : public IpcRegistry {
 public:
  std::uint64_t publish(IpcKind kind, std::int32_t owner_pid, bool check_pid,
                        IpcObject object) override;
  IpcStatus allow(std::uint64_t id, IpcKind kind, std::int32_t caller_pid,
                  const std::vector<std::int32_t>& pids) override;
  IpcStatus import(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                   IpcObject* object) override;
  IpcStatus close(std::uint64_t id, IpcKind kind, std::int32_t pid) override;
  void withdraw(std::uint64_t id) override { exports_.erase(id); }
  void withdraw_all(std::int32_t owner_pid) override;
  std::size_t imports(std::uint64_t id) const override;

 private:
  struct Export {
    IpcKind kind = IpcKind::kMemory;
    std::int32_t owner = 0;
    bool check_pid = true;
    std::set<std::int32_t> allowed;
    std::map<std::int32_t, std::size_t> imports;  // open imports by pid
    IpcObject object;
  };
  Export* find(std::uint64_t id, IpcKind kind);

  std::map<std::uint64_t, Export> exports_;
  std::uint32_t next_serial_ = 1;
};

}  // namespace npusim::rt
