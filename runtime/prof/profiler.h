// SPDX-License-Identifier: Apache-2.0
// The profiling API's state (acl_prof.h, mstx/ms_tools_ext.h): the aclprof session and the
// markers and ranges programs record. All in simulated time: a record's times are the calling
// thread's host clock at the calls that opened and closed it.
//
// Where records go:
//  - the host track of the timeline (Backend::trace_host, thread = host thread index): a marker
//    is a zero-length span named by its message, a range a span from start to end;
//  - msprof_tx.csv in the run's output directory (NPUSIM_OUT), every record of the run, written
//    with the other outputs at aclFinalize (or exit);
//  - aclprofStop of a session started under aclprofInit(path): msprof's layout, self-contained
//    (the run needs no output directory: the session records its own timeline), with <s> the
//    session's number (000001, 000002...) where msprof has wall-clock timestamps, so runs are
//    reproducible:
//      <path>/PROF_<s>_npusim/device_<n>/info.json   per profiled device: id, SoC, NPU
//                                                    architecture, AI Core frequency and cores
//      <path>/PROF_<s>_npusim/mindstudio_profiler_output/
//        msprof_<s>.json         the timeline (the whole run's when it has an output directory,
//                                else from aclprofStart on)
//        op_summary_<s>.csv      one row per kernel task started in the session
//                                (models/aicore/op_summary.h)
//        op_statistic_<s>.csv    per OP Type and Core Type: count and times (op_summary.h)
//        api_statistic_<s>.csv   per host API: count and times (msprof_summaries.h)
//        task_time_<s>.csv       one row per device task (msprof_summaries.h)
//        msprof_tx_<s>.csv       the markers and ranges that started within the session
//        README.txt              what each file holds
//    Without a backend that records (FakeBackend) only device_<n>/, msprof_tx and the README.
//
// Caller holds the API lock for every member.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/backend.h"
#include "runtime/core/handle_table.h"

namespace npusim::rt {

struct ProfConfig {
  std::vector<std::uint32_t> devices;
  int aicore_metrics = 0;
  std::uint64_t data_types = 0;
};

struct ProfStamp {
  std::string message;
};

struct ProfStepInfo {
  bool started = false;
};

/// A model subscription's settings (aclprofCreateSubscribeConfig).
struct ProfSubscribeConfig {
  int time_info = 1;
  int aicore_metrics = 0;
  int fd = -1;  // where the op records of subscribed models are written
};

/// One operator record of a subscribed model, as written to the subscriber's fd and read by the
/// aclprofGetOp* functions (aclprofGetOpDescSize = its size). npusim's own layout.
struct OpDescRecord {
  std::uint32_t magic;  // kOpDescMagic
  std::uint32_t model_id;
  std::uint64_t start_ns;  // simulated time
  std::uint64_t end_ns;
  char type[65];   // ACL_PROF_MAX_OP_TYPE_LEN, NUL-terminated
  char name[257];  // ACL_PROF_MAX_OP_NAME_LEN, NUL-terminated
};
constexpr std::uint32_t kOpDescMagic = 0x4F504453;  // "OPDS"

struct ProfDomain {
  std::string name;
};

/// One marker or range.
struct TxRecord {
  std::string kind;    // "marker", "push_pop", "start_end"
  std::string domain;  // "default" or the mstx domain's name
  std::string message;
  std::uint32_t thread = 0;
  SimTime start = 0;
  SimTime end = 0;
  bool open = false;   // a range not closed yet
};

class Profiler {
 public:
  // ---- aclprof session ----
  bool initialized() const { return initialized_; }
  bool started() const { return started_config_ != nullptr; }
  HandleTable<ProfConfig>& configs() { return configs_; }
  HandleTable<ProfStamp>& stamps() { return stamps_; }
  HandleTable<ProfStepInfo>& steps() { return steps_; }
  HandleTable<ProfDomain>& domains() { return domains_; }
  HandleTable<ProfSubscribeConfig>& subscribe_configs() { return subscribe_configs_; }
  /// Model id → device (MsprofSetDeviceIdByGeModelIdx).
  std::map<std::uint32_t, std::uint32_t>& model_devices() { return model_devices_; }
  /// Subscribed model id → the fd its records go to. Only aclmdl models would produce records
  /// and npusim executes none (aclmdlExecute is not supported), so a subscription delivers no
  /// records; aclprofModelUnSubscribe closes the fd (the reader sees end of file).
  std::map<std::uint32_t, int>& subscriptions() { return subscriptions_; }

  void init(std::string path);
  void finalize() { initialized_ = false; }
  /// Starts a session (backend.start_profiling()).
  void start(Backend& backend, const void* config, SimTime at);
  /// Ends the session; writes its files (see the file comment) after backend.write_outputs().
  void stop(Backend& backend);
  const void* started_config() const { return started_config_; }
  std::map<int, std::string>& settings() { return settings_; }
  /// The session's files but msprof_tx (see the file comment) into `root`, PROF_<s>_npusim.
  void write_session(Backend& backend, const std::string& root, const std::string& stamp,
                     const std::vector<std::uint32_t>& devices) const;
  const std::string& path() const { return path_; }
  int sessions() const { return sessions_; }

  // ---- Records ----
  /// A marker at `at` (recorded and traced at once).
  void mark(Backend& backend, std::uint32_t thread, std::string domain, std::string message,
            SimTime at);
  /// Opens a range; returns its index (for close_range).
  std::size_t open_range(std::string kind, std::uint32_t thread, std::string domain,
                         std::string message, SimTime at);
  void close_range(Backend& backend, std::size_t index, SimTime at);
  const std::vector<TxRecord>& records() const { return records_; }

  /// aclprofPush/Pop's per-thread stacks of open ranges.
  std::map<std::uint32_t, std::vector<std::size_t>>& push_stacks() { return push_stacks_; }
  /// Range ids (aclprofRangeStart / mstxRangeStartA) → record index; ids start at 1.
  std::uint64_t next_range_id() { return ++last_range_id_; }
  std::map<std::uint64_t, std::size_t>& ranges() { return ranges_; }

  /// msprof_tx.csv: the closed records that started at or after `from`.
  std::string tx_csv(SimTime from) const;
  /// Writes msprof_tx.csv into the backend's output directory (if it has one).
  void write_outputs(Backend& backend) const;
  /// aclFinalize: forgets everything (sessions, handles, records).
  void reset();

 private:
  bool initialized_ = false;
  std::string path_;
  const void* started_config_ = nullptr;
  SimTime session_start_ = 0;
  int sessions_ = 0;
  std::map<int, std::string> settings_;
  HandleTable<ProfConfig> configs_{0x20};
  HandleTable<ProfStamp> stamps_{0x21};
  HandleTable<ProfStepInfo> steps_{0x22};
  HandleTable<ProfDomain> domains_{0x23};
  HandleTable<ProfSubscribeConfig> subscribe_configs_{0x24};
  std::map<std::uint32_t, std::uint32_t> model_devices_;
  std::map<std::uint32_t, int> subscriptions_;
  std::vector<TxRecord> records_;
  std::map<std::uint32_t, std::vector<std::size_t>> push_stacks_;
  std::uint64_t last_range_id_ = 0;
  std::map<std::uint64_t, std::size_t> ranges_;
};

/// The process's profiling state (touched under the API lock).
Profiler& profiler();

}  // namespace npusim::rt
