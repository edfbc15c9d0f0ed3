// SPDX-License-Identifier: Apache-2.0
#include "runtime/session/session.h"

#include "runtime/session/hub.h"

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

constexpr std::uint32_t kMaxPayload = 64u << 20;

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

sockaddr_un address(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.size() >= sizeof(a.sun_path)) throw std::runtime_error("socket path too long: " + path);
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return a;
}

/// Connects without starting anything; -1 (errno kept) when nobody listens.
int try_connect(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un a = address(path);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

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
  const char* run = std::getenv("XDG_RUNTIME_DIR");
  std::string dir = run != nullptr && *run != '\0' ? run : "/tmp";
  // The protocol's version is part of the name: a server of another npusim build (other frames)
  // never serves this one's clients; each version has its own server.
  return dir + "/npusim-" + std::to_string(getuid()) + "-" + session + "-" + kProtocol + ".sock";
}

bool write_frame(int fd, const Frame& frame, int pass_fd) {
  if (frame.payload.size() > kMaxPayload) {
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
  if (head[1] > kMaxPayload) {
    errno = EMSGSIZE;
    return false;
  }
  frame.type = static_cast<FrameType>(head[0]);
  frame.payload.assign(head[1], '\0');
  return read_all(fd, frame.payload.data(), head[1]);
}

Server::Server(std::string path, int idle_exit_ms) : path_(std::move(path)), idle_exit_ms_(idle_exit_ms) {
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  ::unlink(path_.c_str());  // a stale socket of a server that died (the lock says none runs)
  sockaddr_un a = address(path_);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw std::runtime_error("cannot listen on " + path_ + ": " + why);
  }
  ::chmod(path_.c_str(), 0600);  // the user's own processes only
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) inode_ = static_cast<unsigned long>(st.st_ino);
}

Server::~Server() {
  // A new server may already listen on the path (this one stopped accepting when its last client
  // left): remove the socket file only while it is still this server's, under the start lock.
  const std::string lock_path = path_ + ".lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && static_cast<unsigned long>(st.st_ino) == inode_) {
    ::unlink(path_.c_str());
  }
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (lock >= 0) ::close(lock);
}

int Server::run(std::vector<ServerEvent>* events, bool log) {
  std::map<int, ClientInfo> clients;  // by fd
  // How long every process may wait on another before that is a deadlock (NPUSIM_SESSION_WAIT_MS;
  // after a process was lost, 300 ms).
  const char* wait_env = std::getenv("NPUSIM_SESSION_WAIT_MS");
  Hub hub(wait_env != nullptr && *wait_env != '\0' ? std::atoi(wait_env) : 10000);
  std::uint32_t next_number = 1;
  bool had_client = false;
  const auto note = [&](ServerEvent::Kind kind, const ClientInfo& c) {
    if (events != nullptr) events->push_back({kind, c});
    if (!log) return;
    static const char* kWhat[] = {"joined", "left", "lost (its connection closed without goodbye)"};
    std::fprintf(stderr, "npusim serve: client %u (pid %d, %s) %s; %zu connected\n", c.number,
                 static_cast<int>(c.pid), c.program.c_str(), kWhat[static_cast<int>(kind)],
                 clients.size());
  };
  std::vector<Outgoing> out;
  const auto flush = [&] {
    for (const Outgoing& o : out) {
      if (clients.count(o.client) != 0) write_frame(o.client, o.frame, o.pass_fd);
    }
    out.clear();
  };
  for (;;) {
    std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
    for (const auto& [fd, c] : clients) fds.push_back({fd, POLLIN, 0});
    int timeout = hub.poll_timeout_ms(Hub::Clock::now());
    if (!had_client) timeout = timeout < 0 ? idle_exit_ms_ : std::min(timeout, idle_exit_ms_);
    const int n = ::poll(fds.data(), fds.size(), timeout);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 && !had_client) return 1;  // nobody came
    if (fds[0].revents & POLLIN) {
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) {
        ucred cred{};
        socklen_t len = sizeof(cred);
        ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len);
        Frame f;
        if (read_frame(fd, f) && f.type == FrameType::kHello) {
          ClientInfo c{next_number++, cred.pid, f.payload};
          clients[fd] = c;
          hub.joined(fd, cred.pid, f.payload);
          had_client = true;
          write_frame(fd, {FrameType::kWelcome, std::to_string(c.number) + " " + std::to_string(cred.pid)});
          note(ServerEvent::Kind::kJoined, c);
        } else {
          ::close(fd);
        }
      }
    }
    for (std::size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      const int fd = fds[i].fd;
      Frame f;
      int passed = -1;
      const bool got = (fds[i].revents & POLLIN) && read_frame(fd, f, &passed);
      if (got && f.type == FrameType::kList) {
        std::string list;
        std::map<std::uint32_t, pid_t> ordered;
        for (const auto& [cfd, c] : clients) ordered[c.number] = c.pid;
        for (const auto& [num, pid] : ordered) {
          list += (list.empty() ? "" : " ") + std::to_string(num) + ":" + std::to_string(pid);
        }
        write_frame(fd, {FrameType::kClients, list});
        continue;
      }
      if (got && f.type != FrameType::kBye) {
        hub.frame(fd, f, passed, out);
        flush();
        continue;
      }
      if (passed >= 0) ::close(passed);
      const ClientInfo c = clients[fd];
      hub.left(fd, !got, out);
      flush();
      clients.erase(fd);
      ::close(fd);
      note(got ? ServerEvent::Kind::kLeft : ServerEvent::Kind::kLost, c);
    }
    hub.tick(Hub::Clock::now(), out);
    flush();
    if (had_client && clients.empty()) return 0;
  }
}

int connect_to(const std::string& path, const std::string& program, std::uint32_t& number,
               std::string& error) {
  const int fd = try_connect(path);
  if (fd < 0) {
    error = "no session server at " + path + ": " + std::strerror(errno);
    return -1;
  }
  return hello(fd, program, number, error);
}

static int connect_or_start_once(const std::string& session, const std::string& server_exe,
                     const std::string& program, std::uint32_t& number, std::string& error) {
  if (!valid_session(session)) {
    error = "NPUSIM_SESSION '" + session + "' is not a session id ([A-Za-z0-9._-], 1..64 characters)";
    return -1;
  }
  const std::string path = socket_path(session);
  const std::string lock_path = path + ".lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
    error = "cannot lock " + lock_path + ": " + std::strerror(errno);
    if (lock >= 0) ::close(lock);
    return -1;
  }
  int fd = try_connect(path);
  if (fd < 0) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      error = std::string("fork: ") + std::strerror(errno);
      ::close(lock);
      return -1;
    }
    if (pid == 0) {  // detached: a second fork so the server is not this process's child
      ::setsid();
      if (::fork() != 0) _exit(0);
      // The server's log (clients joining and leaving) goes to NPUSIM_SERVE_LOG, else nowhere:
      // it must not mix into the output of the program that happened to start it.
      const int null = ::open("/dev/null", O_RDWR);
      const char* log_path = std::getenv("NPUSIM_SERVE_LOG");
      const int log = log_path != nullptr && *log_path != '\0'
                          ? ::open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600)
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
    for (int i = 0; i < 500 && fd < 0; ++i) {  // up to 5 s (wall) for the server to listen
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      fd = try_connect(path);
    }
    if (fd < 0) {
      error = "started " + server_exe + " serve --session " + session + ", but it does not listen on " + path;
      ::close(lock);
      return -1;
    }
  }
  ::close(lock);  // the server now exists: later clients just connect
  return hello(fd, program, number, error);
}

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
