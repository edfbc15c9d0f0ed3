// SPDX-License-Identifier: Apache-2.0
// The session server's plumbing (runtime/session/session.h): clients numbered in arrival order
// with the pid the socket reports, a client killed mid-session noticed without disturbing the
// others, the server leaving with its last client. Processes are real (fork); every wait is
// bounded so that a broken server fails the test instead of hanging it.
#include "runtime/session/session.h"

#include "runtime/session/private_dir.h"
#include "tests/runtime/session/session_support.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace npusim::rt::remote {
namespace {

std::string list(int fd) {
  Frame f{FrameType::kList, ""};
  Frame reply;
  if (!write_frame(fd, f) || !read_frame(fd, reply) || reply.type != FrameType::kClients) return "?";
  return reply.payload;
}

/// The client list, asked again (up to 5 s) until it is `want`: the last answer.
std::string list_until(int fd, const std::string& want) {
  std::string now;
  for (int i = 0; i < 500; ++i) {
    now = list(fd);
    if (now == want) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return now;
}

TEST(RemoteSession, SessionIdsAndSocketPaths) {
  EXPECT_TRUE(valid_session("job-42.rank_0"));
  EXPECT_FALSE(valid_session(""));
  EXPECT_FALSE(valid_session("a/b"));
  EXPECT_FALSE(valid_session(std::string(65, 'x')));
  EXPECT_EQ(socket_path("s1"), session_dir() + "/s1-" + std::string(kProtocol) + ".sock");
}

TEST(RemoteSession, ServerNumbersClientsNoticesALostOneAndLeavesWithTheLast) {
  const std::string path = "/tmp/npusim-test-" + std::to_string(getpid()) + ".sock";
  const std::string log = path + ".events";
  const pid_t server = fork();
  ASSERT_GE(server, 0);
  if (server == 0) {
    std::vector<ServerEvent> events;
    int rc = 3;
    try {
      Server s(path, 5000);
      rc = s.run(&events, false);
    } catch (...) {
      _exit(4);
    }
    std::ofstream out(log);
    for (const auto& e : events) {
      out << static_cast<int>(e.kind) << " " << e.client.number << " " << e.client.program << "\n";
    }
    out.close();  // _exit runs no destructors
    _exit(rc);
  }
  std::uint32_t number = 0;
  std::string error;
  int a = -1;
  for (int i = 0; i < 500 && a < 0; ++i) {  // until the server listens (5 s at most)
    a = connect_to(path, "client-a", number, error);
    if (a < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(a, 0) << error;
  EXPECT_EQ(number, 1u);

  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t b = fork();
  ASSERT_GE(b, 0);
  if (b == 0) {
    std::uint32_t n = 0;
    std::string e;
    const int fd = connect_to(path, "client-b", n, e);
    const char ok = fd >= 0 && n == 2 ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    pause();  // until killed: it never says goodbye
    _exit(0);
  }
  char ok = 0;
  ASSERT_EQ(read(ready[0], &ok, 1), 1);
  EXPECT_EQ(ok, 'y');
  EXPECT_EQ(list(a), "1:" + std::to_string(getpid()) + " 2:" + std::to_string(b));

  kill(b, SIGKILL);  // a crash: the server must notice and keep serving client 1
  waitpid(b, nullptr, 0);
  EXPECT_EQ(list_until(a, "1:" + std::to_string(getpid())), "1:" + std::to_string(getpid()));

  ASSERT_TRUE(write_frame(a, {FrameType::kBye, ""}));
  close(a);
  const int status = wait_bounded(server, 5000);
  ASSERT_NE(status, -1) << "the server did not exit with its last client";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  // kJoined 0, kLeft 1, kLost 2.
  EXPECT_EQ(text.str(), "0 1 client-a\n0 2 client-b\n2 2 client-b\n1 1 client-a\n");
  std::remove(log.c_str());
  std::remove((path + ".serving").c_str());
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "the socket file stays behind";
}

// The first process of a session starts `npusim serve` (detached); the second finds it; the
// server leaves with the last client and takes its socket with it.
TEST(RemoteSession, TheFirstClientStartsTheServerTheSecondJoinsIt) {
  const std::string session = "test-" + std::to_string(getpid());
  std::uint32_t n = 0;
  std::string error;
  const int a = connect_or_start(session, NPUSIM_CLI, "first", n, error);
  ASSERT_GE(a, 0) << error;
  EXPECT_EQ(n, 1u);
  const pid_t b = fork();
  ASSERT_GE(b, 0);
  if (b == 0) {
    std::uint32_t m = 0;
    std::string e;
    const int fd = connect_or_start(session, NPUSIM_CLI, "second", m, e);
    if (fd < 0 || m != 2) _exit(1);
    write_frame(fd, {FrameType::kBye, ""});
    _exit(0);
  }
  const int status = wait_bounded(b, 5000);
  ASSERT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(list_until(a, "1:" + std::to_string(getpid())), "1:" + std::to_string(getpid()));
  write_frame(a, {FrameType::kBye, ""});
  close(a);
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = access(socket_path(session).c_str(), F_OK) != 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone) << "the server did not leave with its last client";
  std::remove((socket_path(session) + ".lock").c_str());
  std::remove((socket_path(session) + ".serving").c_str());
}

TEST(RemoteSession, AServerNobodyJoinsGivesUp) {
  const std::string path = "/tmp/npusim-test-idle-" + std::to_string(getpid()) + ".sock";
  {
    Server s(path, 50);
    EXPECT_EQ(s.run(nullptr, false), 1);
  }
  std::remove((path + ".serving").c_str());
}

TEST(RemoteSession, ConnectingWhereNobodyListensSaysSo) {
  std::uint32_t n = 0;
  std::string error;
  EXPECT_EQ(connect_to("/tmp/npusim-nobody-here.sock", "x", n, error), -1);
  EXPECT_NE(error.find("no session server"), std::string::npos) << error;
  EXPECT_EQ(connect_or_start("bad/id", "/bin/false", "x", n, error), -1);
  EXPECT_NE(error.find("not a session id"), std::string::npos) << error;
}

}  // namespace
}  // namespace npusim::rt::remote
