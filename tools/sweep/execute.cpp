// SPDX-License-Identifier: Apache-2.0
// Executing a sweep: the plan file, one run (fork/exec of npusim), the local process pool, the
// Slurm job array, and the table. A run's record (run.json) is written by whoever waited for the
// run (the pool, or the array task itself), atomically, after the run's outputs are complete.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tools/check/text.h"
#include "tools/sweep/sweep.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace npusim::sweep {
namespace {

constexpr const char* kPlanFile = "sweep_plan.json";
constexpr const char* kRecordFile = "run.json";

json plan_json(const Plan& plan, const std::string& npusim) {
  json runs = json::array();
  for (const Run& r : plan.runs) {
    json values = json::array();
    for (const auto& [k, v] : r.values) values.push_back({k, v});
    runs.push_back({{"index", r.index}, {"values", values}, {"args", r.args}});
  }
  return {{"name", plan.name}, {"sweep_file", plan.file}, {"npusim", npusim},
          {"workdir", plan.workdir}, {"timeout_s", plan.timeout_s}, {"params", plan.params},
          {"runs", runs}};
}

bool write_atomically(const fs::path& path, const std::string& text) {
  return check::write_file_atomically(path.string(), text);
}

/// Starts one run: its directory emptied, stdout/stderr to files in it, the environment's
/// NPUSIM_CONFIG / NPUSIM_SET / NPUSIM_OUT removed (the plan says everything). Returns the pid
/// (or -1, with the reason in `why`).
pid_t spawn(const std::string& npusim, const std::vector<std::string>& args, const fs::path& dir,
            const std::string& workdir, double timeout_s, std::string& why) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) {
    why = "cannot create " + dir.string() + ": " + ec.message();
    return -1;
  }
  std::vector<std::string> argv{npusim};
  for (const auto& a : args) argv.push_back(a == "{out}" ? dir.string() : a);
  const std::string out_file = (dir / "stdout.txt").string(), err_file = (dir / "stderr.txt").string();
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    why = std::string("fork: ") + std::strerror(errno);
    return -1;
  }
  if (pid == 0) {
    const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o >= 0) dup2(o, 1);
    if (e >= 0) dup2(e, 2);
    if (chdir(workdir.c_str()) != 0) {
      std::fprintf(stderr, "npusim sweep: cannot enter %s: %s\n", workdir.c_str(), std::strerror(errno));
      _exit(126);
    }
    unsetenv("NPUSIM_CONFIG");
    unsetenv("NPUSIM_SET");
    unsetenv("NPUSIM_OUT");
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // The limit survives exec: SIGALRM ends the run (recorded as "timeout").
    if (timeout_s > 0) alarm(static_cast<unsigned>(std::ceil(timeout_s)));
    execv(cargs[0], cargs.data());
    std::fprintf(stderr, "npusim sweep: cannot execute %s: %s\n", cargs[0], std::strerror(errno));
    _exit(127);
  }
  return pid;
}

RunRecord record_of(int status) {
  RunRecord r;
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
    r.status = r.exit_code == 0 ? "ok" : "failed";
  } else if (WIFSIGNALED(status)) {
    r.exit_code = 128 + WTERMSIG(status);
    r.status = WTERMSIG(status) == SIGALRM ? "timeout" : "killed";
  } else {
    r.status = "failed";
  }
  return r;
}

void write_record(const fs::path& dir, const Run& run, const RunRecord& r) {
  json values = json::object();
  for (const auto& [k, v] : run.values) values[k] = v;
  const json j = {{"index", run.index}, {"status", r.status}, {"exit_code", r.exit_code},
                  {"values", values}};
  write_atomically(dir / kRecordFile, j.dump(2) + "\n");
}

std::string describe(const Run& run) {
  std::string out;
  for (const auto& [k, v] : run.values) {
    if (!v.empty()) out += (out.empty() ? "" : " ") + k + "=" + v;
  }
  return out;
}

