// SPDX-License-Identifier: Apache-2.0
// A process's connection to its session's server (runtime/session/hub.h), the client side.
//
// Threads: any host thread sends requests and waits for their replies (matched by request id);
// one service thread reads every frame from the server, hands replies to their callers, queues
// pushes (kRecorded, kPeerLost, kDeadlock) for the runtime, and hands drain requests to a drain
// thread, which runs the drain handler (it takes the runtime's API lock: never on the service
// thread, which must go on delivering replies to a host thread that holds that lock) and then
// acknowledges. The server going away is a push too (kind kServerGone).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/session/session.h"

namespace npusim::rt::remote {

class Link {
 public:
  /// What the service thread queued for the runtime. kind is a FrameType, or kServerGone.
  struct Push {
    std::uint32_t kind = 0;
    std::string payload;
  };
  static constexpr std::uint32_t kServerGone = 0xFFFFFFFFu;

  /// Takes a connected socket (after kWelcome).
  explicit Link(int fd);
  ~Link();  // says kBye, stops the threads
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  /// Sends `type` with a new request id prepended to `body` (and `pass_fd`), waits for the reply.
  /// Returns false when the server is gone. `reply` gets the payload after the request id;
  /// `reply_fd` (may be null) a descriptor that came with it (the caller owns it).
  bool request(FrameType type, const std::string& body, int pass_fd, std::string& reply,
               int* reply_fd = nullptr);
  /// A frame without reply. False when the server is gone.
  bool send(FrameType type, const std::string& body);

  /// Runs `handler` on the drain thread for every kDrain, then acknowledges it.
  void set_drain_handler(std::function<void()> handler);

  /// Pushes received so far (taken out of the queue), and how many kRecorded came in all.
  std::vector<Push> take_pushes();
  std::uint64_t recorded_received() const;
  /// Blocks until a push is queued or the server is gone. The caller holds no lock the drain
  /// handler needs.
  void wait_push();
  /// As wait_push, for at most `ms` of wall time; true if a push is queued or the server is gone.
  bool wait_push_for(int ms);
  bool gone() const;

 private:
  void serve();
  void drain_loop();

  int fd_;
  std::mutex write_mutex_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::uint64_t next_req_ = 1;
  struct Slot {
    bool done = false;
    std::string payload;
    int fd = -1;
  };
  std::map<std::uint64_t, Slot*> waiting_;
  std::deque<Push> pushes_;
  std::uint64_t recorded_ = 0;
  std::deque<std::uint64_t> drains_;
  std::function<void()> drain_handler_;
  bool gone_ = false;
  bool stopping_ = false;
  std::thread service_;
  std::thread drainer_;
};

}  // namespace npusim::rt::remote
