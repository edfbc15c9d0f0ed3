// SPDX-License-Identifier: Apache-2.0
// BlockGroup: the baton between a launch's blocks (see block_group.h for the rules).
#include "npusim/ascendc/block_group.h"

#include <dlfcn.h>

#include <string>
#include <utility>

namespace npusim::ascendc {

namespace detail {
thread_local BlockGroup* tls_group = nullptr;
}  // namespace detail

namespace {

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
using JoinFn = int (*)(pthread_t, void**);

// The C library's pthread_join (see start_thread).
void join_thread(pthread_t t) {
  static const auto join = reinterpret_cast<JoinFn>(dlsym(RTLD_NEXT, "pthread_join"));
  (join != nullptr ? join : &pthread_join)(t, nullptr);
}

struct ThreadArg {
  BlockGroup* group;
  std::uint32_t block;
  void (BlockGroup::*main)(std::uint32_t);
};

void* thread_entry(void* p) {
  const ThreadArg a = *static_cast<ThreadArg*>(p);
  delete static_cast<ThreadArg*>(p);
  (a.group->*a.main)(a.block);
  return nullptr;
}

}  // namespace

BlockGroup::BlockGroup(std::uint32_t block_dim, std::function<void(std::uint32_t)> run_ahead)
    : block_dim_(block_dim),
      run_ahead_(std::move(run_ahead)),
      state_(block_dim, kIdle),
      seen_(block_dim, 0),
      threads_(block_dim),
      joinable_(block_dim, false) {}

// Blocks still parked (the kernel failed or stopped) are unwound one at a time, in block order.
BlockGroup::~BlockGroup() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    aborting_ = true;
  }
  for (std::uint32_t b = 0; b < block_dim_; ++b) {
    if (!joinable_[b]) continue;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      holder_ = b;
    }
    cv_.notify_all();
    join_thread(threads_[b]);
  }
}

// The next block to hand the baton to, after `from` in cyclic order; kNone: none can progress.
std::uint32_t BlockGroup::pick(std::uint32_t from) const {
  for (std::uint32_t i = 1; i < block_dim_; ++i) {
    const std::uint32_t c = (from + i) % block_dim_;
    const State s = state_[c];
    if (s == kIdle || s == kPolling || (s == kParked && seen_[c] < progress_)) return c;
  }
  return kNone;
}

void BlockGroup::give(std::uint32_t to) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    holder_ = to;
  }
  if (to != kDriver && state_[to] == kIdle) {
    state_[to] = kRunning;
    start_thread(to);
  } else {
    cv_.notify_all();
  }
}


// A block's thread is the simulator's, not the host program's: it is created with the C
// library's pthread_create, past the runtime's interposer (runtime/core/thread_state.cpp), which
// registers host threads under a lock the launcher holds while blocks run.
void BlockGroup::start_thread(std::uint32_t b) {
  static const auto create = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  auto* arg = new ThreadArg{this, b, &BlockGroup::thread_main};
  const int rc = (create != nullptr ? create : &pthread_create)(&threads_[b], nullptr,
                                                                  &thread_entry, arg);
  if (rc != 0) {
    delete arg;
    throw KernelError("cannot start a thread for a block of the launch (pthread_create failed)");
  }
  joinable_[b] = true;
}

void BlockGroup::sleep_until_mine(std::uint32_t self) {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return holder_ == self; });
  if (aborting_ && self != kDriver) throw BlockAborted{};
}

void BlockGroup::park(std::uint32_t self, State how, std::uint32_t to) {
  const State was = state_[self];
  state_[self] = how;
  give(to);
  sleep_until_mine(self);
  state_[self] = was;
}

void BlockGroup::thread_main(std::uint32_t b) {
  try {
    sleep_until_mine(b);
    run_ahead_(b);
  } catch (const BlockAborted&) {
    return;
  }
  hand_on_after_end(b);
}

// A block the group started has ended: the launcher gets the baton back if it waits for this
// block, else the next candidate runs, else the block the launcher waits for looks again.
void BlockGroup::hand_on_after_end(std::uint32_t b) {
  state_[b] = kDone;
  ++progress_;
  if (b == target_) {
    give(kDriver);
    return;
  }
  const std::uint32_t c = pick(b);
  give(c != kNone ? c : target_);
}

void BlockGroup::finish_started(std::uint32_t b) {
  if (state_[b] == kDone) return;
  target_ = b;
  give(b);
  sleep_until_mine(kDriver);
  target_ = kNone;
}

void BlockGroup::begin_inline(std::uint32_t b) {
  target_ = b;
  state_[b] = kInline;
  std::lock_guard<std::mutex> lock(mutex_);
  holder_ = b;
}

void BlockGroup::end_inline(std::uint32_t b) {
  state_[b] = kDone;
  ++progress_;
  target_ = kNone;
  std::lock_guard<std::mutex> lock(mutex_);
  holder_ = kDriver;
}

void BlockGroup::wait(std::uint32_t self, const std::function<bool()>& ready, const char* what) {
  used_ = true;
  while (!ready()) {
    seen_[self] = progress_;
    const std::uint32_t c = pick(self);
    if (c == kNone) {
      const std::string text = "deadlock: " + std::string(what) + " in block " +
                               std::to_string(self) + " of " + std::to_string(block_dim_) +
                               " can never return (every other block has ended or waits too)";
      throw KernelError(text.c_str());
    }
    park(self, kParked, c);
  }
}

void BlockGroup::poll(std::uint32_t self) {
  used_ = true;
  const std::uint32_t c = pick(self);
  if (c != kNone) park(self, kPolling, c);
}

}  // namespace npusim::ascendc
