// SPDX-License-Identifier: Apache-2.0
// The session server (runtime/session/session.h): one thread, poll(), non-blocking sockets.
// Every client has its own input state (the frame it is reading) and output queue, so a client
// that stays silent, sends half a frame or never reads its replies holds up nobody else
// (issue 23). A frame is read only up to its own end: a descriptor that arrives while it is read
// belongs to it (one per frame; more are closed).
//
// Limits (a client beyond them is dropped, as if it had crashed): kHello within kHelloMs of
// connecting, payloads up to kMaxFramePayload (memory grows with bytes that arrived, never with
// what a header claims), at most kMaxOutBytes of replies it has not read, kMaxClients at once.
#include "runtime/session/session.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>
#include <thread>

#include "runtime/session/hub.h"
#include "runtime/session/private_dir.h"

namespace npusim::rt::remote {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxClients = 512;
constexpr std::size_t kMaxOutBytes = 64u << 20;
constexpr std::size_t kMaxProgram = 4096;
constexpr int kHelloMs = 5000;
constexpr int kFramesPerTurn = 64;  // then the next client's turn
constexpr int kServingWaitMs = 5000;

struct OutFrame {
  std::string bytes;  // header and payload
  int fd = -1;        // owned; travels with the header
  std::size_t sent = 0;
};

struct Conn {
  int fd = -1;
  bool welcomed = false;
  bool bye = false;
  bool closed = false;
  ClientInfo info;
  Clock::time_point accepted;
  std::uint32_t head[2] = {0, 0};
  std::size_t head_got = 0;
  std::string payload;
  int fd_in = -1;
  std::deque<OutFrame> out;
  std::size_t out_bytes = 0;
};

// recv of up to `n` bytes; a descriptor that comes with them goes to `fd` (if free) or is closed.
// A socket message of `n` bytes at `data` with room for one descriptor.
struct FdMessage {
  iovec io;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};

  FdMessage(char* data, std::size_t n) : io{data, n} {
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
  }
  FdMessage(const FdMessage&) = delete;  // msg points into this object
  FdMessage& operator=(const FdMessage&) = delete;
};

ssize_t recv_fd(int sock, char* data, std::size_t n, int& fd) {
  FdMessage m(data, n);
  msghdr& msg = m.msg;
  const ssize_t r = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); r >= 0 && c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int got = -1;
      std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (fd < 0) {
        fd = got;
      } else {
        ::close(got);
      }
    }
  }
  return r;
}

