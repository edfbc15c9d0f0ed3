// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/peer.h"

#include <string>

#include "acl/acl.h"
#include "runtime/core/api_call.h"
#include "runtime/core/context.h"
#include "runtime/core/device.h"
#include "runtime/core/device_query.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::int64_t kNoPeerArch = 3002;  // Atlas 200I/500 A2 (310B): no peer access

// The current device and a valid peer different from it.
std::uint32_t checked_peer(Call& call, std::int64_t peer) {
  const std::uint32_t current = call.context().device;
  check_device_id(call, peer);
  require(peer != current, ACL_ERROR_RT_PARAM_INVALID,
          "peerDeviceId " + std::to_string(peer) + " is the current device");
  return current;
}

}  // namespace

bool peer_capable(Call& call) { return call.config().soc.npu_arch != kNoPeerArch; }

std::int32_t can_access_peer(Call& call, std::int64_t device, std::int64_t peer) {
  check_device_id(call, device);
  check_device_id(call, peer);
  require(device != peer, ACL_ERROR_RT_PARAM_INVALID,
          "deviceId and peerDeviceId are the same device (" + std::to_string(device) + ")");
  return peer_capable(call) ? 1 : 0;
}

void enable_peer_access(Call& call, std::int64_t peer, std::uint32_t flags) {
  require(flags == 0, ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0");
  const std::uint32_t current = checked_peer(call, peer);
  require(peer_capable(call), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "this chip does not support peer access between devices");
  call.device(current).peers.insert(static_cast<std::uint32_t>(peer));
}

void disable_peer_access(Call& call, std::int64_t peer) {
  const std::uint32_t current = checked_peer(call, peer);
  require(peer_capable(call), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "this chip does not support peer access between devices");
  Device& dev = call.device(current);
  require(dev.peers.erase(static_cast<std::uint32_t>(peer)) == 1, ACL_ERROR_RT_PARAM_INVALID,
          "peer access from device " + std::to_string(current) + " to device " +
              std::to_string(peer) + " is not enabled");
}

std::int32_t peer_access_status(Call& call, std::int64_t device, std::int64_t peer) {
  const std::int64_t count = call.config().soc.num_devices;
  require(device >= 0 && device < count && peer >= 0 && peer < count, ACL_ERROR_RT_PARAM_INVALID,
          "device ids must be in [0, " + std::to_string(count) + "), got " +
              std::to_string(device) + " and " + std::to_string(peer));
  const auto& peers = call.device(device).peers;
  return peers.count(static_cast<std::uint32_t>(peer)) != 0 ? 1 : 0;
}

void require_peer_access(Call& call, std::uint32_t device, std::uint32_t peer, const char* what) {
  if (call.device(device).peers.count(peer) != 0) return;  // no message on the success path
  fail(ACL_ERROR_RT_PARAM_INVALID,
       std::string(what) + " between device " + std::to_string(device) + " and device " +
           std::to_string(peer) + " needs peer access: call aclrtDeviceEnablePeerAccess(" +
           std::to_string(peer) + ", 0) on device " + std::to_string(device) + " first");
}

}  // namespace npusim::rt
