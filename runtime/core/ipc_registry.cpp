// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/ipc_registry.h"

#include <iterator>

namespace npusim::rt {

LocalIpcRegistry::Export* LocalIpcRegistry::find(std::uint64_t id, IpcKind kind) {
  auto it = exports_.find(id);
  return it == exports_.end() || it->second.kind != kind ? nullptr : &it->second;
}

std::uint64_t LocalIpcRegistry::publish(IpcKind kind, std::int32_t owner_pid, bool check_pid,
                                        IpcObject object) {
  // The exporter's pid in the high half makes ids of different processes differ (as a server's
  // would) and keeps a stale id of an earlier run from naming a new export.
  const std::uint64_t id =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(owner_pid)) << 32) | next_serial_++;
  Export e;
  e.kind = kind;
  e.owner = owner_pid;
  e.check_pid = check_pid;
  e.object = std::move(object);
  exports_.emplace(id, std::move(e));
  return id;
}

IpcStatus LocalIpcRegistry::allow(std::uint64_t id, IpcKind kind, std::int32_t caller_pid,
                                  const std::vector<std::int32_t>& pids) {
  Export* e = find(id, kind);
  if (e == nullptr) return IpcStatus::kUnknownKey;
  if (e->owner != caller_pid) return IpcStatus::kNotOwner;
  e->allowed.insert(pids.begin(), pids.end());
  return IpcStatus::kOk;
}

IpcStatus LocalIpcRegistry::import(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                                   IpcObject* object) {
  Export* e = find(id, kind);
  if (e == nullptr) return IpcStatus::kUnknownKey;
  if (e->check_pid && e->allowed.count(importer_pid) == 0) return IpcStatus::kNotPermitted;
  ++e->imports[importer_pid];
  *object = e->object;
  return IpcStatus::kOk;
}

IpcStatus LocalIpcRegistry::close(std::uint64_t id, IpcKind kind, std::int32_t pid) {
  Export* e = find(id, kind);
  if (e == nullptr) return IpcStatus::kUnknownKey;
  auto it = e->imports.find(pid);
  if (it != e->imports.end()) {
    if (--it->second == 0) e->imports.erase(it);
    return IpcStatus::kOk;
  }
  if (e->owner != pid) return IpcStatus::kNotOwner;
  exports_.erase(id);
  return IpcStatus::kOk;
}

void LocalIpcRegistry::withdraw_all(std::int32_t owner_pid) {
  for (auto it = exports_.begin(); it != exports_.end();) {
    it = it->second.owner == owner_pid ? exports_.erase(it) : std::next(it);
  }
}

std::size_t LocalIpcRegistry::imports(std::uint64_t id) const {
  auto it = exports_.find(id);
  if (it == exports_.end()) return 0;
  std::size_t n = 0;
  for (const auto& [pid, count] : it->second.imports) n += count;
  return n;
}

}  // namespace npusim::rt
