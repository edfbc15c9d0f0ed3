// SPDX-License-Identifier: Apache-2.0
#include "runtime/session/private_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace npusim::rt::remote {
namespace {

std::string mode_text(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

/// What is wrong with directory `st` for a private directory of `uid` ("" when nothing).
std::string private_dir_fault(const struct stat& st, uid_t uid) {
  if (!S_ISDIR(st.st_mode)) return "is not a directory";
  if (st.st_uid != uid) {
    return "is owned by uid " + std::to_string(st.st_uid) + ", not by this user (uid " +
           std::to_string(uid) + ")";
  }
  if ((st.st_mode & 07777) != 0700) return "has mode " + mode_text(st.st_mode) + ", not 0700";
  return {};
}

}  // namespace

bool usable_runtime_dir(const char* xdg, uid_t uid) {
  if (xdg == nullptr || xdg[0] != '/') return false;
  struct stat st {};
  if (::stat(xdg, &st) != 0) return false;
  return S_ISDIR(st.st_mode) && st.st_uid == uid && (st.st_mode & 077) == 0;
}

std::string session_dir_for(const char* xdg, const std::string& tmp, uid_t uid) {
  if (usable_runtime_dir(xdg, uid)) return std::string(xdg) + "/npusim";
  return tmp + "/npusim-" + std::to_string(uid);
}

std::string session_dir() {
  return session_dir_for(std::getenv("XDG_RUNTIME_DIR"), "/tmp", geteuid());
}

bool ensure_private_dir(const std::string& path, uid_t uid, std::string& error) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    error = "cannot create the session directory " + path + ": " + std::strerror(errno);
    return false;
  }
  // Checked through a descriptor of the path itself: O_NOFOLLOW refuses a symlink, and what is
  // checked is what was opened.
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const bool link = errno == ELOOP || errno == ENOTDIR;
    error = "refusing the session directory " + path + ": " +
            (link ? std::string("it is a symlink or not a directory") : std::strerror(errno));
    return false;
  }
  struct stat st {};
  const std::string fault =
      ::fstat(fd, &st) != 0 ? std::strerror(errno) : private_dir_fault(st, uid);
  ::close(fd);
  if (!fault.empty()) {
    error = "refusing the session directory " + path + ": it " + fault +
            " (another user may have made it; remove it or set XDG_RUNTIME_DIR)";
    return false;
  }
  return true;
}

int open_lock_file(const std::string& path, uid_t uid, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot open the lock " + path + ": " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != uid) {
    error = "refusing the lock " + path + ": not a regular file of this user";
    ::close(fd);
    return -1;
  }
  return fd;
}

bool trusted_peer(const ucred& cred, uid_t self, const char* what, std::string& error) {
  if (cred.uid == self) return true;
  error = std::string(what) + " (pid " + std::to_string(cred.pid) + ") runs as uid " +
          std::to_string(cred.uid) + ", not as this user (uid " + std::to_string(self) +
          "): refused";
  return false;
}

bool socket_peer_trusted(int fd, uid_t self, const char* what, std::string& error) {
  ucred cred{};
  socklen_t len = sizeof(cred);
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    error = std::string("cannot learn who ") + what + " is: " + std::strerror(errno);
    return false;
  }
  return trusted_peer(cred, self, what, error);
}

}  // namespace npusim::rt::remote
