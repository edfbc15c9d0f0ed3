// SPDX-License-Identifier: Apache-2.0
// npusim — the command line.
//   npusim run [--config X] [--set k=v]... [--out DIR] [--stats full] -- ./program args...
//       runs any program built against the install tree on the simulated chip
//   npusim info [--config X] [--set k=v]... [--soc | --reference | --effective]
//       prints the effective chip configuration and a reference of every key
//   npusim replay TRACE [--config X] [--set k=v]... [--out DIR] [--sync-per-op] [--repeat N]
//                 [--strict] [--param k=v]... [--dump DIR] [--skip-op TYPE]...
//       runs a workload trace (YAML op graph or msprof op_summary CSV) in this process through
//       the aclnn operators (tools/replay/runner.h; format: traces/README.md)
//   npusim report DIR [-o FILE.html] [--title T] [--png-dir DIR]
//       a self-contained HTML page with plots of a run's or a sweep's outputs: runs
//       tools/report/npusim_report.py (installed in share/npusim/) with Python 3 and matplotlib
//   npusim check TARGETS.yaml RUN_DIR [--junit FILE] [--update [--tolerance T]]
//       checks a run's outputs against performance targets (tools/check/check.h; docs/check.md)
//   npusim compare RUN_A RUN_B [--csv FILE] [--unfold]
//       per-metric and per-op deltas between two runs' outputs
//   npusim sweep SWEEP.yaml --out DIR [-j N | --slurm [--sbatch OPT]...] [--collect] [--rerun]
//       one workload over a grid of configurations, on a local pool or a Slurm job array
//       (tools/sweep/sweep.h; docs/sweep.md); `npusim sweep-task DIR I` is one array task
//   npusim serve --session ID
//       the server of a session of several processes (runtime/session/session.h; started on
//       demand by the first process; docs/multiprocess.md)
//   npusim merge -o OUT DIR...
//       one timeline.json of several processes' output directories (tools/merge/merge.h)
//   npusim op [simulator] [--application="./app args" | ./app args] [--kernel-name K]
//             [--launch-count N] [--warm-up N] [--output DIR] [--soc-version S] [--config X]
//       msprof's per-kernel profile (tools/opprof/opprof.h); installed also as `msopprof ...`
//       and `msprof op ...` (links to this binary: the name selects the verb)
// Only this file includes CLI11 (it is the most expensive header to compile).
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <climits>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "models/chip_config_loader.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/version.h"
#include "tools/check/check.h"
#include "tools/cli_process.h"
#include "tools/merge/merge.h"
#include "tools/opprof/opprof.h"
#include "tools/replay/runner.h"
#include "runtime/hccl/hub_domains.h"
#include "runtime/session/private_dir.h"
#include "runtime/session/session.h"
#include "tools/sweep/sweep.h"

namespace fs = std::filesystem;
using npusim::models::ChipConfig;
using npusim::cli::prepend_env_path;
using npusim::cli::self_dir;
using npusim::cli::spawn_and_wait;

