// SPDX-License-Identifier: Apache-2.0
// A one-block harness for tests of the twin's high-level APIs: the host gives byte buffers, the
// kernel places each in a UB TBuf (memcpy, no instruction), optionally a sharedTmpBuffer of
// tmp_bytes, calls the test's function on them and copies every buffer back. The trace then
// holds the API's instructions only. block_time replays the trace on the reference AI Core.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "models/aicore/block_replay.h"
#include "npusim/ascendc/block_runner.h"
#include "tests/models/aicore_bench.h"

namespace hl_test {

using Tensors = std::vector<AscendC::LocalTensor<std::uint8_t>>;
using Call = void (*)(const Tensors& t, const AscendC::LocalTensor<std::uint8_t>& tmp,
                      const void* params);

struct Io {
  std::vector<std::vector<std::uint8_t>> bufs;
  std::uint32_t tmp_bytes = 0;  // 0: no sharedTmpBuffer (the framework forms)
  Call call = nullptr;
  const void* params = nullptr;
};

inline constexpr std::size_t kMaxBufs = 12;

inline void kernel(Io* io) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tb[kMaxBufs + 1];
  Tensors t;
  for (std::size_t i = 0; i < io->bufs.size() && i < kMaxBufs; ++i) {
    const auto bytes = static_cast<std::uint32_t>((io->bufs[i].size() + 31) / 32 * 32);
    pipe.InitBuffer(tb[i], bytes);
    t.push_back(tb[i].Get<std::uint8_t>());
    std::memcpy(t.back().twin_data(), io->bufs[i].data(), io->bufs[i].size());
  }
  AscendC::LocalTensor<std::uint8_t> tmp;
  if (io->tmp_bytes != 0) {
    pipe.InitBuffer(tb[kMaxBufs], io->tmp_bytes);
    tmp = tb[kMaxBufs].Get<std::uint8_t>();
  }
  io->call(t, tmp, io->params);
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::memcpy(io->bufs[i].data(), t[i].twin_data(), io->bufs[i].size());
  }
}

inline npusim::ascendc::RunResult run(Io& io) {
  return npusim::ascendc::run_blocks(&kernel, 1, &io);
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

template <class T>
AscendC::LocalTensor<T> as(const Tensors& t, std::size_t i) {
  return t.at(i).ReinterpretCast<T>();
}

/// The vector instructions of the run (every non-scalar instruction must be one).
inline std::vector<npusim::ascendc::Op> vector_ops(const npusim::ascendc::RunResult& r) {
  std::vector<npusim::ascendc::Op> ops;
  for (const auto& in : r.blocks.at(0).trace.instrs) {
    if (in.pipe == npusim::ascendc::Pipe::kScalar) continue;
    if (in.pipe != npusim::ascendc::Pipe::kVector) return {};
    ops.push_back(in.op);
  }
  return ops;
}

/// The block's simulated time: its trace replayed on the reference AI Core.
inline npusim::sim::SimTime block_time(const npusim::ascendc::RunResult& r) {
  using namespace npusim::models;
  const PipeCosts costs(npusim::models::testing::aicore_config());
  BlockReplay replay(costs);
  struct Host : ReplayHost {
    void wait_until(npusim::sim::SimTime) override {}
    npusim::sim::SimTime gm_access(const npusim::ascendc::Instr&, npusim::sim::SimTime request,
                                   npusim::sim::SimTime&) override {
      return request + 100 * npusim::sim::kNs;
    }
    void instr_done(const npusim::ascendc::Instr&, int, npusim::sim::SimTime,
                    npusim::sim::SimTime) override {}
  } host;
  return replay.run(r.blocks[0].trace, 0, false, false, host).end;
}

}  // namespace hl_test
