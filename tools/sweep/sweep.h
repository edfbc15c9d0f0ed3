// SPDX-License-Identifier: Apache-2.0
// `npusim sweep`: one workload over many configurations (format and behaviour: docs/sweep.md).
//
//   A sweep file (YAML) names the workload (a trace for `npusim replay`, or a program for
//   `npusim run`), the base preset, fixed overrides, and the swept parameters: a `grid` (every
//   combination) and/or a list of explicit `runs`. It expands into a Plan: run i = one child
//   `npusim replay|run --config C --set k=v ... --out DIR/runs/i`. Each run ends with
//   DIR/runs/i/run.json (status, exit code); a run whose run.json says "ok" is finished and is
//   skipped when the sweep is started again (resuming). Runs execute on a local process pool
//   (-j N) or as one Slurm job array (one array task per pending run, `npusim sweep-task`).
//   Afterwards the table DIR/sweep.csv collects, per run, the swept values, the status and
//   the metrics (the metric specs of docs/check.md, read by npusim::check::RunOutputs; each
//   column's header and sweep_meta.json carry its unit). Progress lines give an ETA; a summary
//   line closes the sweep (table.cpp).
//
// Plain C++ (yaml-cpp, nlohmann-json, POSIX fork/exec): no simulator. Config validation is
// injected (Validator) so that this library does not depend on the chip model; tests in
// tests/tools (sweep_test.cpp, sweep.sh, sweep_slurm.sh).
#ifndef NPUSIM_TOOLS_SWEEP_SWEEP_H_
#define NPUSIM_TOOLS_SWEEP_SWEEP_H_

#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tools/check/check.h"

namespace npusim::sweep {

/// A malformed sweep file or plan: the message names the file, the line, the key and the reason.
class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The most runs one sweep may have (the grid's combinations plus the explicit runs); a larger
/// grid is refused (SweepError with its count) before it is expanded.
constexpr std::size_t kMaxRuns = 100000;

/// One swept value of one run: `config` (the preset), `param.NAME` (a trace parameter, replay
/// only) or a config key (an override, `--set key=value`).
using Assignment = std::pair<std::string, std::string>;

struct Run {
  int index = 0;
  std::vector<Assignment> values;  // one per Plan::params, in that order
  std::vector<std::string> args;   // the npusim arguments after the executable (replay|run ...)
};

struct Plan {
  std::string file;         // the sweep file (as given)
  std::string text;         // its contents (copied into the output directory)
  std::string name;         // `name:` or the file's stem
  std::string description;
  bool replay = true;       // replay a trace, or run a program
  std::string workdir;      // absolute: the runs' working directory
  double timeout_s = 0;     // wall-clock limit of one run (0: none); a safety net, not a metric
  std::vector<std::string> params;                     // the swept keys, table order
  std::vector<std::pair<std::string, check::Metric>> metrics;  // table columns after status
  std::vector<Run> runs;
};

/// Checks one run's configuration (preset + overrides); returns "" or the reason it is bad.
using Validator =
    std::function<std::string(const std::string& config, const std::vector<std::string>& sets)>;

/// Parses and expands a sweep file. Relative paths in it (the trace, the program, `workdir`) are
/// relative to the file's directory. `validate` (optional) is called for every run.
/// Throws SweepError.
Plan load_plan(const std::string& file, const Validator& validate = {});
Plan parse_plan(const std::string& text, const std::string& file, const std::string& base_dir,
                const Validator& validate = {});

/// The `--out` directory's layout.
std::string run_dir(const std::string& out, int index);

/// A finished run's record (run.json).
struct RunRecord {
  std::string status;  // ok, failed, killed, timeout, missing (never ran / no record)
  int exit_code = -1;  // the program's exit code; 128 + signal when killed
};
RunRecord read_record(const std::string& out, int index);

struct Options {
  std::string out;                  // output directory
  int jobs = 1;                     // local pool size
  std::string npusim;               // the npusim executable the runs use (absolute)
  bool slurm = false;               // submit a Slurm job array instead of the local pool
  std::vector<std::string> sbatch;  // extra sbatch options (e.g. --partition=x)
  int slurm_parallel = 0;           // array throttle (%N), 0: none
  bool wait = true;                 // Slurm: wait for the array and collect
  bool rerun = false;               // run every run again, finished or not
};

/// Writes the plan into `opt.out` (refusing a directory that holds a different sweep), runs the
/// pending runs, collects the table. Returns the exit code: 0 every run ok, 1 a run failed,
/// 2 an error (bad output directory, sbatch failure). Progress to `out`, errors to `err`.
int run_sweep(const Plan& plan, const Options& opt, std::ostream& out, std::ostream& err);

/// `npusim sweep-task OUT INDEX`: executes one run of the plan stored in OUT (a Slurm array
/// task). Returns the run's exit code (2 if the plan or index is bad).
int run_task(const std::string& out, int index, std::ostream& err);

/// How many runs this invocation ran and how long they took (host wall time), for the summary.
struct Ran {
  std::size_t runs = 0;
  double seconds = -1;  // < 0: nothing ran (--collect)
};

/// Writes OUT/sweep.csv and OUT/sweep_meta.json from the runs' records and outputs (a metric's
/// column header and its sweep_meta.json entry carry its unit); prints the summary line (runs ok
/// and failed, the time taken, where the results are). Returns 0 every run ok, 1 otherwise.
int collect(const Plan& plan, const std::string& out, std::ostream& log, const Ran& ran = {});

/// A metric column's header: "latency (us)".
std::string metric_header(const std::string& name, const std::string& unit);

/// A host wall-clock duration for progress lines: "4.2 s", "1:05", "1:02:03".
std::string format_duration(double seconds);
/// "elapsed 4.2 s, ETA 12.6 s": the ETA is the mean time per finished run (elapsed / done, so
/// the pool's parallelism counts) times the runs left. Host wall time: it is about the wait.
std::string eta_text(std::size_t done, std::size_t total, double elapsed_s);

/// The Slurm array spec of run indices: "0-3,7,9-10".
std::string array_spec(const std::vector<int>& indices);

/// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);

}  // namespace npusim::sweep

#endif  // NPUSIM_TOOLS_SWEEP_SWEEP_H_