namespace {

struct ConfigOptions {
  std::string config;
  std::vector<std::string> sets;
  std::string stats;  // run/replay --stats: NPUSIM_STATS (sim/stats.h StatsOutput)
};

/// --stats: which statistics stats.json and stats.txt hold.
void add_stats_option(CLI::App* cmd, ConfigOptions& o) {
  cmd->add_option("--stats", o.stats,
                  "statistics in stats.json and stats.txt: changed (default: zeros folded away) "
                  "or full (every statistic); also $NPUSIM_STATS")
      ->check(CLI::IsMember({"changed", "full"}));
}

void add_config_options(CLI::App* cmd, ConfigOptions& o) {
  cmd->add_option("-c,--config", o.config,
                  "chip preset (ascend910b, ascend310p, tiny) or YAML file; default: $NPUSIM_CONFIG "
                  "or ascend910b");
  cmd->add_option("-s,--set", o.sets, "override one key, e.g. pcie.h2d_bandwidth=16GB/s (repeatable)")
      ->allow_extra_args(false);  // one value per --set: a following positional stays one
}

std::string join_sets(const std::vector<std::string>& sets) {
  std::string out;
  for (const auto& s : sets) out += (out.empty() ? "" : ";") + s;
  return out;
}

/// Load and validate the chosen config; on error print it and return false.
bool load(const ConfigOptions& o, ChipConfig& out) {
  std::string source = o.config;
  std::vector<std::string> overrides;
  if (source.empty()) {
    if (const char* env = std::getenv("NPUSIM_CONFIG")) source = env;
  }
  if (const char* env = std::getenv("NPUSIM_SET")) {
    overrides = npusim::models::split_overrides(env);
  }
  overrides.insert(overrides.end(), o.sets.begin(), o.sets.end());
  try {
    out = npusim::models::load_chip_config(source, overrides);
    return true;
  } catch (const std::exception& e) {
    std::cerr << "npusim: bad configuration: " << e.what() << "\n";
    return false;
  }
}

/// Passes the chosen configuration and output directory to the runtime (which reads them at
/// aclInit, in this process or in the program run).
bool export_env(const ConfigOptions& o, const std::string& out_dir, const char* command) {
  if (!o.config.empty()) setenv("NPUSIM_CONFIG", o.config.c_str(), 1);
  if (!o.stats.empty()) setenv("NPUSIM_STATS", o.stats.c_str(), 1);
  if (!o.sets.empty()) {
    std::string sets = join_sets(o.sets);
    if (const char* old = std::getenv("NPUSIM_SET"); old && *old) sets = std::string(old) + ";" + sets;
    setenv("NPUSIM_SET", sets.c_str(), 1);
  }
  if (!out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << "npusim " << command << ": cannot create output directory " << out_dir << ": "
                << ec.message() << "\n";
      return false;
    }
    setenv("NPUSIM_OUT", fs::absolute(out_dir).c_str(), 1);
  }
  return true;
}

int run_program(const ConfigOptions& o, const std::string& out_dir, std::vector<std::string> argv) {
  ChipConfig cfg;
  if (!load(o, cfg)) return 2;
  if (argv.empty()) {
    std::cerr << "npusim run: no program given (npusim run [options] -- ./program args)\n";
    return 2;
  }
  if (!export_env(o, out_dir, "run")) return 2;
  prepend_env_path("LD_LIBRARY_PATH", self_dir() / ".." / "lib64");

  const int status = spawn_and_wait(argv, "run", "cannot execute " + argv[0], 127);
  if (status < 0) return 2;
  if (const char* out = std::getenv("NPUSIM_OUT")) {
    std::cerr << "npusim: outputs in " << out << " (timeline.json opens in ui.perfetto.dev)\n";
  }
  if (WIFSIGNALED(status)) {
    std::cerr << "npusim run: " << argv[0] << " killed by signal " << WTERMSIG(status) << "\n";
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

int replay(const ConfigOptions& o, npusim::replay::Options r, const std::vector<std::string>& params) {
  ChipConfig cfg;
  if (!load(o, cfg)) return 2;
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "npusim replay: --param " << p << ": expected name=value\n";
      return 2;
    }
    r.params[p.substr(0, eq)] = p.substr(eq + 1);
  }
  r.timing_only = !cfg.aicore.functional;
  if (!export_env(o, r.out_dir, "replay")) return 2;
  if (const char* out = std::getenv("NPUSIM_OUT"); out != nullptr && *out != '\0') r.out_dir = out;
  return npusim::replay::run_replay(r);
}

