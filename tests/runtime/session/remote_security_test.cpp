// SPDX-License-Identifier: Apache-2.0
// Another local user never reaches a user's session (issue 23 items 1-3; runtime/session/
// private_dir.h, docs/session-security.md): the private directory (made 0700, then checked:
// a directory, not a symlink, owned by the user, mode exactly 0700), lock files that are never
// followed through a symlink, and peers of another uid refused on both ends of the socket.
// The tests that play "another user" need root (chown, setuid in a child process only) and skip
// without it; each wait is bounded, so a regression fails instead of hanging.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "runtime/session/private_dir.h"
#include "runtime/session/session.h"
#include "tests/runtime/session/session_support.h"

namespace npusim::rt::remote {
namespace {

constexpr uid_t kNobody = 65534;

/// waitpid with a wall-clock bound: the exit status, or -1 (after killing it) after `ms`.
/// A scratch directory like /tmp (world-writable, sticky), removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    char tmpl[] = "/tmp/npusim-sec-test.XXXXXX";
    path_ = mkdtemp(tmpl);
    chmod(path_.c_str(), 01777);
  }
  ~ScratchDir() { (void)!std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Restores XDG_RUNTIME_DIR when it goes.
class XdgGuard {
 public:
  XdgGuard() {
    const char* v = std::getenv("XDG_RUNTIME_DIR");
    had_ = v != nullptr;
    if (had_) old_ = v;
  }
  ~XdgGuard() {
    if (had_) {
      setenv("XDG_RUNTIME_DIR", old_.c_str(), 1);
    } else {
      unsetenv("XDG_RUNTIME_DIR");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

bool exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

TEST(RemoteSecurity, WithoutARuntimeDirTheSocketIsInAPrivateDirectoryNotInTmp) {
  XdgGuard guard;
  unsetenv("XDG_RUNTIME_DIR");
  const std::string uid = std::to_string(geteuid());
  EXPECT_EQ(session_dir(), "/tmp/npusim-" + uid);
  EXPECT_EQ(socket_path("s1"), "/tmp/npusim-" + uid + "/s1-" + kProtocol + ".sock");
}

TEST(RemoteSecurity, ARuntimeDirIsUsedOnlyWhenItIsTheUsersOwnAndPrivate) {
  ScratchDir scratch;
  const std::string run = scratch.path() + "/run";
  ASSERT_EQ(mkdir(run.c_str(), 0700), 0);
  const uid_t me = geteuid();
  const std::string fallback = "/T/npusim-" + std::to_string(me);
  EXPECT_EQ(session_dir_for(run.c_str(), "/T", me), run + "/npusim");
  EXPECT_EQ(session_dir_for(nullptr, "/T", me), fallback);
  EXPECT_EQ(session_dir_for("", "/T", me), fallback);
  EXPECT_EQ(session_dir_for("relative/dir", "/T", me), fallback);
  EXPECT_EQ(session_dir_for(scratch.path().c_str(), "/T", me), fallback) << "mode 1777";
  ASSERT_EQ(chmod(run.c_str(), 0750), 0);
  EXPECT_EQ(session_dir_for(run.c_str(), "/T", me), fallback) << "group access";
  ASSERT_EQ(chmod(run.c_str(), 0700), 0);
  EXPECT_EQ(session_dir_for(run.c_str(), "/T", me + 1), "/T/npusim-" + std::to_string(me + 1))
      << "another user's runtime directory";
}

TEST(RemoteSecurity, ThePrivateDirectoryIsMade0700AndAcceptedAgain) {
  ScratchDir scratch;
  const std::string dir = scratch.path() + "/npusim-" + std::to_string(geteuid());
  const mode_t old_mask = umask(0);  // a permissive umask must not widen it
  std::string error;
  EXPECT_TRUE(ensure_private_dir(dir, geteuid(), error)) << error;
  umask(old_mask);
  EXPECT_EQ(mode_of(dir), 0700u);
  EXPECT_TRUE(ensure_private_dir(dir, geteuid(), error)) << error;
}

TEST(RemoteSecurity, ADirectoryWithAnotherModeIsRefused) {
  ScratchDir scratch;
  const std::string dir = scratch.path() + "/npusim-x";
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
  std::string error;
  EXPECT_FALSE(ensure_private_dir(dir, geteuid(), error));
  EXPECT_NE(error.find("has mode 0777, not 0700"), std::string::npos) << error;
  EXPECT_EQ(mode_of(dir), 0777u) << "a refused directory is left as it is";
}

TEST(RemoteSecurity, ADirectoryOfAnotherUserIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (chown)";
  ScratchDir scratch;
  const std::string dir = scratch.path() + "/npusim-0";
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(chown(dir.c_str(), kNobody, kNobody), 0);  // as if user 65534 had made it first
  std::string error;
  EXPECT_FALSE(ensure_private_dir(dir, 0, error));
  EXPECT_NE(error.find("owned by uid 65534"), std::string::npos) << error;
}

TEST(RemoteSecurity, ASymlinkInPlaceOfTheDirectoryIsRefused) {
  ScratchDir scratch;
  const std::string target = scratch.path() + "/elsewhere";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);  // even a private directory of the user's own
  const std::string dir = scratch.path() + "/npusim-x";
  ASSERT_EQ(symlink(target.c_str(), dir.c_str()), 0);
  std::string error;
  EXPECT_FALSE(ensure_private_dir(dir, geteuid(), error));
  EXPECT_NE(error.find("symlink"), std::string::npos) << error;
}

TEST(RemoteSecurity, ALockFileIsNeverFollowedThroughASymlinkNorTakenFromAnotherUser) {
  ScratchDir scratch;
  const std::string victim = scratch.path() + "/victim";
  const std::string lock = scratch.path() + "/s-p2.sock.lock";
  ASSERT_EQ(symlink(victim.c_str(), lock.c_str()), 0);
  std::string error;
  EXPECT_EQ(open_lock_file(lock, geteuid(), error), -1);
  EXPECT_FALSE(exists(victim)) << "the symlink's target was created";
  if (geteuid() != 0) return;
  const std::string theirs = scratch.path() + "/theirs.lock";
  const int fd = open(theirs.c_str(), O_CREAT | O_WRONLY, 0666);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(chown(theirs.c_str(), kNobody, kNobody), 0);
  EXPECT_EQ(open_lock_file(theirs, 0, error), -1);
  EXPECT_NE(error.find("not a regular file of this user"), std::string::npos) << error;
}

/// Starts (or joins) `session` in a child process; its exit status, or -1 if it blocked.
int start_session_bounded(const std::string& session) {
  const pid_t client = fork();
  if (client == 0) {
    std::uint32_t n = 0;
    std::string error;
    const int fd = connect_or_start(session, NPUSIM_CLI, "victim", n, error);
    if (fd < 0) _exit(2);
    write_frame(fd, {FrameType::kBye, ""});
    _exit(0);
  }
  const int status = wait_bounded(client, 10000);
  std::remove((socket_path(session) + ".lock").c_str());  // this test's session only
  std::remove((socket_path(session) + ".serving").c_str());
  return status;
}

std::string old_lock_name(const std::string& session) {
  return "/tmp/npusim-" + std::to_string(geteuid()) + "-" + session + "-" + kProtocol +
         ".sock.lock";
}

// The attacks of issue 23 on the old names in /tmp: a symlink planted as the lock file, and a
// lock file held by another user. Neither reaches a session now.
TEST(RemoteSecurity, ASymlinkPlantedAtTheOldLockNameInTmpCreatesNothing) {
  XdgGuard guard;
  unsetenv("XDG_RUNTIME_DIR");
  ScratchDir scratch;
  const std::string session = "sec-link-" + std::to_string(getpid());
  const std::string victim = scratch.path() + "/victim";
  ASSERT_EQ(symlink(victim.c_str(), old_lock_name(session).c_str()), 0);
  const int status = start_session_bounded(session);
  std::remove(old_lock_name(session).c_str());
  EXPECT_FALSE(exists(victim)) << "the planted symlink's target was created";
  ASSERT_NE(status, -1) << "the session start blocked";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(RemoteSecurity, ALockHeldByAnotherUserAtTheOldNameDoesNotBlockASession) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (plays user 65534 in a child process)";
  XdgGuard guard;
  unsetenv("XDG_RUNTIME_DIR");
  const std::string session = "sec-held-" + std::to_string(getpid());
  const std::string held = old_lock_name(session);
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t holder = fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {  // user 65534 made the lock file first (mode 0666) and holds it
    if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(1);
    umask(0);
    const int fd = open(held.c_str(), O_CREAT | O_RDWR, 0666);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) _exit(1);
    (void)!write(ready[1], "y", 1);
    pause();
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  const int status = start_session_bounded(session);
  kill(holder, SIGKILL);
  waitpid(holder, nullptr, 0);
  std::remove(held.c_str());
  ASSERT_NE(status, -1) << "the session start blocked on another user's lock";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// A fake server of user 65534: answers kHello with kWelcome, if anyone says it.
pid_t fake_server_of_nobody(const std::string& path, int ready_fd) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(1);
  const int s = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path.c_str());
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 || listen(s, 4) != 0) _exit(1);
  chmod(path.c_str(), 0666);
  (void)!write(ready_fd, "y", 1);
  for (;;) {
    const int c = accept(s, nullptr, nullptr);
    Frame f;
    if (c >= 0 && read_frame(c, f)) write_frame(c, {FrameType::kWelcome, "1 1"});
  }
}

TEST(RemoteSecurity, AClientRefusesAServerOfAnotherUser) {
  ucred cred{};
  cred.pid = 4242;
  cred.uid = geteuid() + 1;
  std::string error;
  EXPECT_FALSE(trusted_peer(cred, geteuid(), "the session server", error));
  EXPECT_NE(error.find("runs as uid " + std::to_string(geteuid() + 1)), std::string::npos) << error;
  cred.uid = geteuid();
  EXPECT_TRUE(trusted_peer(cred, geteuid(), "the session server", error));
  if (geteuid() != 0) GTEST_SKIP() << "a real server of another user needs root";
  ScratchDir scratch;  // world-writable, as /tmp: user 65534 listens there first
  const std::string path = scratch.path() + "/s.sock";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t server = fake_server_of_nobody(path, ready[1]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  std::uint32_t n = 0;
  const int fd = connect_to(path, "victim", n, error);
  kill(server, SIGKILL);
  waitpid(server, nullptr, 0);
  EXPECT_EQ(fd, -1) << "a server of uid 65534 was trusted";
  EXPECT_NE(error.find("runs as uid 65534"), std::string::npos) << error;
}

TEST(RemoteSecurity, AServerRefusesAClientOfAnotherUser) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (a client of uid 65534)";
  ScratchDir scratch;
  const std::string path = scratch.path() + "/s.sock";
  const pid_t server = fork();
  ASSERT_GE(server, 0);
  if (server == 0) {
    try {
      Server s(path, 5000);
      chmod(path.c_str(), 0666);  // as if the file's mode were no protection
      _exit(s.run(nullptr, false));
    } catch (...) {
      _exit(4);
    }
  }
  for (int i = 0; i < 500 && access(path.c_str(), F_OK) != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // its chmod
  const pid_t intruder = fork();
  ASSERT_GE(intruder, 0);
  if (intruder == 0) {
    if (setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(1);
    // connect_to itself refuses a server of another uid; the raw protocol shows the server's side.
    const int s = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::snprintf(a.sun_path, sizeof(a.sun_path), "%s", path.c_str());
    if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) _exit(3);
    Frame reply;
    const bool welcomed = write_frame(s, {FrameType::kHello, "intruder"}) && read_frame(s, reply);
    _exit(welcomed ? 5 : 0);
  }
  const int intruder_status = wait_bounded(intruder, 5000);
  std::uint32_t n = 0;
  std::string error;
  const int fd = connect_to(path, "owner", n, error);
  ASSERT_GE(fd, 0) << error;
  EXPECT_EQ(n, 1u) << "the intruder was numbered as a client";
  write_frame(fd, {FrameType::kBye, ""});
  close(fd);
  wait_bounded(server, 5000);
  ASSERT_NE(intruder_status, -1);
  EXPECT_TRUE(WIFEXITED(intruder_status));
  EXPECT_EQ(WEXITSTATUS(intruder_status), 0) << "5: the server welcomed a client of uid 65534";
}

}  // namespace
}  // namespace npusim::rt::remote
