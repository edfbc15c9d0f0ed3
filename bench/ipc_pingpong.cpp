// SPDX-License-Identifier: Apache-2.0
// What a cross-process command costs (issue 14): two processes of one npusim session ping-pong
// through IPC notifies — A records B's notify and waits for its own, B waits for its notify and
// records A's — and one process makes registry calls that are answered by the session server.
//
//   npusim_ipc_pingpong [--rounds N] [--calls M]
// Prints the wall time per round trip (each round: two records forwarded by the server, two host
// waits that block on it, two phantom tasks) and per registry request, and the simulated time per
// round. The parent starts both sides as child processes (this program with a role argument) in a
// fresh session; NPUSIM_SERVER must name the npusim executable when running from a build tree.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

#define CHECK(call)                                                   \
  do {                                                                \
    const aclError e_ = (call);                                       \
    if (e_ != ACL_SUCCESS) {                                          \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(e_)); \
      std::exit(2);                                                   \
    }                                                                 \
  } while (0)

void put(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path + ".tmp");
    out << text;
  }
  std::rename((path + ".tmp").c_str(), path.c_str());
}

std::string get(const std::string& path) {
  for (int i = 0; i < 3000; ++i) {
    std::ifstream in(path);
    if (in) {
      std::stringstream s;
      s << in.rdbuf();
      return s.str();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::fprintf(stderr, "timeout waiting for %s\n", path.c_str());
  std::exit(3);
}

std::uint64_t stamp(aclrtStream s) {
  aclrtEvent e = nullptr;
  CHECK(aclrtCreateEvent(&e));
  CHECK(aclrtRecordEvent(e, s));
  CHECK(aclrtSynchronizeEvent(e));
  std::uint64_t us = 0;
  CHECK(aclrtEventGetTimestamp(e, &us));
  CHECK(aclrtDestroyEvent(e));
  return us;
}

int side(bool a, const std::string& dir, int rounds, int calls) {
  const std::int32_t device = a ? 0 : 1;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  aclrtNotify mine = nullptr;
  CHECK(aclrtCreateNotify(&mine, 0));
  char key[65] = {};
  CHECK(aclrtNotifyGetExportKey(mine, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  put(dir + (a ? "/a" : "/b"), key);
  const std::string other_key = get(dir + (a ? "/b" : "/a"));
  aclrtNotify other = nullptr;
  CHECK(aclrtNotifyImportByKey(&other, other_key.c_str(), ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
  const std::uint64_t sim0 = stamp(stream);
  const auto t0 = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    if (a) {
      CHECK(aclrtRecordNotify(other, stream));
      CHECK(aclrtWaitAndResetNotify(mine, stream, 0));
    } else {
      CHECK(aclrtWaitAndResetNotify(mine, stream, 0));
      CHECK(aclrtRecordNotify(other, stream));
    }
    CHECK(aclrtSynchronizeStream(stream));
  }
  const double wall_us =
      std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / rounds;
  const double sim_us = static_cast<double>(stamp(stream) - sim0) / rounds;
  if (a) {
    std::printf("round trip between two processes: %.1f us wall, %.2f us simulated (%d rounds)\n",
                wall_us, sim_us, rounds);
    std::int32_t pid = 1;
    const auto r0 = Clock::now();
    for (int i = 0; i < calls; ++i) CHECK(aclrtNotifySetImportPid(mine, &pid, 1));
    std::printf("registry request to the server (aclrtNotifySetImportPid): %.1f us wall (%d calls)\n",
                std::chrono::duration<double, std::micro>(Clock::now() - r0).count() / calls,
                calls);
    put(dir + "/done", "1");
  } else {
    get(dir + "/done");  // the notify stays imported while A measures
  }
  CHECK(aclrtDestroyNotify(other));
  CHECK(aclrtDestroyNotify(mine));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclFinalize());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 2000;
  int calls = 2000;
  if (argc == 5 && (std::strcmp(argv[1], "a") == 0 || std::strcmp(argv[1], "b") == 0)) {
    return side(argv[1][0] == 'a', argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--calls") == 0) calls = std::atoi(argv[i + 1]);
  }
  char tmpl[] = "/tmp/npusim-pingpong-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return 1;
  const std::string dir = tmpl;
  const std::string session = "pingpong-" + std::to_string(getpid());
  setenv("NPUSIM_SESSION", session.c_str(), 1);
  if (getenv("NPUSIM_SET") == nullptr) setenv("NPUSIM_SET", "soc.num_devices=2", 1);
  const std::string r = std::to_string(rounds);
  const std::string c = std::to_string(calls);
  std::vector<pid_t> kids;
  for (const char* role : {"a", "b"}) {
    const char* args[] = {"/proc/self/exe", role, dir.c_str(), r.c_str(), c.c_str(), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, const_cast<char**>(args), environ) != 0) {
      return 1;
    }
    kids.push_back(pid);
  }
  int rc = 0;
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) rc = 1;
  }
  std::string cleanup = "rm -rf " + dir;
  if (std::system(cleanup.c_str()) != 0) rc = 1;
  return rc;
}
