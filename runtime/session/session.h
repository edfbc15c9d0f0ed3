// SPDX-License-Identifier: Apache-2.0
// Several processes on one simulated machine (issue 14; design: docs/multiprocess.md) — the
// session plumbing: where a session's server listens, the wire framing, the server's client
// table, and starting the server on demand. Plain C++ and POSIX (Unix stream sockets,
// SO_PEERCRED, flock); no simulator here. The engine and the registry ride on these frames later.
//
//   Session   NPUSIM_SESSION=<id> groups processes; its server listens on
//             <dir>/<id>-<protocol>.sock, <dir> the user's private directory
//             (runtime/session/private_dir.h: $XDG_RUNTIME_DIR/npusim or /tmp/npusim-<uid>,
//             mode 0700, checked). Ids are [A-Za-z0-9._-]{1,64}. Client and server talk only to
//             a peer of their own uid (docs/session-security.md).
//   Frames    u32 type, u32 payload length, payload (little-endian host order: one machine).
//   Server    one thread, non-blocking sockets with per-client buffers (server.cpp): no client
//             (silent, half a frame, not reading) holds up another. Accepts clients of its own
//             uid, learns each one's pid from the socket (SO_PEERCRED, not from what
//             the client says), numbers them in order of arrival, answers kList, notices a client
//             that goes without kBye (exit or crash: the socket closes) and goes on serving the
//             others; exits when the last client has left (after at least one came), or when no
//             client came within `idle_exit_ms` of starting.
//   Start     connect_or_start(): takes <sock>.lock with flock (so two processes starting at once
//             start one server), connects if a server listens, else forks `<exe> serve --session
//             <id>` detached (setsid) and waits for it to listen. A server holds <sock>.serving
//             (flock) while it lives: a second server of the session sees it and exits.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace npusim::rt::remote {

/// The session NPUSIM_SESSION puts this process in: "default" when unset or empty, "" when "off"
/// (no session: IPC objects stay in the process).
std::string session_from_env();
/// Whether NPUSIM_SESSION names a session explicitly (set, not empty, not "off").
bool session_named_in_env();
/// Whether `id` is a usable session id ([A-Za-z0-9._-], 1..64 characters).
bool valid_session(const std::string& id);
/// The version of the frames below; part of the socket's name.
constexpr const char* kProtocol = "p2";
/// The socket of a session's server.
std::string socket_path(const std::string& session);

enum class FrameType : std::uint32_t {
  kHello = 1,    // client -> server: payload = the client's program name
  kWelcome = 2,  // server -> client: payload = "<client number> <pid the server saw>"
  kList = 3,     // client -> server: the clients now connected
  kClients = 4,  // server -> client: payload = "<number>:<pid> ..." in arrival order
  kBye = 5,      // client -> server: leaving in good order
  // The shared-object registry and cross-process synchronisation (runtime/session/hub.h). A
  // request starts with a u64 request id that its kReply echoes.
  kPublish = 10,    // req, kind u8, check_pid u8, description (+ an fd): -> status, id
  kAllow = 11,      // req, id, kind u8, pids i32...: -> status
  kImport = 12,     // req, id, kind u8: -> status, owner pid, description (+ the fd)
  kClose = 13,      // req, id, kind u8: -> status
  kWithdraw = 14,   // id (no reply)
  kWithdrawAll = 15,  // (no reply): every export of the sender
  kRecord = 16,     // id, simulated time: a record of a shared event/notify completed (no reply)
  kBlocked = 17,    // pushes received so far: the sender's host waits on other processes
  kUnblocked = 18,  // (no reply)
  kDrainAck = 19,   // token (no reply)
  kReply = 30,      // server -> client: req, ...
  kRecorded = 31,   // server -> client: id, simulated time, recorder pid
  kDrain = 32,      // server -> client: token: finish the device work you have submitted
  kPeerLost = 33,   // server -> client: pid, program: a client left without goodbye
  kDeadlock = 34,   // server -> client: every process of the session waits on another
  // HCCL communication domains across processes (runtime/hccl/comm.h, runtime/session/hub.h).
  kHcclDomain = 40,   // req: -> status, machine-wide domain id
  kHcclJoin = 41,     // req, domain, nranks, rank, device (+ the arena's fd): -> status, error
  kHcclArena = 42,    // req, domain, rank: -> status (+ that rank's device arena fd)
  kHcclPost = 43,     // domain, kind u8, time i64, body: for the other ranks' processes
  kHcclLeave = 44,    // domain: this process's ranks left (HcclCommDestroy) (no reply)
  kHcclMembers = 50,  // server -> client: domain, nranks, (device, pid) by rank: all joined
  kHcclBatch = 51,    // server -> client: posts released at a quiescent point, in order
};

