// SPDX-License-Identifier: Apache-2.0
// The session server survives any client (issue 23 items 4-6; runtime/session/hub.h limits,
// runtime/session/server.cpp): fields beyond the hub's limits are refused before anything is
// allocated for them, a client that stays silent or sends half a frame holds up nobody, a
// second server of a live session leaves it alone, and a frame fuzzer (below) finds no frame
// that stops the server or keeps it from answering a well-behaved client.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "runtime/hccl/hub_domains.h"
#include "runtime/session/hub.h"
#include "runtime/session/session.h"
#include "tests/runtime/session/session_support.h"

namespace npusim::rt::remote {
namespace {

using Ms = std::chrono::milliseconds;

/// The reply to the request in `out[i]`: status after the request id.
std::uint8_t status_of(const std::vector<Outgoing>& out, std::size_t i = 0) {
  WireIn in(out.at(i).frame.payload);
  in.u64();
  return in.u8();
}

TEST(HubLimits, AJoinAnnouncingFourBillionRanksIsRefusedWithoutAllocating) {
  Hub hub;
  hccl::add_hub_domains(hub);
  hub.joined(5, 100, "a");
  std::vector<Outgoing> out;
  WireOut d;
  hub.frame(5, {FrameType::kHcclDomain, d.u64(1).bytes()}, -1, out);
  ASSERT_EQ(status_of(out), 0);
  WireIn in(out[0].frame.payload);
  in.u64();
  in.u8();
  const std::uint64_t id = in.u64();
  for (std::uint64_t nranks : {std::uint64_t{0xFFFFFFFFu}, std::uint64_t{1} << 40,
                               HubLimits::kMaxRanks + 1}) {
    out.clear();
    WireOut j;
    j.u64(2).u64(id).u64(nranks).u64(0).u64(0);
    hub.frame(5, {FrameType::kHcclJoin, j.bytes()}, -1, out);  // threw std::bad_alloc before
    ASSERT_EQ(out.size(), 1u);
    WireIn r(out[0].frame.payload);
    r.u64();
    EXPECT_EQ(r.u8(), 3) << nranks;  // kNotPermitted
    EXPECT_NE(r.str().find("is not in 1..65536"), std::string::npos) << nranks;
  }
  // 2^32 + 2 ranks must not pass as 2 (the field is checked before it is narrowed).
  out.clear();
  WireOut j;
  j.u64(3).u64(id).u64((std::uint64_t{1} << 32) + 2).u64(0).u64(0);
  hub.frame(5, {FrameType::kHcclJoin, j.bytes()}, -1, out);
  EXPECT_EQ(status_of(out), 3);
}

TEST(HubLimits, ExportsWhitelistsAndDescriptorsAreBounded) {
  Hub hub;
  hub.joined(5, 100, "a");
  std::vector<Outgoing> out;
  WireOut big;  // a description above the limit
  big.u64(1).u8(0).u8(1).u64(0).i64(-1).str(std::string(HubLimits::kMaxDescription + 1, 'x'));
  hub.frame(5, {FrameType::kPublish, big.bytes()}, -1, out);
  EXPECT_EQ(status_of(out), 3);
  out.clear();
  WireOut kind;  // no such kind
  kind.u64(2).u8(9).u8(1).u64(0).i64(-1).str("d");
  hub.frame(5, {FrameType::kPublish, kind.bytes()}, -1, out);
  EXPECT_EQ(status_of(out), 3);
  EXPECT_EQ(hub.exports(), 0u);
  out.clear();
  WireOut ok;
  ok.u64(3).u8(0).u8(1).u64(0).i64(-1).str("d");
  hub.frame(5, {FrameType::kPublish, ok.bytes()}, -1, out);
  ASSERT_EQ(status_of(out), 0);
  WireIn in(out[0].frame.payload);
  in.u64();
  in.u8();
  const std::uint64_t id = in.u64();
  out.clear();
  WireOut allow;  // more pids than one export may whitelist
  allow.u64(4).u64(id).u8(0);
  for (std::size_t i = 0; i <= HubLimits::kMaxAllowed; ++i) allow.i32(static_cast<int>(i) + 1000);
  hub.frame(5, {FrameType::kAllow, allow.bytes()}, -1, out);
  EXPECT_EQ(status_of(out), 3);
  // A descriptor on a frame that carries none is closed, not kept.
  const int fd = memfd_create("stray", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  out.clear();
  WireOut rec;
  hub.frame(5, {FrameType::kRecord, rec.u64(id).i64(5).bytes()}, fd, out);
  EXPECT_EQ(fcntl(fd, F_GETFD), -1) << "the hub kept a descriptor nobody asked for";
}

// ---- a live server ----

/// A Server in a child process; the path of its socket.
class LiveServer {
 public:
  explicit LiveServer(const std::string& name) {
    path_ = "/tmp/npusim-robust-" + name + "-" + std::to_string(getpid()) + ".sock";
    pid_ = fork();
    if (pid_ == 0) {
      try {
        Server s(path_, 10000);
        _exit(s.run(nullptr, false));
      } catch (...) {
        _exit(4);
      }
    }
    for (int i = 0; i < 500 && access(path_.c_str(), F_OK) != 0; ++i) {
      std::this_thread::sleep_for(Ms(10));
    }
  }
  ~LiveServer() {
    if (pid_ > 0) wait_bounded(pid_, 100);
    std::remove(path_.c_str());
    std::remove((path_ + ".serving").c_str());
  }
  const std::string& path() const { return path_; }
  bool alive() const {
    int status = 0;
    return waitpid(pid_, &status, WNOHANG) == 0;
  }
  /// Its exit status after its last client left (-1: it did not exit).
  int exit_status(int ms) {
    const int s = wait_bounded(pid_, ms);
    pid_ = -1;
    return s;
  }

 private:
  std::string path_;
  pid_t pid_ = -1;
};

int raw_connect(const std::string& path) {
  const int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path.c_str());
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(s);
    return -1;
  }
  return s;
}

/// connect_to in a child process, bounded: whether a client was welcomed within `ms`.
bool welcomed_within(const std::string& path, int ms) {
  const pid_t c = fork();
  if (c == 0) {
    std::uint32_t n = 0;
    std::string e;
    const int fd = connect_to(path, "prompt", n, e);
    if (fd < 0) _exit(1);
    _exit(list_within(fd, ms) == "?" ? 2 : 0);
  }
  const int status = wait_bounded(c, ms);
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(RemoteRobustness, ASilentClientOrHalfAFrameHoldsUpNobody) {
  LiveServer server("silent");
  std::uint32_t n = 0;
  std::string error;
  const int a = connect_to(server.path(), "a", n, error);
  ASSERT_GE(a, 0) << error;
  const int silent = raw_connect(server.path());  // connects, never says kHello
  ASSERT_GE(silent, 0);
  const int half = raw_connect(server.path());  // half a header
  ASSERT_GE(half, 0);
  const std::uint32_t head[2] = {1, 100};
  ASSERT_EQ(send(half, head, 4, MSG_NOSIGNAL), 4);
  const int short_frame = raw_connect(server.path());  // a welcomed client, then 10 of 1000 bytes
  ASSERT_GE(short_frame, 0);
  ASSERT_TRUE(write_frame(short_frame, {FrameType::kHello, "short"}));
  const std::uint32_t head2[2] = {static_cast<std::uint32_t>(FrameType::kPublish), 1000};
  ASSERT_EQ(send(short_frame, head2, 8, MSG_NOSIGNAL), 8);
  ASSERT_EQ(send(short_frame, "0123456789", 10, MSG_NOSIGNAL), 10);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(welcomed_within(server.path(), 2000)) << "a new client was not served";
  EXPECT_NE(list_within(a, 2000), "?") << "a connected client was not answered";
  EXPECT_LT(std::chrono::steady_clock::now() - start, Ms(3000));
  for (int fd : {silent, half, short_frame, a}) close(fd);
  EXPECT_NE(server.exit_status(8000), -1) << "the server did not leave with its last client";
}

TEST(RemoteRobustness, AClientThatNeverReadsItsRepliesIsDroppedNotWaitedFor) {
  LiveServer server("noread");
  std::uint32_t n = 0;
  std::string error;
  const int a = connect_to(server.path(), "a", n, error);
  ASSERT_GE(a, 0) << error;
  const int greedy = connect_to(server.path(), "greedy", n, error);
  ASSERT_GE(greedy, 0) << error;
  // Requests whose replies it never reads: far more than the socket buffers hold.
  const int flags = fcntl(greedy, F_GETFL);
  fcntl(greedy, F_SETFL, flags | O_NONBLOCK);
  WireOut w;
  w.u64(1);
  const std::string req = w.bytes();
  for (int i = 0; i < 200000; ++i) {
    if (!write_frame(greedy, {FrameType::kHcclDomain, req}) && errno != EAGAIN) break;
  }
  EXPECT_NE(list_within(a, 3000), "?") << "the server stalled on a client that does not read";
  close(greedy);
  close(a);
  server.exit_status(8000);
}

TEST(RemoteRobustness, ASecondServerOfALiveSessionLeavesItServing) {
  const std::string session = "robust-second-" + std::to_string(getpid());
  std::uint32_t n = 0;
  std::string error;
  const int a = connect_or_start(session, NPUSIM_CLI, "first", n, error);
  ASSERT_GE(a, 0) << error;
  const std::string path = socket_path(session);
  struct stat before {};
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  const std::string err_file = "/tmp/npusim-robust-second-" + std::to_string(getpid()) + ".err";
  const pid_t second = fork();
  if (second == 0) {
    const int fd = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    execl(NPUSIM_CLI, NPUSIM_CLI, "serve", "--session", session.c_str(), nullptr);
    _exit(127);
  }
  const int status = wait_bounded(second, 4000);
  std::ifstream in(err_file);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(err_file.c_str());
  ASSERT_NE(status, -1) << "the second server did not exit";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  EXPECT_NE(text.str().find("another server of this session is running"), std::string::npos)
      << text.str();
  struct stat after {};
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the live server's socket was replaced";
  const int b = connect_to(path, "second-client", n, error);
  ASSERT_GE(b, 0) << error;
  EXPECT_EQ(n, 2u) << "the session split";
  write_frame(b, {FrameType::kBye, ""});
  write_frame(a, {FrameType::kBye, ""});
  close(b);
  close(a);
  std::remove((path + ".lock").c_str());  // this test's session only
  std::remove((path + ".serving").c_str());
}

}  // namespace
}  // namespace npusim::rt::remote
