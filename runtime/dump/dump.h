// SPDX-License-Identifier: Apache-2.0
// The dump library (acl/acl_dump.h, aclmdlInitDump/SetDump/FinalizeDump; the C skin is
// runtime/dump/acl_dump.cpp). Plain C++; all state is touched under the API lock.
//
// Configuration: the "dump" object of the aclInit file, or of an aclmdlSetDump file between
// aclmdlInitDump and aclmdlFinalizeDump (which take precedence while active). Keys:
//   dump_path       directory of the data dump (required when data dump is on; created when
//                   missing, refused when it cannot be); relative paths are relative to the
//                   working directory
//   dump_op_switch  "on" | "off" (default): single-operator dump, i.e. the aclnn operators
//   dump_list       array of objects; "layer": operator names or types to dump (an entry without
//                   one, or no entry at all, means every operator); "model_name" is accepted (npusim
//                   runs no models, it filters nothing)
//   dump_mode       "input" | "output" (default) | "all"
//   dump_data       "tensor" (default); "stats" is not supported (ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
//   dump_scene      exception dump: "aic_err_brief_dump", "aic_err_norm_dump", "lite_exception"
//                   ("aic_err_detail_dump", "watcher": not supported); not with single-op dump
//   dump_debug      "off"; "on" (overflow dump) is not supported
// Anything else that is wrong (a non-object, a value of the wrong type or not in the lists above,
// single-op dump without dump_path) is ACL_ERROR_INVALID_DUMP_CONFIG with the reason logged.
//
// Data dump files (single-op dump on, no callback registered), one per operator run:
//   <dump_path>/<time>/<device>/<OpType>.<OpName>.<task id>.<stream id>.<timestamp>
// <time> is YYYYMMDDhhmmss and <timestamp> microseconds, both in simulated time (counted from
// 1970-01-01 00:00:00, so runs are repeatable); <OpName> is the aclnn call ("aclnnAdd"), <task id>
// the id of the operator's first kernel task on its stream. The file is what msaccucmp reads: an
// 8-byte little-endian length N, N bytes of the DumpData protobuf message, then the tensors' bytes
// (inputs then outputs, each tensor's elements in row-major order of its view).
// DumpData: 1 version ("2.0"), 2 dump_time (us), 3 output (OpOutput: 1 data_type, 2 format,
// 3 shape, 6 size, 7 original_shape), 4 input (OpInput: 1 data_type, 2 format, 3 shape, 5 size,
// 6 original_shape), 5 buffer (OpBuffer: 1 buffer_type, 2 address, 3 size), 6 op_name,
// 9 attr (OpAttr: 1 name, 2 value); Shape: 1 dim (packed uint64). data_type is the proto's
// OutputDataType (DT_FLOAT = 1, DT_FLOAT16 = 2, ...), format the aclFormat value.
// With a callback registered (acldumpRegCallback) the same bytes go to the callback instead, in
// chunks of at most kChunkBytes, fileName the path above, offset the chunk's place in the file;
// callbacks run at the end of the API call that simulated the operator, with the API lock
// released (as exception callbacks do).
//
// Operator information (aclopStartDumpArgs): one JSON file per operator type and shape signature
// per start..stop session, <path>/<OpType>.<n>.json (n = 0, 1, ... per type), written when the
// operator is launched: {"op_type", "op_name", "attrs", "inputs", "outputs"}, each tensor with
// "format", "data_type" and "shape". npusim's operators keep no attributes: "attrs" is {}.
//
// Exception dump root: <base>/extra-info/data-dump/<device>/ where base is $ASCEND_DUMP_PATH, else
// $ASCEND_WORK_PATH, else dump_path, else the working directory. acldumpSaveExceptionInfo writes
// <root>/<fileName>.custom.<timestamp> (timestamp YYYYMMDDhhmmssmmm of simulated time, moved on
// by 1 ms while such a file exists) in the data dump format (workspace tensors as buffers, the
// user tag as attr "user_tag"). A kernel that fails while exception dump is on leaves
// <root>/<kernel name>.<task id>.<stream id>.<timestamp>.exception.json (error code, ids, times,
// and its argument block in hex); when the kernel is an aclnn operator's, the JSON also names the
// operator and a DumpData file beside it, <OpType>.<OpName>.<task id>.<stream id>.<timestamp>,
// holds the operator's device tensors (inputs, outputs) as the device held them at the failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "models/task.h"
#include "sim/quantity.h"

namespace npusim::rt {
class Call;
}