/// The Python that runs the report script: $NPUSIM_PYTHON, else Debian's /usr/bin/python3 (where
/// python3-matplotlib installs), else python3 on PATH.
std::string report_python() {
  if (const char* env = std::getenv("NPUSIM_PYTHON"); env != nullptr && *env != '\0') return env;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

struct ReportOptions {
  std::string dir, out, title, png_dir;
};

/// npusim_report.py: installed in share/npusim/ beside bin/npusim, or next to the binary in the
/// build tree; "" (reported) when it is in neither.
fs::path find_report_script() {
  std::error_code ec;
  const fs::path candidates[] = {self_dir() / ".." / "share" / "npusim" / "npusim_report.py",
                                 self_dir() / "npusim_report.py"};
  for (const fs::path& c : candidates) {
    if (fs::exists(c, ec)) return c.lexically_normal();
  }
  std::cerr << "npusim report: cannot find npusim_report.py (looked in " << candidates[0].string()
            << " and " << candidates[1].string() << ")\n";
  return {};
}

// `npusim report`'s directory exists (what is in it, the script checks).
bool report_dir_ok(const std::string& dir) {
  std::error_code ec;
  const fs::path d(dir);
  if (!fs::exists(d, ec)) {
    std::cerr << "npusim report: " << dir << ": no such directory\n";
    return false;
  }
  if (fs::is_directory(d, ec)) return true;
  std::cerr << "npusim report: " << dir
            << ": not a directory (give the --out directory of npusim run / replay, an aclprof "
               "PROF_* directory or a sweep directory)\n";
  return false;
}

int report(const ReportOptions& o) {
  const std::string& dir = o.dir;
  if (!report_dir_ok(dir)) return 2;
  const fs::path script = find_report_script();
  if (script.empty()) return 2;
  const std::string python = report_python();
  std::vector<std::string> argv = {python, script.string(), dir};
  if (!o.out.empty()) argv.insert(argv.end(), {"-o", o.out});
  if (!o.title.empty()) argv.insert(argv.end(), {"--title", o.title});
  if (!o.png_dir.empty()) argv.insert(argv.end(), {"--png-dir", o.png_dir});
  const int status = spawn_and_wait(
      argv, "report",
      "cannot run Python 3 (" + python + ") [install python3 and python3-matplotlib, or set NPUSIM_PYTHON]",
      2);
  if (status < 0) return 2;
  if (WIFSIGNALED(status)) {
    std::cerr << "npusim report: " << python << " killed by signal " << WTERMSIG(status) << "\n";
    return 2;
  }
  return WEXITSTATUS(status);
}

int info(const ConfigOptions& o, bool soc, bool ref_only, bool effective_only) {
  ChipConfig cfg;
  if (!load(o, cfg)) return 2;
  if (soc) {
    std::cout << cfg.soc.name << "\n";
    return 0;
  }
  if (!ref_only) std::cout << "# Effective configuration\n" << npusim::sim::dump_yaml(cfg) << "\n";
  if (!effective_only) {
    ChipConfig defaults;
    std::cout << "# Reference: every key (type/unit, default, description)\n"
              << npusim::sim::reference(defaults);
  }
  return 0;
}

// A sweep's chip configuration (and --set overrides) loads: the error text, or empty.
std::string chip_config_error(const std::string& config, const std::vector<std::string>& sets) {
  try {
    npusim::models::load_chip_config(config, sets);
    return std::string();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

// `npusim sweep --dry-run`: each run's index and arguments, a line each.
void print_runs(const npusim::sweep::Plan& plan) {
  for (const npusim::sweep::Run& r : plan.runs) {
    std::cout << r.index;
    for (const auto& a : r.args) std::cout << " " << a;
    std::cout << "\n";
  }
}

int sweep(const std::string& file, npusim::sweep::Options opt, bool dry_run, bool collect_only) {
  namespace sw = npusim::sweep;
  sw::Plan plan;
  try {
    plan = sw::load_plan(file, chip_config_error);
  } catch (const std::exception& e) {
    std::cerr << "npusim sweep: " << e.what() << "\n";
    return 2;
  }
  if (dry_run) {
    print_runs(plan);
    return 0;
  }
  if (opt.out.empty()) {
    std::cerr << "npusim sweep: --out DIR is required (the runs and the table go there)\n";
    return 2;
  }
  if (collect_only) return sw::collect(plan, opt.out, std::cout);
  opt.npusim = (self_dir() / "npusim").string();
  return sw::run_sweep(plan, opt, std::cout, std::cerr);
}

/// `npusim merge`: inputs are output directories (named by the directory) or timeline.json
/// files (named by their directory).
int merge(const std::string& merge_out, const std::vector<std::string>& merge_dirs) {
  std::vector<npusim::tools::MergeInput> inputs;
  for (const std::string& d : merge_dirs) {
    std::filesystem::path p(d);
    if (std::filesystem::is_directory(p)) {
      inputs.push_back({p.filename().empty() ? p.parent_path().filename().string()
                                             : p.filename().string(),
                        (p / "timeline.json").string()});
    } else {
      inputs.push_back({p.parent_path().filename().string(), p.string()});
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(merge_out, ec);
  const std::string error =
      npusim::tools::merge_timelines(inputs, (std::filesystem::path(merge_out) / "timeline.json").string());
  if (!error.empty()) {
    std::cerr << "npusim merge: " << error << "\n";
    return 2;
  }
  std::cout << "npusim merge: " << inputs.size() << " timelines -> " << merge_out
            << "/timeline.json\n";
  return 0;
}

/// `npusim serve`: the server of a session of several processes.
int serve(const std::string& serve_session) {
    namespace remote = npusim::rt::remote;
    if (!remote::valid_session(serve_session)) {
      std::cerr << "npusim serve: '" << serve_session << "' is not a session id ([A-Za-z0-9._-], 1..64)\n";
      return 2;
    }
    std::string dir_error;
    if (!remote::ensure_private_dir(remote::session_dir(), geteuid(), dir_error)) {
      std::cerr << "npusim serve: " << dir_error << "\n";
      return 2;
    }
    npusim::hccl::register_hub_domains();  // HCCL domains across processes (issue 22)
    try {
      remote::Server server(remote::socket_path(serve_session));
      return server.run();
    } catch (const std::exception& e) {
      std::cerr << "npusim serve: " << e.what() << "\n";
      return 2;
    }
}

// ---- the subcommands' options ----
// Each add_* declares one subcommand and its options (held by the returned runner, which CLI11
// fills while parsing) and returns what runs it when it is the one given.

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_run(CLI::App& app) {
  struct Args {
    ConfigOptions config;
    std::string out_dir;
    std::vector<std::string> program;
  };
  auto a = std::make_shared<Args>();
  CLI::App* run = app.add_subcommand("run", "run a program built against npusim on the simulated chip");
  add_config_options(run, a->config);
  run->add_option("-o,--out", a->out_dir,
                  "write timeline.json, stats.json, stats.txt, op_summary.csv and config.yaml here");
  add_stats_option(run, a->config);
  run->add_option("program", a->program, "the program and its arguments (after --)")->required();
  return {run, [a] { return run_program(a->config, a->out_dir, a->program); }};
}

Command add_info(CLI::App& app) {
  struct Args {
    ConfigOptions config;
    bool soc = false, ref_only = false, effective_only = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* inf = app.add_subcommand("info", "print the effective chip config and the key reference");
  add_config_options(inf, a->config);
  inf->add_flag("--soc", a->soc, "print only the SoC name (what aclrtGetSocName returns)");
  inf->add_flag("--reference", a->ref_only, "print only the key reference");
  inf->add_flag("--effective", a->effective_only, "print only the effective configuration");
  return {inf, [a] { return info(a->config, a->soc, a->ref_only, a->effective_only); }};
}

Command add_replay(CLI::App& app) {
  struct Args {
    ConfigOptions config;
    npusim::replay::Options replay;
    std::vector<std::string> params;
  };
  auto a = std::make_shared<Args>();
  npusim::replay::Options& r = a->replay;
  CLI::App* rep = app.add_subcommand(
      "replay", "run a workload trace (YAML op graph or msprof op_summary CSV) through aclnn");
  add_config_options(rep, a->config);
  rep->add_option("trace", r.trace, "traces/X.yaml, or an msprof op_summary CSV")->required();
  rep->add_option("-o,--out", r.out_dir,
                  "write timeline.json, stats.json, stats.txt, op_summary.csv, config.yaml and "
                  "replay_summary.json here");
  add_stats_option(rep, a->config);
  rep->add_flag("--sync-per-op", r.sync_per_op,
                "synchronize each op's stream after it (default: asynchronous, events between "
                "streams)");
  rep->add_option("--repeat", r.repeat, "run the trace N times (default 1)");
  rep->add_flag("--strict", r.strict,
                "fail (exit 2) before running when an op type cannot be replayed (default: "
                "report it by name and skip it)");
  rep->add_option("-p,--param", a->params, "override a trace parameter, e.g. layers=2")
      ->allow_extra_args(false);
  rep->add_option("--dump", r.dump_dir, "write role-output tensors as raw .bin files");
  rep->add_option("--skip-op", r.skip_ops,
                  "do not run ops of this type (what-if runs; reported like missing operators)")
      ->allow_extra_args(false);
  return {rep, [a] { return replay(a->config, a->replay, a->params); }};
}

Command add_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* rpt = app.add_subcommand(
      "report", "a self-contained HTML page with plots of a run's or a sweep's outputs");
  rpt->add_option("dir", o->dir,
                  "the --out directory of npusim run / replay, or a sweep directory (sweep.csv)")
      ->required();
  rpt->add_option("-o,--output", o->out, "the HTML file (default: DIR/report.html)");
  rpt->add_option("--title", o->title, "the page title (default: the directory name)");
  rpt->add_option("--png-dir", o->png_dir,
                  "also write every plot as PNG_DIR/<plot id>.png (for documents)");
  return {rpt, [o] { return report(*o); }};
}

Command add_check(CLI::App& app) {
  struct Args {
    std::string targets, run, junit, tolerance;
    bool update = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* chk = app.add_subcommand(
      "check", "check a run's outputs against performance targets (exit 0 pass, 1 fail, 2 error)");
  chk->add_option("targets", a->targets, "targets file (YAML; see docs/check.md)")->required();
  chk->add_option("run_dir", a->run, "the --out directory of npusim run / npusim replay")
      ->required();
  chk->add_option("--junit", a->junit, "also write the results as JUnit XML to this file");
  CLI::Option* update = chk->add_flag(
      "--update", a->update,
      "write the targets file from this run instead of checking (expected = the run's values)");
  chk->add_option("--tolerance", a->tolerance,
                  std::string("with --update: every target's tolerance (5%, 0.05, abs:10; a new "
                              "file's default: ") + npusim::check::kDefaultTolerance +
                      ", an existing file's: kept)")
      ->needs(update);
  return {chk, [a] {
            if (a->update) {
              return npusim::check::run_update(a->targets, a->run, a->tolerance, std::cout,
                                               std::cerr);
            }
            return npusim::check::run_check(a->targets, a->run, a->junit, std::cout, std::cerr);
          }};
}

Command add_compare(CLI::App& app) {
  struct Args {
    std::string a, b, csv;
    bool unfold = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmp = app.add_subcommand("compare", "per-metric and per-op deltas between two runs");
  cmp->add_option("run_a", a->a, "the --out directory of the first run (A)")->required();
  cmp->add_option("run_b", a->b, "the --out directory of the second run (B)")->required();
  cmp->add_option("--csv", a->csv, "also write the deltas as CSV to this file");
  cmp->add_flag("--unfold", a->unfold,
                "one line per per-core (per-channel, per-stream) statistic, not one per unit");
  return {cmp, [a] {
            return npusim::check::run_compare(a->a, a->b, a->csv, std::cout, std::cerr,
                                              !a->unfold);
          }};
}

Command add_sweep(CLI::App& app) {
  struct Args {
    std::string file;
    npusim::sweep::Options opts;
    bool dry = false, collect = false, no_wait = false;
  };
  auto a = std::make_shared<Args>();
  npusim::sweep::Options& o = a->opts;
  o.jobs = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  CLI::App* swp = app.add_subcommand(
      "sweep", "run one workload over a grid of configurations (local pool or Slurm job array)");
  swp->add_option("sweep_file", a->file, "the sweep file (YAML; see docs/sweep.md)")->required();
  swp->add_option("-o,--out", o.out, "output directory: runs/<i>/, sweep.csv, sweep_meta.json");
  swp->add_option("-j,--jobs", o.jobs, "runs at a time on the local pool (default: cores)")
      ->check(CLI::PositiveNumber);
  swp->add_flag("--slurm", o.slurm, "submit the pending runs as one Slurm job array (sbatch --array)");
  swp->add_option("--sbatch", o.sbatch, "an extra sbatch option, e.g. --sbatch=--partition=x (repeatable)")
      ->allow_extra_args(false);
  swp->add_option("--slurm-parallel", o.slurm_parallel, "at most N array tasks at a time (--array=...%N)");
  swp->add_flag("--no-wait", a->no_wait, "Slurm: submit and return (collect later with --collect)");
  swp->add_flag("--collect", a->collect, "run nothing: write the table from the runs finished so far");
  swp->add_flag("--rerun", o.rerun, "run every run again, finished or not");
  swp->add_flag("--dry-run", a->dry, "print each run's npusim arguments and stop");
  return {swp, [a] {
            a->opts.wait = !a->no_wait;
            return sweep(a->file, a->opts, a->dry, a->collect);
          }};
}

Command add_sweep_task(CLI::App& app) {
  struct Args {
    std::string dir;
    int index = -1;
  };
  auto a = std::make_shared<Args>();
  CLI::App* task = app.add_subcommand("sweep-task", "one run of a sweep (what a Slurm array task executes)");
  task->group("");  // internal: not in --help
  task->add_option("dir", a->dir, "the sweep's --out directory")->required();
  task->add_option("index", a->index, "the run index ($SLURM_ARRAY_TASK_ID)")->required();
  return {task, [a] { return npusim::sweep::run_task(a->dir, a->index, std::cerr); }};
}

Command add_serve(CLI::App& app) {
  auto serve_session = std::make_shared<std::string>();
  CLI::App* srv = app.add_subcommand(
      "serve", "the simulation server of a session (several processes, one simulated machine)");
  srv->add_option("--session", *serve_session, "the session id (what NPUSIM_SESSION says)")->required();
  return {srv, [serve_session] { return serve(*serve_session); }};
}

Command add_merge(CLI::App& app) {
  struct Args {
    std::string out;
    std::vector<std::string> dirs;
  };
  auto a = std::make_shared<Args>();
  CLI::App* mrg = app.add_subcommand(
      "merge", "one timeline of several processes of a session (their output directories)");
  mrg->add_option("-o,--out", a->out, "write the merged timeline.json here")->required();
  mrg->add_option("dirs", a->dirs, "output directories (or timeline.json files), in order")
      ->required();
  return {mrg, [a] { return merge(a->out, a->dirs); }};
}

/// NPUSIM_LOG is read at a process's first message: read it now, so that a bad value is reported
/// (naming the valid levels) even by a command that logs nothing; then it is replaced by the
/// level used, so that the runtime library (its own copy of the logger) and the runs a sweep
/// starts do not report it again: once per command.
void check_log_env() {
  const char* env = std::getenv("NPUSIM_LOG");
  npusim::sim::LogLevel level = npusim::sim::LogLevel::kWarn;
  if (env == nullptr || *env == '\0' || npusim::sim::parse_log_level(env, level)) return;
  npusim::sim::log_level();  // reports it
  setenv("NPUSIM_LOG", "warn", 1);
}


// ---- npusim op / msopprof / msprof op ----

struct OpArgs {
  ConfigOptions config;
  std::string application, soc;
  npusim::opprof::Options opts;
};

int run_op(OpArgs& a, const std::vector<std::string>& trailing, bool simulator) {
  const char* tool = "msopprof";
  npusim::opprof::Options& o = a.opts;
  o.simulator = simulator;
  std::string error;
  if (!a.application.empty()) {
    if (!trailing.empty()) {
      std::cerr << tool << ": give the program either with --application or after the options, "
                << "not both\n";
      return 2;
    }
    if (!npusim::opprof::split_command(a.application, o.program, error)) {
      std::cerr << tool << ": " << error << "\n";
      return 2;
    }
  } else {
    o.program = trailing;
  }
  if (o.program.empty()) {
    std::cerr << tool << ": no program given (msopprof [options] ./app args, or "
              << "--application=\"./app args\")\n";
    return 2;
  }
  if (!a.soc.empty()) {
    std::string preset;
    if (!npusim::opprof::preset_of_soc(a.soc, preset, error)) {
      std::cerr << tool << ": " << error << "\n";
      return 2;
    }
    if (a.config.config.empty()) a.config.config = preset;
  }
  ChipConfig cfg;
  if (!load(a.config, cfg)) return 2;
  if (!export_env(a.config, "", tool)) return 2;
  const std::string name =
      npusim::opprof::run_dir_name(static_cast<std::int64_t>(std::time(nullptr)), getpid());
  const fs::path run_dir = fs::absolute(fs::path(o.output) / name);
  const fs::path data_dir = run_dir / (simulator ? "simulator" : "dump");
  std::error_code ec;
  fs::create_directories(data_dir, ec);
  if (ec) {
    std::cerr << tool << ": cannot create " << data_dir.string() << ": " << ec.message() << "\n";
    return 2;
  }
  if (simulator) {
    setenv("NPUSIM_OP_SIMULATOR_DIR", data_dir.c_str(), 1);
    if (!o.kernel_name.empty()) setenv("NPUSIM_OP_KERNEL_NAME", o.kernel_name.c_str(), 1);
    setenv("NPUSIM_OP_LAUNCH_COUNT", std::to_string(o.launch_count).c_str(), 1);
  } else {
    setenv("NPUSIM_OP_PROFILE_DIR", data_dir.c_str(), 1);
  }
  prepend_env_path("LD_LIBRARY_PATH", self_dir() / ".." / "lib64");
  const int status = spawn_and_wait(o.program, "op", "cannot execute " + o.program[0], 127);
  if (status < 0) return 2;
  if (WIFSIGNALED(status)) {
    std::cerr << tool << ": " << o.program[0] << " killed by signal " << WTERMSIG(status) << "\n";
    return 128 + WTERMSIG(status);
  }
  const int rc = simulator ? 0 : npusim::opprof::write_run(run_dir.string(), o, std::cerr);
  if (simulator) std::cerr << tool << ": simulator data in " << data_dir.string() << "\n";
  return WEXITSTATUS(status) != 0 ? WEXITSTATUS(status) : rc;
}

void add_op_options(CLI::App* cmd, OpArgs& a) {
  add_config_options(cmd, a.config);
  cmd->add_option("--application", a.application, "the program and its arguments, one string");
  cmd->add_option("--kernel-name", a.opts.kernel_name,
                  "kernels to collect: a glob (* ?) or a name prefix; default: any");
  cmd->add_option("--launch-count", a.opts.launch_count,
                  "how many matching launches to collect, in launch order (default 1)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--warm-up", a.opts.warm_up,
                  "accepted for msprof compatibility: simulated launches do not vary, so warm-up "
                  "runs change nothing")
      ->check(CLI::Range(0, 500));
  cmd->add_option("--output", a.opts.output, "where OPPROF_<time>_<tag>/ is made (default: .)");
  cmd->add_option("--soc-version", a.soc,
                  "the SoC to simulate (Ascend910B1..4 -> ascend910b); --config overrides");
  cmd->prefix_command();  // the first positional starts the program: its options stay its own
}

Command add_op(CLI::App& app) {
  auto a = std::make_shared<OpArgs>();
  auto s = std::make_shared<OpArgs>();
  CLI::App* op = app.add_subcommand(
      "op", "msprof op / msopprof: per-kernel profile files (OpBasicInfo.csv, PipeUtilization.csv ...)");
  add_op_options(op, *a);
  CLI::App* sim = op->add_subcommand(
      "simulator", "msopprof simulator: the instruction view, written by the runtime into "
                   "OPPROF_.../simulator/");
  add_op_options(sim, *s);
  return {op, [a, s, op, sim] {
            if (*sim) return run_op(*s, sim->remaining(), true);
            return run_op(*a, op->remaining(), false);
          }};
}

/// msopprof ARGS = npusim op ARGS; msprof op ARGS = npusim op ARGS (msprof alone: an error).
bool tool_alias(int argc, char** argv, std::vector<std::string>& args) {
  const std::string self = fs::path(argv[0]).filename().string();
  if (self != "msopprof" && self != "msprof") return false;
  args.assign(argv, argv + argc);
  if (self == "msopprof") {
    args.insert(args.begin() + 1, "op");
  } else if (argc < 2 || std::string(argv[1]) != "op") {
    std::cerr << "msprof: only `msprof op` (per-kernel profiles) is provided; application "
                 "profiling is NPUSIM_OUT or aclprof (docs/outputs.md)\n";
    args.clear();
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"npusim: a cycle-approximate Ascend-class NPU simulator behind the CANN ACL runtime"};
  app.set_version_flag("--version", "npusim " + npusim::sim::version_string());
  app.require_subcommand(1);
  std::vector<std::string> alias;
  if (tool_alias(argc, argv, alias)) {
    if (alias.empty()) return 2;
    app.name(alias[0]);
  }
  // In --help order.
  const std::vector<Command> commands = {
      add_run(app),    add_info(app),  add_replay(app),     add_report(app), add_check(app),
      add_compare(app), add_sweep(app), add_sweep_task(app), add_serve(app),  add_merge(app),
      add_op(app)};
  if (!alias.empty()) {
    std::vector<std::string> rest(alias.rbegin(), alias.rend() - 1);  // CLI11 takes them reversed
    try {
      app.parse(rest);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
  } else {
    CLI11_PARSE(app, argc, argv);
  }
  check_log_env();
  for (const Command& c : commands) {
    if (*c.app) return c.run();
  }
  return 2;  // not reached: exactly one subcommand is required
}
