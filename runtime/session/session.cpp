// SPDX-License-Identifier: Apache-2.0
#include "runtime/session/session.h"

#include "runtime/session/private_dir.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <stdexcept>
#include <thread>

namespace npusim::rt::remote {
namespace {

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// Room for one descriptor in a message's control data.
struct FdControl {
  alignas(cmsghdr) char bytes[CMSG_SPACE(sizeof(int))] = {};
};

// A message of one buffer (a frame header) with room for one descriptor.
msghdr header_message(iovec& io, FdControl& control) {
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control.bytes;
  msg.msg_controllen = sizeof(control.bytes);
  return msg;
}

}  // namespace

int connect_checked(const std::string& path, std::string& error) {
  error.clear();
  sockaddr_un a{};
  if (path.size() >= sizeof(a.sun_path)) {
    error = "the session socket path is too long: " + path;
    return -1;
  }
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  // Whoever listens there must be this user: another user's server would get this process's
  // frames and descriptors (device memory).
  if (!socket_peer_trusted(fd, geteuid(), ("the session server at " + path).c_str(), error)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

namespace {

int hello(int fd, const std::string& program, std::uint32_t& number, std::string& error) {
  Frame f{FrameType::kHello, program};
  Frame reply;
  if (!write_frame(fd, f) || !read_frame(fd, reply) || reply.type != FrameType::kWelcome) {
    error = "the session server did not welcome this process";
    ::close(fd);
    return -1;
  }
  number = static_cast<std::uint32_t>(std::strtoul(reply.payload.c_str(), nullptr, 10));
  return fd;
}

}  // namespace

std::string session_from_env() {
  const char* s = std::getenv("NPUSIM_SESSION");
  if (s == nullptr || *s == '\0') return "default";
  const std::string v = s;
  return v == "off" ? "" : v;
}

bool session_named_in_env() {
  const char* s = std::getenv("NPUSIM_SESSION");
  return s != nullptr && *s != '\0' && std::strcmp(s, "off") != 0;
}

bool valid_session(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string socket_path(const std::string& session) {
  // The protocol's version is part of the name: a server of another npusim build (other frames)
  // never serves this one's clients; each version has its own server.
  return session_dir() + "/" + session + "-" + kProtocol + ".sock";
}

bool write_frame(int fd, const Frame& frame, int pass_fd) {
  if (frame.payload.size() > kMaxFramePayload) {
    errno = EMSGSIZE;
    return false;
  }
  const std::uint32_t head[2] = {static_cast<std::uint32_t>(frame.type),
                                 static_cast<std::uint32_t>(frame.payload.size())};
  if (pass_fd < 0) {
    return write_all(fd, head, sizeof(head)) &&
           write_all(fd, frame.payload.data(), frame.payload.size());
  }
  // The descriptor rides on the header's bytes.
  iovec io{const_cast<std::uint32_t*>(head), sizeof(head)};
  FdControl control;
  msghdr msg = header_message(io, control);
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
  ssize_t w;
  do {
    w = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
  } while (w < 0 && errno == EINTR);
  if (w <= 0) return false;
  const auto sent = static_cast<std::size_t>(w);
  return write_all(fd, reinterpret_cast<const char*>(head) + sent, sizeof(head) - sent) &&
         write_all(fd, frame.payload.data(), frame.payload.size());
}

bool read_frame(int fd, Frame& frame, int* received_fd) {
  if (received_fd != nullptr) *received_fd = -1;
  std::uint32_t head[2];
  // The header is read with recvmsg, so a descriptor sent with it is never dropped unseen.
  iovec io{head, sizeof(head)};
  FdControl control;
  msghdr msg = header_message(io, control);
  ssize_t r;
  do {
    r = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
  } while (r < 0 && errno == EINTR);
  if (r <= 0) return false;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    int got = -1;
    std::memcpy(&got, CMSG_DATA(c), sizeof(int));
    if (received_fd != nullptr && *received_fd < 0) {
      *received_fd = got;
    } else {
      ::close(got);
    }
  }
  const auto n = static_cast<std::size_t>(r);
  if (!read_all(fd, reinterpret_cast<char*>(head) + n, sizeof(head) - n)) return false;
  if (head[1] > kMaxFramePayload) {
    errno = EMSGSIZE;
    return false;
  }
  frame.type = static_cast<FrameType>(head[0]);
  frame.payload.assign(head[1], '\0');
  return read_all(fd, frame.payload.data(), head[1]);
}

int connect_to(const std::string& path, const std::string& program, std::uint32_t& number,
               std::string& error) {
  const int fd = connect_checked(path, error);
  if (fd < 0) {
    if (error.empty()) error = "no session server at " + path + ": " + std::strerror(errno);
    return -1;
  }
  return hello(fd, program, number, error);
}

namespace {

/// Starts `server_exe serve --session <session>` detached; false with `error` when fork fails.
bool start_server(const std::string& session, const std::string& server_exe, std::string& error) {
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {  // detached: a second fork so the server is not this process's child
    ::setsid();
    if (::fork() != 0) _exit(0);
    // The server's log (clients joining and leaving) goes to NPUSIM_SERVE_LOG, else nowhere:
    // it must not mix into the output of the program that happened to start it.
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    const char* log_path = std::getenv("NPUSIM_SERVE_LOG");
    const int log = log_path != nullptr && *log_path != '\0'
                        ? ::open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
                                 0600)
                        : null;
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(log >= 0 ? log : null, 2);
    }
    ::execl(server_exe.c_str(), server_exe.c_str(), "serve", "--session", session.c_str(),
            static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

/// Connects to the server at `path`, waiting up to 5 s (wall) for one just started to listen.
int connect_started(const std::string& path, std::string& error) {
  int fd = -1;
  for (int i = 0; i < 500 && fd < 0 && error.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    fd = connect_checked(path, error);
  }
  return fd;
}

int connect_or_start_once(const std::string& session, const std::string& server_exe,
                          const std::string& program, std::uint32_t& number, std::string& error) {
  if (!valid_session(session)) {
    error = "NPUSIM_SESSION '" + session + "' is not a session id ([A-Za-z0-9._-], 1..64 characters)";
    return -1;
  }
  if (!ensure_private_dir(session_dir(), geteuid(), error)) return -1;
  const std::string path = socket_path(session);
  const std::string lock_path = path + ".lock";
  const int lock = open_lock_file(lock_path, geteuid(), error);
  if (lock < 0) return -1;
  if (::flock(lock, LOCK_EX) != 0) {
    error = "cannot lock " + lock_path + ": " + std::strerror(errno);
    ::close(lock);
    return -1;
  }
  int fd = connect_checked(path, error);
  if (fd < 0 && error.empty() && start_server(session, server_exe, error)) {
    fd = connect_started(path, error);
    if (fd < 0 && error.empty()) {
      error = "started " + server_exe + " serve --session " + session +
              ", but it does not listen on " + path;
    }
  }
  ::close(lock);  // the server now exists: later clients just connect
  return fd < 0 ? -1 : hello(fd, program, number, error);
}

}  // namespace

}  // namespace npusim::rt::remote

namespace npusim::rt::remote {

int connect_or_start(const std::string& session, const std::string& server_exe,
                     const std::string& program, std::uint32_t& number, std::string& error) {
  // A server that is leaving (its last client just left) may take a connection and close it
  // unanswered: try again, which starts a new server.
  for (int attempt = 0;; ++attempt) {
    const int fd = connect_or_start_once(session, server_exe, program, number, error);
    if (fd >= 0 || attempt == 3 || error.rfind("the session server did not welcome", 0) != 0) {
      return fd;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace npusim::rt::remote