ssize_t send_fd(int sock, const char* data, std::size_t n, int fd) {
  FdMessage m(const_cast<char*>(data), n);
  msghdr& msg = m.msg;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  return ::sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

enum class ReadResult { kFrame, kAgain, kEnd };

// Reads at most the rest of `c`'s current frame. kEnd: EOF, error or a header out of limits.
ReadResult read_some(Conn& c, Frame& f, int& fd) {
  char buf[65536];
  for (;;) {
    const bool in_head = c.head_got < sizeof(c.head);
    if (!in_head && c.payload.size() == c.head[1]) break;
    char* dst = in_head ? reinterpret_cast<char*>(c.head) + c.head_got : buf;
    const std::size_t want =
        in_head ? sizeof(c.head) - c.head_got : std::min(sizeof(buf), c.head[1] - c.payload.size());
    const ssize_t r = recv_fd(c.fd, dst, want, c.fd_in);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return ReadResult::kAgain;
    if (r <= 0) return ReadResult::kEnd;
    const auto n = static_cast<std::size_t>(r);
    if (in_head) {
      c.head_got += n;
      if (c.head_got == sizeof(c.head) && c.head[1] > kMaxFramePayload) return ReadResult::kEnd;
    } else {
      c.payload.append(buf, n);
    }
  }
  f.type = static_cast<FrameType>(c.head[0]);
  f.payload = std::move(c.payload);
  fd = c.fd_in;
  c.payload.clear();
  c.head_got = 0;
  c.fd_in = -1;
  return ReadResult::kFrame;
}

// Sends what `c`'s socket takes now; false when the client is gone.
bool flush(Conn& c) {
  while (!c.out.empty()) {
    OutFrame& o = c.out.front();
    const bool with_fd = o.fd >= 0 && o.sent == 0;
    const ssize_t w = with_fd ? send_fd(c.fd, o.bytes.data(), 2 * sizeof(std::uint32_t), o.fd)
                              : ::send(c.fd, o.bytes.data() + o.sent, o.bytes.size() - o.sent,
                                       MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (w <= 0) return false;
    if (with_fd) {
      ::close(o.fd);  // it went with the first bytes
      o.fd = -1;
    }
    o.sent += static_cast<std::size_t>(w);
    c.out_bytes -= static_cast<std::size_t>(w);
    if (o.sent == o.bytes.size()) c.out.pop_front();
  }
  return true;
}

// The loop of Server::run.
class ServerLoop {
 public:
  ServerLoop(int listen_fd, int idle_exit_ms, std::vector<ServerEvent>* events, bool log)
      : listen_fd_(listen_fd), idle_exit_ms_(idle_exit_ms), events_(events), log_(log),
        hub_(wait_ms()) {}
  ~ServerLoop() {
    for (auto& [fd, c] : conns_) drop(c);
  }
  int run();

 private:
  static int wait_ms() {
    // How long every process may wait on another before that is a deadlock
    // (NPUSIM_SESSION_WAIT_MS; after a process was lost, 300 ms).
    const char* env = std::getenv("NPUSIM_SESSION_WAIT_MS");
    return env != nullptr && *env != '\0' ? std::atoi(env) : 10000;
  }
  int poll_once();
  void accept_new(Clock::time_point now);
  void serve(Conn& c);
  void handle(Conn& c, Frame& f, int fd);
  void welcome(Conn& c, const Frame& f);
  void queue(Conn& c, FrameType type, const std::string& payload, int fd);
  void deliver();
  void reap(Clock::time_point now);
  void drop(Conn& c);
  void note(ServerEvent::Kind kind, const ClientInfo& c);
  int timeout_ms(Clock::time_point now) const;
  std::size_t welcomed() const;

  int listen_fd_;
  int idle_exit_ms_;
  std::vector<ServerEvent>* events_;
  bool log_;
  Hub hub_;
  std::map<int, Conn> conns_;  // by fd (the hub's client id)
  std::vector<Outgoing> out_;
  std::uint32_t next_number_ = 1;
  bool had_client_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point accept_pause_until_{};
};

void ServerLoop::note(ServerEvent::Kind kind, const ClientInfo& c) {
  if (events_ != nullptr) events_->push_back({kind, c});
  if (!log_) return;
  static const char* kWhat[] = {"joined", "left", "lost (its connection closed without goodbye)"};
  std::fprintf(stderr, "npusim serve: client %u (pid %d, %s) %s; %zu connected\n", c.number,
               static_cast<int>(c.pid), c.program.c_str(), kWhat[static_cast<int>(kind)],
               welcomed());
}

std::size_t ServerLoop::welcomed() const {
  std::size_t n = 0;
  for (const auto& [fd, c] : conns_) n += c.welcomed && !c.closed ? 1 : 0;
  return n;
}

void ServerLoop::queue(Conn& c, FrameType type, const std::string& payload, int fd) {
  if (c.closed) return;
  OutFrame o;
  const std::uint32_t head[2] = {static_cast<std::uint32_t>(type),
                                 static_cast<std::uint32_t>(payload.size())};
  o.bytes.assign(reinterpret_cast<const char*>(head), sizeof(head));
  o.bytes += payload;
  // The hub keeps its descriptor; the queue sends a copy of its own.
  o.fd = fd >= 0 ? ::fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
  c.out_bytes += o.bytes.size();
  c.out.push_back(std::move(o));
  if (c.out_bytes > kMaxOutBytes) c.closed = true;  // it does not read: as if it had crashed
}

void ServerLoop::deliver() {
  for (const Outgoing& o : out_) {
    auto it = conns_.find(o.client);
    if (it != conns_.end()) queue(it->second, o.frame.type, o.frame.payload, o.pass_fd);
  }
  out_.clear();
}

void ServerLoop::welcome(Conn& c, const Frame& f) {
  ucred cred{};
  socklen_t len = sizeof(cred);
  ::getsockopt(c.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len);
  c.info = ClientInfo{next_number_++, cred.pid, f.payload};
  c.welcomed = true;
  had_client_ = true;
  hub_.joined(c.fd, cred.pid, f.payload);
  queue(c, FrameType::kWelcome,
        std::to_string(c.info.number) + " " + std::to_string(cred.pid), -1);
  note(ServerEvent::Kind::kJoined, c.info);
}

void ServerLoop::handle(Conn& c, Frame& f, int fd) {
  if (!c.welcomed) {  // the first frame must be kHello with a plausible program name
    if (fd >= 0) ::close(fd);
    if (f.type != FrameType::kHello || f.payload.size() > kMaxProgram) {
      c.closed = true;
      return;
    }
    welcome(c, f);
    return;
  }
  if (f.type == FrameType::kList) {
    if (fd >= 0) ::close(fd);
    std::string list;
    std::map<std::uint32_t, pid_t> ordered;
    for (const auto& [cfd, other] : conns_) {
      if (other.welcomed && !other.closed) ordered[other.info.number] = other.info.pid;
    }
    for (const auto& [num, pid] : ordered) {
      list += (list.empty() ? "" : " ") + std::to_string(num) + ":" + std::to_string(pid);
    }
    queue(c, FrameType::kClients, list, -1);
    return;
  }
  if (f.type == FrameType::kBye || f.type == FrameType::kHello) {
    if (fd >= 0) ::close(fd);
    c.bye = f.type == FrameType::kBye;
    c.closed = true;  // a second kHello breaks the protocol: dropped as lost
    return;
  }
  hub_.frame(c.fd, f, fd, out_);
  deliver();
}

void ServerLoop::serve(Conn& c) {
  for (int i = 0; i < kFramesPerTurn && !c.closed; ++i) {
    Frame f;
    int fd = -1;
    const ReadResult r = read_some(c, f, fd);
    if (r == ReadResult::kAgain) return;
    if (r == ReadResult::kEnd) {
      c.closed = true;
      return;
    }
    handle(c, f, fd);
  }
}

void ServerLoop::drop(Conn& c) {
  if (c.fd_in >= 0) ::close(c.fd_in);
  for (OutFrame& o : c.out) {
    if (o.fd >= 0) ::close(o.fd);
  }
  c.out.clear();
  ::close(c.fd);
}

void ServerLoop::reap(Clock::time_point now) {
  for (auto it = conns_.begin(); it != conns_.end();) {
    Conn& c = it->second;
    if (!c.welcomed && now - c.accepted > std::chrono::milliseconds(kHelloMs)) c.closed = true;
    if (!c.closed) {
      ++it;
      continue;
    }
    const int fd = c.fd;
    const ClientInfo info = c.info;
    const bool was_client = c.welcomed;
    const bool lost = !c.bye;
    drop(c);
    it = conns_.erase(it);
    if (!was_client) continue;
    hub_.left(fd, lost, out_);
    deliver();
    note(lost ? ServerEvent::Kind::kLost : ServerEvent::Kind::kLeft, info);
  }
}

void ServerLoop::accept_new(Clock::time_point now) {
  for (int i = 0; i < 16; ++i) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      // Out of descriptors: stop polling the listener for a while rather than spin on it.
      if (errno == EMFILE || errno == ENFILE) {
        accept_pause_until_ = now + std::chrono::milliseconds(100);
      }
      return;
    }
    std::string why;
    if (conns_.size() >= kMaxClients || !socket_peer_trusted(fd, geteuid(), "a client", why)) {
      if (!why.empty() && log_) std::fprintf(stderr, "npusim serve: %s\n", why.c_str());
      ::close(fd);
      continue;
    }
    Conn& c = conns_[fd];
    c.fd = fd;
    c.accepted = now;
  }
}

