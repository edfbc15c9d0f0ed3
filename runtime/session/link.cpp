// SPDX-License-Identifier: Apache-2.0
#include "runtime/session/link.h"

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

namespace npusim::rt::remote {

Link::Link(int fd) : fd_(fd) {
  service_ = std::thread([this] { serve(); });
  drainer_ = std::thread([this] { drain_loop(); });
}

Link::~Link() {
  {
    std::lock_guard<std::mutex> w(write_mutex_);
    write_frame(fd_, {FrameType::kBye, {}});
  }
  {
    std::lock_guard<std::mutex> g(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  ::shutdown(fd_, SHUT_RDWR);  // ends the service thread's read
  if (service_.joinable()) service_.join();
  if (drainer_.joinable()) drainer_.join();
  ::close(fd_);
}

bool Link::request(FrameType type, const std::string& body, int pass_fd, std::string& reply,
                   int* reply_fd) {
  Slot slot;
  std::uint64_t req = 0;
  {
    std::lock_guard<std::mutex> g(mutex_);
    if (gone_) return false;
    req = next_req_++;
    waiting_[req] = &slot;
  }
  WireOut w;
  w.u64(req);
  bool sent = false;
  {
    std::lock_guard<std::mutex> wl(write_mutex_);
    sent = write_frame(fd_, {type, w.bytes() + body}, pass_fd);
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (!sent) {
    waiting_.erase(req);
    return false;
  }
  cv_.wait(lock, [&] { return slot.done || gone_; });
  waiting_.erase(req);
  if (!slot.done) return false;
  reply = std::move(slot.payload);
  if (reply_fd != nullptr) {
    *reply_fd = slot.fd;
  } else if (slot.fd >= 0) {
    ::close(slot.fd);
  }
  return true;
}

bool Link::send(FrameType type, const std::string& body) {
  std::lock_guard<std::mutex> wl(write_mutex_);
  return write_frame(fd_, {type, body});
}

void Link::set_drain_handler(std::function<void()> handler) {
  std::lock_guard<std::mutex> g(mutex_);
  drain_handler_ = std::move(handler);
}

std::vector<Link::Push> Link::take_pushes() {
  std::lock_guard<std::mutex> g(mutex_);
  std::vector<Push> out(std::make_move_iterator(pushes_.begin()),
                        std::make_move_iterator(pushes_.end()));
  pushes_.clear();
  return out;
}

std::uint64_t Link::recorded_received() const {
  std::lock_guard<std::mutex> g(mutex_);
  return recorded_;
}

void Link::wait_push() {
  std::unique_lock<std::mutex> lock(mutex_);
  // A server that is gone sends nothing more: the wait ends (its kServerGone push may have been
  // taken by an earlier wait).
  cv_.wait(lock, [&] { return !pushes_.empty() || stopping_ || gone_; });
}

bool Link::wait_push_for(int ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, std::chrono::milliseconds(ms),
                      [&] { return !pushes_.empty() || stopping_ || gone_; }) &&
         (!pushes_.empty() || gone_);
}

bool Link::gone() const {
  std::lock_guard<std::mutex> g(mutex_);
  return gone_;
}

void Link::serve() {
  for (;;) {
    Frame f;
    int fd = -1;
    if (!read_frame(fd_, f, &fd)) break;
    std::lock_guard<std::mutex> g(mutex_);
    if (f.type == FrameType::kReply) {
      WireIn in(f.payload);
      const std::uint64_t req = in.u64();
      auto it = waiting_.find(req);
      if (it == waiting_.end()) {
        if (fd >= 0) ::close(fd);
        continue;
      }
      it->second->done = true;
      it->second->payload = f.payload.substr(8);
      it->second->fd = fd;
      cv_.notify_all();
      continue;
    }
    if (fd >= 0) ::close(fd);
    if (f.type == FrameType::kDrain) {
      WireIn in(f.payload);
      drains_.push_back(in.u64());
    } else {
      if (f.type == FrameType::kRecorded || f.type == FrameType::kHcclMembers ||
          f.type == FrameType::kHcclBatch) {
        ++recorded_;
      }
      pushes_.push_back({static_cast<std::uint32_t>(f.type), std::move(f.payload)});
    }
    cv_.notify_all();
  }
  std::lock_guard<std::mutex> g(mutex_);
  gone_ = true;
  if (!stopping_) pushes_.push_back({kServerGone, {}});
  cv_.notify_all();
}

void Link::drain_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return !drains_.empty() || stopping_ || gone_; });
    if (drains_.empty()) return;
    const std::uint64_t token = drains_.front();
    drains_.pop_front();
    std::function<void()> handler = drain_handler_;
    lock.unlock();
    if (handler) handler();
    WireOut w;
    send(FrameType::kDrainAck, w.u64(token).bytes());
    lock.lock();
  }
}

}  // namespace npusim::rt::remote
