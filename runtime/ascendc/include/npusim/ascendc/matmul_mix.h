// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API in __mix__ kernels (npusim/ascendc/matmul_api.h): the AIVs drive it,
// the AIC of their AI Core serves it, as on the device.
//   REGIST_MATMUL_OBJ on the AIC registers its Matmuls as servers and then serves (mix_serve)
//   until every AIV is done, then leaves the kernel; on an AIV it registers client Matmuls,
//   which keep the API's state (tensors, shapes, which block is next) and send GetTensorC to the
//   AIC as a request: the AIC computes the block Iterate chose (its loads, Mmads) into its L0C
//   and its Fixpipe writes it to GM: C itself, or the workspace when C is in UB, from where the
//   AIV copies it GM -> UB on its MTE2. (Iterate itself asks nothing: the block is computed
//   when it is taken, so one L0C block serves both AIVs.)
//   Requests go round by round: in each round every AIV posts one request (kNone when it has
//   nothing to ask) and sets cross-core flag kReqFlag (mode 2); the AIC waits for it (both AIVs'
//   sets), serves the requests in AIV order and sets kAckFlag (after its Fixpipe or Mmad work),
//   which each AIV waits for. An AIV whose Matmuls are all destroyed posts kQuit and then kNone
//   until every AIV has quit. The flags carry the timing dependencies; the request itself costs
//   nothing (on the device it is a message in GM).
// Approximations: the AIVs take turns in rounds (an AIV waits for the other's request), the
// message is free.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "npusim/ascendc/mix_launch.h"
#include "npusim/ascendc/mix_ops.h"
#include "npusim/ascendc/sub_block.h"

namespace npusim::ascendc::mm {

enum class MixOp : std::uint8_t { kNone, kIterate, kGetC, kQuit };

/// One AIV's request of a round.
struct MixRequest {
  MixOp op = MixOp::kNone;
  std::uint32_t obj = 0;          // the Matmul's registration index
  const void* client = nullptr;   // the AIV's Matmul (its state)
  void* dst = nullptr;            // kGetC: where C's block goes (GM)
  std::uint64_t row0 = 0, col0 = 0;
  std::uint32_t rows = 0, cols = 0;
  std::uint8_t atomic = 0;
};

using ServeFn = void (*)(void* server, const MixRequest& r, std::uint32_t aiv);

/// The requests of one block's AIVs and its AIC's servers.
struct MixBox {
  std::vector<MixRequest> req;                      // per AIV, this round
  std::vector<std::pair<void*, ServeFn>> servers;   // the AIC's Matmuls, by registration
  std::vector<std::uint32_t> clients;               // per AIV: Matmuls registered
  std::vector<std::uint32_t> live;                  // per AIV: Matmuls not destroyed yet
  std::uint32_t quit = 0, left = 0;
  bool done = false;
};

inline constexpr std::uint32_t kReqFlag = 14, kAckFlag = 15;

inline std::mutex& mix_boxes_mutex() {
  static std::mutex mu;
  return mu;
}
inline std::map<std::pair<const void*, std::uint32_t>, MixBox>& mix_boxes() {
  static std::map<std::pair<const void*, std::uint32_t>, MixBox> boxes;
  return boxes;
}

inline std::uint32_t mix_aivs() { return current_sub_block().launch->shape().vector; }
/// The running kernel's Matmuls run where they are called (ASCENDC_CUBE_ONLY): mix_begin's.
inline thread_local bool tls_cube_only = true;
/// Running on a sub-block of a mix launch with AIVs whose Matmuls the AIC serves.
inline bool in_mix() {
  return !tls_cube_only && current_sub_block().launch != nullptr && mix_aivs() > 0;
}

/// REGIST_MATMUL_OBJ's start: notes cube_only; a kernel that is neither cube-only nor declared
/// __cube__ / __mix__ becomes __mix__(1, 2) (kernel_mix restarts the launch as a mixed one).
inline void mix_begin(bool cube_only) {
  tls_cube_only = cube_only;
  if (!cube_only && current_sub_block().launch == nullptr && g_coreType != kCoreAic)
    kernel_mix(1, 2);
}

/// The running sub-block's block's box (made on first use).
inline MixBox& mix_box() {
  const SubBlock& sb = current_sub_block();
  std::lock_guard<std::mutex> lock(mix_boxes_mutex());
  MixBox& box = mix_boxes()[{sb.launch, sb.block}];
  if (box.req.empty()) {
    const std::uint32_t v = mix_aivs();
    box.req.resize(v);
    box.clients.assign(v, 0);
    box.live.assign(v, 0);
    box.left = v;
  }
  return box;
}

inline void mix_box_erase() {
  const SubBlock& sb = current_sub_block();
  std::lock_guard<std::mutex> lock(mix_boxes_mutex());
  mix_boxes().erase({sb.launch, sb.block});
}

/// AIV: one round with request r (returns after the AIC has served it).
inline void mix_round(const MixRequest& r) {
  mix_box().req[current_sub_block().sub_idx] = r;
  cross_core_set(2, Pipe::kMte3, kReqFlag);
  cross_core_wait(kAckFlag);
}

/// AIV: registers a client Matmul; its index.
inline std::uint32_t mix_register_client() {
  MixBox& box = mix_box();
  const std::uint32_t s = current_sub_block().sub_idx;
  ++box.live[s];
  return box.clients[s]++;
}

/// AIV: a client Matmul is destroyed; the last one quits and keeps the rounds going until every
/// AIV has quit.
inline void mix_release_client() {
  MixBox& box = mix_box();
  const std::uint32_t s = current_sub_block().sub_idx;
  if (--box.live[s] != 0) return;
  mix_round({MixOp::kQuit});
  while (!mix_box().done) mix_round({});
  MixBox& b = mix_box();
  if (--b.left == 0) mix_box_erase();
}

/// AIC: registers a server Matmul.
inline void mix_register_server(void* server, ServeFn fn) {
  mix_box().servers.emplace_back(server, fn);
}

/// AIC in a mix launch: serves the AIVs' requests until they have all quit; true. Elsewhere
/// false (REGIST_MATMUL_OBJ then goes on with the kernel).
inline bool mix_serve() {
  if (!in_mix() || current_sub_block().core_type != kCoreAic) return false;
  if (mix_box().servers.empty()) return false;
  const std::uint32_t v = mix_aivs();
  while (!mix_box().done) {
    cross_core_wait(kReqFlag);
    MixBox& box = mix_box();
    bool wrote = false;
    for (std::uint32_t s = 0; s < v; ++s) {
      const MixRequest r = box.req[s];
      box.req[s] = MixRequest{};
      if (r.op == MixOp::kQuit) ++box.quit;
      if (r.op != MixOp::kIterate && r.op != MixOp::kGetC) continue;
      if (r.obj >= box.servers.size())
        fail("Matmul", "an AIV uses Matmul %u, the AIC registered %zu (REGIST_MATMUL_OBJ "
             "registers the same objects on both)", r.obj, box.servers.size());
      box.servers[r.obj].second(box.servers[r.obj].first, r, s);
      wrote = wrote || r.op == MixOp::kGetC;
    }
    box.done = box.quit == v;
    cross_core_set(2, wrote ? Pipe::kFixpipe : Pipe::kCube, kAckFlag);
  }
  return true;
}

}  // namespace npusim::ascendc::mm