/// The largest payload a frame may have.
constexpr std::uint32_t kMaxFramePayload = 64u << 20;

struct Frame {
  FrameType type = FrameType::kHello;
  std::string payload;
};

/// Blocking frame I/O on a stream socket; false on EOF or error (errno kept). Frames above
/// 64 MiB are refused (payload bytes travel through shared memory, not the socket).
/// A frame may carry one file descriptor (SCM_RIGHTS): write_frame sends `pass_fd` when it is
/// >= 0; read_frame stores a received one in *received_fd (closed when that is null).
bool write_frame(int fd, const Frame& frame, int pass_fd = -1);
bool read_frame(int fd, Frame& frame, int* received_fd = nullptr);

/// Little-endian fields of a frame's payload, written and read in order.
class WireOut {
 public:
  WireOut& u8(std::uint8_t v) { return raw(&v, 1); }
  WireOut& u64(std::uint64_t v) { return raw(&v, 8); }
  WireOut& i64(std::int64_t v) { return raw(&v, 8); }
  WireOut& i32(std::int32_t v) { return raw(&v, 4); }
  WireOut& str(const std::string& v) {
    u64(v.size());
    text_ += v;
    return *this;
  }
  const std::string& bytes() const { return text_; }

 private:
  WireOut& raw(const void* p, std::size_t n) {
    text_.append(static_cast<const char*>(p), n);
    return *this;
  }
  std::string text_;
};

/// Reads what WireOut wrote; a short payload reads as zeros and sets ok() false.
class WireIn {
 public:
  explicit WireIn(const std::string& bytes) : bytes_(bytes) {}
  std::uint8_t u8() { return get<std::uint8_t>(); }
  std::uint64_t u64() { return get<std::uint64_t>(); }
  std::int64_t i64() { return get<std::int64_t>(); }
  std::int32_t i32() { return get<std::int32_t>(); }
  std::string str() {
    const std::uint64_t n = u64();
    if (!ok_ || n > bytes_.size() - at_) {
      ok_ = false;
      return {};
    }
    std::string v = bytes_.substr(at_, n);
    at_ += n;
    return v;
  }
  bool done() const { return at_ >= bytes_.size(); }
  bool ok() const { return ok_; }

 private:
  template <typename T>
  T get() {
    T v{};
    if (bytes_.size() - at_ < sizeof(T)) {
      ok_ = false;
      at_ = bytes_.size();
      return v;
    }
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

struct ClientInfo {
  std::uint32_t number = 0;  // 1, 2, ... in order of arrival
  pid_t pid = 0;             // from SO_PEERCRED
  std::string program;
};

/// What happened to the server's clients, for its log and tests.
struct ServerEvent {
  enum class Kind { kJoined, kLeft, kLost } kind;  // kLost: the socket closed without kBye
  ClientInfo client;
};

class Server {
 public:
  /// Listens on `path` (a stale socket file is replaced). Throws std::runtime_error, also when
  /// another server of the path is alive (it holds <path>.serving, or answers on the socket).
  Server(std::string path, int idle_exit_ms = 10000);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Serves until the last client has left; returns 0 (1 if it gave up waiting for a first
  /// client). `log` (may be null) receives one line per event.
  int run(std::vector<ServerEvent>* events = nullptr, bool log = true);
  /// Stops accepting and removes the socket file (while it is still this server's).
  void stop_listening();

 private:
  void take_serving_lock();
  std::string path_;
  int listen_fd_ = -1;
  int serving_lock_ = -1;  // flock held while this server lives
  unsigned long inode_ = 0;  // of the socket file this server bound (a successor's is not removed)
  int idle_exit_ms_;
};

/// Connects to the session's server, starting `server_exe serve --session <id>` first when none
/// listens; sends kHello and reads kWelcome. Returns the connected fd, or -1 with `error` set.
/// `number` receives the client number the server gave.
int connect_or_start(const std::string& session, const std::string& server_exe,
                     const std::string& program, std::uint32_t& number, std::string& error);

/// Connects to `path` and checks that the server there runs as this user (SO_PEERCRED). -1 with
/// `error` empty when nobody listens (errno kept), with `error` set when the server is refused.
int connect_checked(const std::string& path, std::string& error);

/// Connects to a server already listening (no start). Same return as connect_or_start.
int connect_to(const std::string& path, const std::string& program, std::uint32_t& number,
               std::string& error);

}  // namespace npusim::rt::remote
