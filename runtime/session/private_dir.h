// SPDX-License-Identifier: Apache-2.0
// Where a user's session servers live, and the checks that keep another local user out
// (issue 23; docs/session-security.md). Plain POSIX.
//
//   Directory  $XDG_RUNTIME_DIR/npusim when XDG_RUNTIME_DIR is an absolute path to a directory of
//              this user with no group/other access; else /tmp/npusim-<uid>. Either is created
//              with mkdir 0700 and then checked through an O_NOFOLLOW descriptor: a directory
//              (not a symlink), owned by this user, mode exactly 0700. Anything else is refused
//              with a reason: another user who made /tmp/npusim-<uid> first, or planted a symlink
//              there, gets nothing (the victim's session does not start, rather than leak).
//   Files      the socket, the start lock and the serving lock live only in that directory; lock
//              files are opened O_NOFOLLOW | O_CLOEXEC and must be regular files of this user.
//   Peers      a client talks only to a server of its own uid, a server only to clients of its
//              own uid (SO_PEERCRED), whatever the socket file's mode says.
#pragma once

#include <sys/socket.h>
#include <sys/types.h>

#include <string>

namespace npusim::rt::remote {

/// The directory that holds this user's session sockets (not created: see ensure_private_dir).
std::string session_dir();
/// The directory session_dir() would be with XDG_RUNTIME_DIR = `xdg` (null: unset) and the
/// fallback under `tmp` ("/tmp" in real use).
std::string session_dir_for(const char* xdg, const std::string& tmp, uid_t uid);
/// Whether `xdg` is a runtime directory this user may put private files in.
bool usable_runtime_dir(const char* xdg, uid_t uid);

/// Creates `path` (mkdir 0700) if missing, then checks it is a real directory owned by `uid`
/// with mode exactly 0700. False with `error` saying what is wrong (nothing is changed then).
bool ensure_private_dir(const std::string& path, uid_t uid, std::string& error);

/// Opens (creating, mode 0600) a lock file in a private directory: O_NOFOLLOW, O_CLOEXEC, and
/// it must be a regular file owned by `uid`. -1 with `error` otherwise.
int open_lock_file(const std::string& path, uid_t uid, std::string& error);

/// Whether the process at the other end of a Unix socket (`cred`, from SO_PEERCRED) may be
/// talked to by a process of `self`: the same uid only. `what` names the peer in `error`.
bool trusted_peer(const ucred& cred, uid_t self, const char* what, std::string& error);
/// trusted_peer() with the credentials of connected socket `fd`.
bool socket_peer_trusted(int fd, uid_t self, const char* what, std::string& error);

}  // namespace npusim::rt::remote