namespace npusim::rt::dump {

constexpr std::uint32_t kChunkBytes = 64 * 1024;

enum class Mode : std::uint8_t { kInput, kOutput, kAll };
enum class Scene : std::uint8_t { kNone, kBrief, kNorm };

struct Config {
  bool op_switch = false;  // single-operator data dump
  std::string path;        // dump_path as given ("" = none)
  Mode mode = Mode::kOutput;
  std::vector<std::string> layers;  // operators to dump by name or type; empty = all
  Scene scene = Scene::kNone;
};

/// Parses the text of a configuration file. A file without "dump" gives the default Config.
/// Throws ApiError: ACL_ERROR_PARSE_FILE (not JSON), ACL_ERROR_INVALID_DUMP_CONFIG,
/// ACL_ERROR_RT_FEATURE_NOT_SUPPORT (see the file comment); `source` names the file in messages.
Config parse_config(const std::string& text, const std::string& source);

/// A tensor of an operator as the dump reads it: `dims` elements of `elem_size` bytes at `addr`
/// with `strides` (in elements).
struct TensorView {
  int dtype = 0;   // aclDataType
  int format = 2;  // aclFormat
  std::vector<std::int64_t> dims, strides;
  std::size_t elem_size = 0;
  const std::uint8_t* addr = nullptr;  // nullptr: an optional tensor not given (skipped)
};

struct OpDesc {
  std::string type;  // "Add"
  std::string name;  // "aclnnAdd"
  std::vector<TensorView> inputs, outputs;
};

/// The dump of one operator run, between before_op and after_op.
struct OpRun;

/// The operator library calls these around queuing an operator's kernels on `stream`:
/// before_op writes the operator information file (aclopStartDumpArgs) and, when data dump is
/// on for this operator, queues the capture of its inputs; after_op queues the capture of its
/// outputs and the dump's emission. before_op returns nullptr when nothing is captured.
/// Whether before_op has anything to do (operator information or data dump is on).
bool op_dump_wanted();
std::shared_ptr<OpRun> before_op(Call& call, void* stream, const OpDesc& desc);
void after_op(Call& call, void* stream, const std::shared_ptr<OpRun>& run);

/// A failed kernel task (exception dump, when on): writes its exception file.
void on_kernel_failure(const std::string& kernel, std::uint32_t device, std::uint32_t stream,
                       std::uint32_t task_id, const models::TaskOutcome& outcome,
                       const void* args, std::uint32_t args_size);

// ---- The C skin's operations (runtime/dump/acl_dump.cpp) ----
/// aclInit succeeded with `config` (parse_config of its file; default without one).
void configure_from_init(const Config& config);
void init_dump(Call& call);
void set_dump(Call& call, const char* path);
void finalize_dump(Call& call);
void reg_callback(Call& call, std::int32_t (*cb)(const acldumpChunk*, std::int32_t),
                  std::int32_t flag);
void unreg_callback(Call& call);
void start_dump_args(Call& call, std::uint32_t type, const char* path);
void stop_dump_args(Call& call, std::uint32_t type);
const char* get_path(Call& call, int type);
void get_exception_path(Call& call, char* path, std::size_t max_len);
void save_exception_info(Call& call, const char* file, const char* tag,
                         const acldumpTensorInfo* tensors, std::size_t count);
/// aclFinalize: forgets every setting (the callback too).
void reset();

/// Chunks for the registered callback, queued while simulating; run_api takes them under the API
/// lock and delivers them after releasing it.
struct PendingChunk {
  std::int32_t (*callback)(const acldumpChunk*, std::int32_t) = nullptr;
  std::vector<std::uint8_t> bytes;  // an acldumpChunk followed by its data
};
std::vector<PendingChunk> take_chunks();
void deliver(std::vector<PendingChunk>& chunks);

// ---- Pieces exposed for tests ----
/// YYYYMMDDhhmmss (digits = 14) or YYYYMMDDhhmmssmmm (17) of simulated time `t` from 1970.
std::string civil_time(sim::SimTime t, int digits);
/// The DumpData file bytes for tensors already gathered.
struct Tensor {
  int kind = 0;  // 0 input, 1 output, 2 workspace
  int dtype = 0;
  int format = 2;
  std::vector<std::uint64_t> shape, origin_shape;
  std::vector<std::uint8_t> data;
};
std::vector<std::uint8_t> encode_file(const std::string& op_name, std::uint64_t dump_time_us,
                                      const std::vector<Tensor>& tensors,
                                      const std::string& user_tag);

}  // namespace npusim::rt::dump