int ServerLoop::timeout_ms(Clock::time_point now) const {
  int t = hub_.poll_timeout_ms(now);
  const auto until = [&](Clock::time_point at) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at - now).count();
    return static_cast<int>(std::max<long long>(0, ms) + 1);
  };
  const auto earlier = [&](int ms) { t = t < 0 ? ms : std::min(t, ms); };
  if (!had_client_) earlier(until(start_ + std::chrono::milliseconds(idle_exit_ms_)));
  for (const auto& [fd, c] : conns_) {
    if (!c.welcomed) earlier(until(c.accepted + std::chrono::milliseconds(kHelloMs)));
  }
  if (now < accept_pause_until_) earlier(until(accept_pause_until_));
  return t;
}

int ServerLoop::poll_once() {
  const Clock::time_point now = Clock::now();
  std::vector<pollfd> fds;
  const bool accepting = now >= accept_pause_until_;
  fds.push_back({accepting ? listen_fd_ : -1, POLLIN, 0});
  for (const auto& [fd, c] : conns_) {
    fds.push_back({fd, static_cast<short>(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
  }
  const int n = ::poll(fds.data(), fds.size(), timeout_ms(now));
  if (n < 0 && errno != EINTR) return -1;
  if (n > 0 && (fds[0].revents & POLLIN)) accept_new(Clock::now());
  for (std::size_t i = 1; n > 0 && i < fds.size(); ++i) {
    auto it = conns_.find(fds[i].fd);
    if (it == conns_.end() || fds[i].revents == 0) continue;
    if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) serve(it->second);
  }
  return 0;
}

int ServerLoop::run() {
  for (;;) {
    if (poll_once() != 0) return 2;
    const Clock::time_point now = Clock::now();
    for (auto& [fd, c] : conns_) {
      if (!c.closed && !c.out.empty() && !flush(c)) c.closed = true;
    }
    reap(now);
    hub_.tick(now, out_);
    deliver();
    if (!had_client_ && now - start_ >= std::chrono::milliseconds(idle_exit_ms_)) return 1;
    if (had_client_ && welcomed() == 0) return 0;
  }
}

}  // namespace

// ---- Server ----

void Server::take_serving_lock() {
  std::string error;
  serving_lock_ = open_lock_file(path_ + ".serving", geteuid(), error);
  if (serving_lock_ < 0) throw std::runtime_error(error);
  // A server that is leaving (it stopped listening) lets go of the lock in a moment; a live one
  // keeps it and answers on the socket.
  for (int waited = 0; ::flock(serving_lock_, LOCK_EX | LOCK_NB) != 0; waited += 10) {
    const int live = connect_checked(path_, error);
    if (live >= 0) ::close(live);
    if (live >= 0 || waited >= kServingWaitMs) {
      ::close(serving_lock_);
      serving_lock_ = -1;
      throw std::runtime_error("another server of this session is running (it listens on " +
                               path_ + "); this one exits and leaves it serving");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

Server::Server(std::string path, int idle_exit_ms)
    : path_(std::move(path)), idle_exit_ms_(idle_exit_ms) {
  sockaddr_un a{};
  if (path_.size() >= sizeof(a.sun_path)) {
    throw std::runtime_error("socket path too long: " + path_);
  }
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path_.c_str(), path_.size() + 1);
  take_serving_lock();
  std::string error;
  const int live = connect_checked(path_, error);  // a server that takes no lock (older build)
  if (live >= 0 || !error.empty()) {
    if (live >= 0) ::close(live);
    ::close(serving_lock_);
    throw std::runtime_error(error.empty() ? "a server already listens on " + path_ : error);
  }
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  ::unlink(path_.c_str());  // a stale socket of a server that died (none lives: checked above)
  const mode_t old_mask = ::umask(077);  // the socket is the user's own from the start
  const bool bound = ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
                     ::listen(listen_fd_, 64) == 0;
  const int bind_errno = errno;
  ::umask(old_mask);
  if (!bound) {
    ::close(listen_fd_);
    ::close(serving_lock_);
    throw std::runtime_error("cannot listen on " + path_ + ": " + std::strerror(bind_errno));
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) inode_ = static_cast<unsigned long>(st.st_ino);
}

void Server::stop_listening() {
  if (listen_fd_ < 0) return;
  // Only this server's socket file: it still holds the serving lock, so no successor has bound.
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && static_cast<unsigned long>(st.st_ino) == inode_) {
    ::unlink(path_.c_str());
  }
  ::close(listen_fd_);
  listen_fd_ = -1;
}

Server::~Server() {
  stop_listening();
  if (serving_lock_ >= 0) ::close(serving_lock_);
}

int Server::run(std::vector<ServerEvent>* events, bool log) {
  int rc;
  {
    ServerLoop loop(listen_fd_, idle_exit_ms_, events, log);
    rc = loop.run();
  }
  stop_listening();  // connecting now fails at once: a client starts a new server
  return rc;
}

}  // namespace npusim::rt::remote