/// Runs a command, returning its exit status and stdout (stderr passes through).
int capture(const std::vector<std::string>& argv, std::string& out) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    close(pipefd[1]);
    execvp(cargs[0], cargs.data());
    _exit(127);
  }
  close(pipefd[1]);
  char buf[4096];
  ssize_t n;
  out.clear();
  while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool on_path(const std::string& prog) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::stringstream ss(path);
  std::string d;
  while (std::getline(ss, d, ':')) {
    if (!d.empty() && access((fs::path(d) / prog).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run_local(const Plan& plan, const Options& opt, const std::vector<int>& pending,
              std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  std::map<pid_t, int> running;
  std::size_t next = 0, done = 0;
  int failures = 0;
  const int jobs = std::max(1, opt.jobs);
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && static_cast<int>(running.size()) < jobs) {
      const Run& run = plan.runs[static_cast<std::size_t>(pending[next++])];
      std::string why;
      const pid_t pid = spawn(opt.npusim, run.args, run_dir(opt.out, run.index), plan.workdir,
                              plan.timeout_s, why);
      if (pid < 0) {
        err << "npusim sweep: run " << run.index << ": " << why << "\n";
        return 2;
      }
      running[pid] = run.index;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      err << "npusim sweep: waitpid: " << std::strerror(errno) << "\n";
      return 2;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Run& run = plan.runs[static_cast<std::size_t>(it->second)];
    running.erase(it);
    const RunRecord rec = record_of(status);
    write_record(run_dir(opt.out, run.index), run, rec);
    if (rec.status != "ok") ++failures;
    out << "[" << ++done << "/" << pending.size() << "] run " << run.index << " " << rec.status;
    if (rec.status != "ok") out << " (exit " << rec.exit_code << ", see " << run_dir(opt.out, run.index) << "/stderr.txt)";
    out << "  " << describe(run) << "  (" << eta_text(done, pending.size(), seconds_since(start))
        << ")\n" << std::flush;
  }
  return failures == 0 ? 0 : 1;
}

/// OUT/slurm/sweep.sbatch: one array task (`npusim sweep-task`) per pending run; "" (reported)
/// when it cannot be written.
std::string write_array_script(const Plan& plan, const Options& opt, const std::string& spec,
                               std::ostream& err) {
  const fs::path slurm = fs::path(opt.out) / "slurm";
  std::ostringstream script;
  script << "#!/bin/sh\n"
         << "# npusim sweep " << plan.name << ": one array task per pending run (written by npusim sweep)\n"
         << "#SBATCH --job-name=npusim-sweep-" << plan.name << "\n"
         << "#SBATCH --array=" << spec << "\n"
         << "#SBATCH --output=" << (slurm / "task-%a.log").string() << "\n"
         << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
         << "exec " << shell_quote(opt.npusim) << " sweep-task " << shell_quote(fs::absolute(opt.out).string())
         << " \"$SLURM_ARRAY_TASK_ID\"\n";
  const fs::path script_file = slurm / "sweep.sbatch";
  if (!write_atomically(script_file, script.str())) {
    err << "npusim sweep: cannot write " << script_file.string() << "\n";
    return "";
  }
  return script_file.string();
}

/// Polls squeue until the job has left the queue, reporting the runs finished so far.
void wait_for_array(const std::string& job, const std::vector<int>& pending,
                    const std::string& out_dir, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t reported = 0;
  for (;;) {
    std::string queued;
    const int rc = capture({"squeue", "-h", "-j", job, "-o", "%i"}, queued);
    std::size_t finished = 0;
    for (int i : pending) finished += fs::exists(fs::path(run_dir(out_dir, i)) / kRecordFile);
    if (finished != reported) {
      out << "[" << finished << "/" << pending.size() << "] array tasks finished  ("
          << eta_text(finished, pending.size(), seconds_since(start)) << ")\n" << std::flush;
      reported = finished;
    }
    if (rc != 0 || queued.find_first_not_of(" \n") == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

int run_slurm(const Plan& plan, const Options& opt, const std::vector<int>& pending,
              std::ostream& out, std::ostream& err) {
  if (!on_path("sbatch")) {
    err << "npusim sweep --slurm: sbatch is not on PATH (install slurm-client, or run without "
           "--slurm for the local pool)\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(fs::path(opt.out) / "slurm", ec);
  // Old records of the pending runs go now, so that progress counts only this job's runs.
  for (int i : pending) fs::remove(fs::path(run_dir(opt.out, i)) / kRecordFile, ec);
  std::string spec = array_spec(pending);
  if (opt.slurm_parallel > 0) spec += "%" + std::to_string(opt.slurm_parallel);
  const std::string script_file = write_array_script(plan, opt, spec, err);
  if (script_file.empty()) return 2;
  std::vector<std::string> cmd{"sbatch", "--parsable"};
  cmd.insert(cmd.end(), opt.sbatch.begin(), opt.sbatch.end());
  cmd.push_back(script_file);
  std::string reply;
  if (capture(cmd, reply) != 0) {
    err << "npusim sweep: sbatch failed (its message is above); script: " << script_file << "\n";
    return 2;
  }
  const std::string job = reply.substr(0, reply.find_first_of(";\n"));
  out << "submitted Slurm job array " << job << " (" << pending.size() << " tasks, --array=" << spec
      << "); script " << script_file << "\n" << std::flush;
  if (!opt.wait) {
    out << "not waiting: when the array has finished, `npusim sweep " << plan.file << " --out "
        << opt.out << " --collect` writes the table\n";
    return 0;
  }
  wait_for_array(job, pending, opt.out, out);
  return 0;
}

}  // namespace

std::string run_dir(const std::string& out, int index) {
  return (fs::path(out) / "runs" / std::to_string(index)).string();
}

RunRecord read_record(const std::string& out, int index) {
  RunRecord r;
  r.status = "missing";
  std::ifstream in(fs::path(run_dir(out, index)) / kRecordFile);
  if (!in) return r;
  try {
    const json j = json::parse(in);
    r.status = j.at("status").get<std::string>();
    r.exit_code = j.at("exit_code").get<int>();
  } catch (const std::exception&) {
    r.status = "missing";
  }
  return r;
}

std::string array_spec(const std::vector<int>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(indices[i]);
    if (j > i) out += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return out;
}

std::string format_duration(double seconds) {
  char buf[64];
  if (seconds < 60) {
    std::snprintf(buf, sizeof(buf), "%.1f s", std::max(0.0, seconds));
    return buf;
  }
  const long s = std::lround(seconds);
  if (s < 3600) {
    std::snprintf(buf, sizeof(buf), "%ld:%02ld", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  }
  return buf;
}

std::string eta_text(std::size_t done, std::size_t total, double elapsed_s) {
  std::string s = "elapsed " + format_duration(elapsed_s);
  if (done == 0 || done > total) return s;
  const double per_run = elapsed_s / static_cast<double>(done);
  return s + ", ETA " + format_duration(per_run * static_cast<double>(total - done));
}

int run_sweep(const Plan& plan, const Options& opt, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(opt.out, ec);
  if (ec) {
    err << "npusim sweep: cannot create " << opt.out << ": " << ec.message() << "\n";
    return 2;
  }
  const fs::path plan_file = fs::path(opt.out) / kPlanFile;
  json fresh = plan_json(plan, opt.npusim);
  if (fs::exists(plan_file)) {
    // Resuming: the directory must hold this very sweep (the same runs with the same arguments).
    json old;
    try {
      std::ifstream in(plan_file);
      old = json::parse(in);
    } catch (const std::exception& e) {
      err << "npusim sweep: " << plan_file.string() << " is unreadable (" << e.what()
          << "); choose another --out\n";
      return 2;
    }
    if (old.value("runs", json()) != fresh["runs"]) {
      err << "npusim sweep: " << opt.out << " holds a different sweep (" << old.value("sweep_file", "?")
          << ", its runs differ from this file's); choose another --out, or delete it\n";
      return 2;
    }
  }
  if (!write_atomically(plan_file, fresh.dump(2) + "\n") ||
      !write_atomically(fs::path(opt.out) / "sweep.yaml", plan.text)) {
    err << "npusim sweep: cannot write into " << opt.out << "\n";
    return 2;
  }
  std::vector<int> pending;
  for (const Run& r : plan.runs) {
    if (opt.rerun || read_record(opt.out, r.index).status != "ok") pending.push_back(r.index);
  }
  out << "sweep " << plan.name << ": " << plan.runs.size() << " runs, " << pending.size()
      << " to run (" << plan.runs.size() - pending.size() << " already finished), outputs in "
      << opt.out << "\n" << std::flush;
  const auto start = std::chrono::steady_clock::now();
  if (!pending.empty()) {
    const int rc = opt.slurm ? run_slurm(plan, opt, pending, out, err)
                             : run_local(plan, opt, pending, out, err);
    if (rc == 2) return 2;
    if (opt.slurm && !opt.wait) return 0;
  }
  return collect(plan, opt.out, out, Ran{pending.size(), seconds_since(start)});
}

int run_task(const std::string& out, int index, std::ostream& err) {
  json plan;
  try {
    std::ifstream in(fs::path(out) / kPlanFile);
    if (!in) throw std::runtime_error("cannot read it");
    plan = json::parse(in);
  } catch (const std::exception& e) {
    err << "npusim sweep-task: " << (fs::path(out) / kPlanFile).string() << ": " << e.what() << "\n";
    return 2;
  }
  const json& runs = plan.at("runs");
  if (index < 0 || static_cast<std::size_t>(index) >= runs.size()) {
    err << "npusim sweep-task: run " << index << " is not in the plan (" << runs.size() << " runs)\n";
    return 2;
  }
  Run run;
  run.index = index;
  for (const auto& kv : runs[static_cast<std::size_t>(index)].at("values")) {
    run.values.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
  }
  run.args = runs[static_cast<std::size_t>(index)].at("args").get<std::vector<std::string>>();
  std::string why;
  const fs::path dir = run_dir(out, index);
  const pid_t pid = spawn(plan.at("npusim").get<std::string>(), run.args, dir,
                          plan.at("workdir").get<std::string>(), plan.value("timeout_s", 0.0), why);
  if (pid < 0) {
    err << "npusim sweep-task: run " << index << ": " << why << "\n";
    return 2;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const RunRecord rec = record_of(status);
  write_record(dir, run, rec);
  return rec.exit_code;
}

}  // namespace npusim::sweep
