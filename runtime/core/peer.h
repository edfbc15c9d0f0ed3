// SPDX-License-Identifier: Apache-2.0
// Peer access between devices (aclrtDeviceCanAccessPeer, aclrtDeviceEnablePeerAccess,
// aclrtDeviceDisablePeerAccess, aclrtDevicePeerAccessStatus) and the rule copies between two
// devices' memories follow.
//
// Rules (CANN runtime API reference): enabling is per device and one-way — device A enabling peer
// B lets A's streams move data between A's and B's memory; B must enable A for its own streams.
// flags is reserved and must be 0; the peer must differ from the current device and be in
// [0, device count). Any two devices of a chip generation with peer support can reach each other:
// over HCCS where the topology links them, else over PCIe through the host (models/topology.h).
// A copy between two devices' memories runs on a device that is one of its ends (the current
// device for aclrtMemcpy, the stream's for aclrtMemcpyAsync) and needs that device to have
// enabled access to the other end. Resetting a device (its last aclrtResetDevice) drops the access
// it enabled; what other devices enabled to it stays until they disable it.
#pragma once

#include <cstdint>

namespace npusim::rt {

class Call;

/// Whether the chip generation supports peer access at all (Atlas 200I/500 A2 does not).
bool peer_capable(Call& call);
/// aclrtDeviceCanAccessPeer: 1 when `device` can reach `peer`'s memory.
std::int32_t can_access_peer(Call& call, std::int64_t device, std::int64_t peer);
void enable_peer_access(Call& call, std::int64_t peer, std::uint32_t flags);
void disable_peer_access(Call& call, std::int64_t peer);
/// aclrtDevicePeerAccessStatus: 1 when `device` has enabled access to `peer`.
std::int32_t peer_access_status(Call& call, std::int64_t device, std::int64_t peer);
/// Throws the documented error unless `device` has enabled access to `peer` (what=the API).
void require_peer_access(Call& call, std::uint32_t device, std::uint32_t peer, const char* what);

}  // namespace npusim::rt
