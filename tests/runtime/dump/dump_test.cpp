// SPDX-License-Identifier: Apache-2.0
// The dump library (acl/acl_dump.h, runtime/dump/dump.h) on FakeBackend: configuration errors and call
// order, data dump files of aclnn operators (layout, DumpData header, tensor bytes), callback
// chunks, operator information files, the exception dump root, acldumpSaveExceptionInfo and the
// exception file of a failing kernel.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl_dump.h"
#include "aclnnop/aclnn_add.h"
#include "runtime/dump/dump.h"
#include "tests/runtime/aclnn_support.h"
#include "tests/runtime/kernel_sources.h"

namespace npusim::rt::testing {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::absolute(fs::path(::testing::TempDir()) / ("npusim_dump_" + name));
  fs::remove_all(dir);
  return dir;
}

std::string write_config(const std::string& name, const std::string& text) {
  const fs::path p = fs::path(::testing::TempDir()) / ("npusim_dump_" + name + ".json");
  std::ofstream(p) << text;
  return p.string();
}

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> float_bytes(const std::vector<float>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(float));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

dump::Tensor tensor_of(int kind, const std::vector<float>& v, std::vector<std::uint64_t> shape) {
  dump::Tensor t;
  t.kind = kind;
  t.dtype = ACL_FLOAT;
  t.format = ACL_FORMAT_ND;
  t.shape = t.origin_shape = shape;
  t.data = float_bytes(v);
  return t;
}

std::vector<acldumpChunk> g_chunk_heads;
std::vector<std::vector<std::uint8_t>> g_chunk_data;
std::vector<std::int32_t> g_chunk_lens;

std::int32_t collect_chunk(const acldumpChunk* c, std::int32_t len) {
  g_chunk_heads.push_back(*c);
  g_chunk_data.emplace_back(c->dataBuf, c->dataBuf + c->bufLen);
  g_chunk_lens.push_back(len);
  return 0;
}

class DumpTest : public OperatorTest {
 protected:
  void TearDown() override {
    acldumpUnregCallback();
    (void)aclmdlFinalizeDump();
    OperatorTest::TearDown();
  }
  // self + other (alpha 1) over `n` floats: self[i] = i, other[i] = 0.5; returns the values.
  void run_add(std::int64_t n, std::vector<float>* self = nullptr,
               std::vector<float>* other = nullptr, std::vector<float>* out = nullptr) {
    std::vector<float> a(static_cast<std::size_t>(n)), b(a.size(), 0.5f), y(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(i);
      y[i] = a[i] + 0.5f;
    }
    void* da = alloc(a.size() * 4);
    void* db = alloc(a.size() * 4);
    void* dy = alloc(a.size() * 4);
    std::memcpy(da, a.data(), a.size() * 4);
    std::memcpy(db, b.data(), b.size() * 4);
    const std::vector<std::int64_t> shape{n / 2, 2};
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAddGetWorkspaceSize(tensor(shape, ACL_FLOAT, da), tensor(shape, ACL_FLOAT, db),
                                       alpha, tensor(shape, ACL_FLOAT, dy), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyScalar(alpha), ACLNN_SUCCESS);
    if (self != nullptr) *self = a;
    if (other != nullptr) *other = b;
    if (out != nullptr) *out = y;
  }
  void enable(const std::string& name, const std::string& dump_section) {
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetDump(write_config(name, "{\"dump\": " + dump_section + "}").c_str()),
              ACL_SUCCESS);
  }
  std::int32_t stream_id() {
    std::int32_t id = -1;
    EXPECT_EQ(aclrtStreamGetId(stream_, &id), ACL_SUCCESS);
    return id;
  }
};

TEST_F(DumpTest, CallOrderErrors) {
  const std::string good =
      write_config("order", R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on"}})");
  EXPECT_EQ(aclmdlSetDump(good.c_str()), ACL_ERROR_DUMP_NOT_RUN);  // before aclmdlInitDump
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
  EXPECT_EQ(aclmdlSetDump(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDump(good.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetDump(good.c_str()), ACL_SUCCESS);  // a second configuration replaces it
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclopStartDumpArgs(2, "/tmp"), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "/proc/npusim_no/dir"),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpRegCallback(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpRegCallback(collect_chunk, 1), ACL_ERROR_INVALID_PARAM);  // only 0
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);  // nothing enabled
  EXPECT_EQ(acldumpGetPath(static_cast<acldumpType>(42)), nullptr);
}

TEST_F(DumpTest, BadConfigurationsAreRefusedWithTheDocumentedCode) {
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  struct Case {
    const char* text;
    int code;
    const char* says;
  } cases[] = {
      {"{ not json", ACL_ERROR_PARSE_FILE, "not valid JSON"},
      {R"({"dump": []})", ACL_ERROR_INVALID_DUMP_CONFIG, "must be an object"},
      {R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "yes"}})",
       ACL_ERROR_INVALID_DUMP_CONFIG, "dump_op_switch \"yes\" is not one of on, off"},
      {R"({"dump": {"dump_op_switch": "on"}})", ACL_ERROR_INVALID_DUMP_CONFIG,
       "dump_path is missing"},
      {R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_mode": "both"}})",
       ACL_ERROR_INVALID_DUMP_CONFIG, "dump_mode"},
      {R"({"dump": {"dump_path": 7, "dump_op_switch": "on"}})", ACL_ERROR_INVALID_DUMP_CONFIG,
       "dump_path must be a string"},
      {R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_list": [{"layer": "Add"}]}})",
       ACL_ERROR_INVALID_DUMP_CONFIG, "layer must be an array"},
      {R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_scene": "lite_exception"}})",
       ACL_ERROR_INVALID_DUMP_CONFIG, "cannot be combined"},
      {R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_data": "stats"}})",
       ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not supported"},
      {R"({"dump": {"dump_path": "/tmp", "dump_debug": "on"}})", ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
       "overflow dump"},
      {R"({"dump": {"dump_path": "/tmp"}})", ACL_ERROR_INVALID_DUMP_CONFIG, "enables no dump"},
      {R"({"dump": {"dump_path": "/proc/npusim_no/dir", "dump_op_switch": "on"}})",
       ACL_ERROR_INVALID_DUMP_CONFIG, "cannot be created"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string path = write_config("bad" + std::to_string(i++), c.text);
    EXPECT_EQ(aclmdlSetDump(path.c_str()), c.code) << c.text;
    const char* msg = aclGetRecentErrMsg();
    ASSERT_NE(msg, nullptr) << c.text;
    EXPECT_NE(std::string(msg).find(c.says), std::string::npos) << msg;
  }
  EXPECT_EQ(aclmdlSetDump("/nonexistent/npusim_dump.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);  // no configuration took effect
}

TEST_F(DumpTest, AclInitConfigurationEnablesSingleOperatorDump) {
  const fs::path dir = fresh_dir("init");
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  const std::string bad = write_config("init_bad", R"({"dump": {"dump_op_switch": "on"}})");
  EXPECT_EQ(aclInit(bad.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  const std::string cfg = write_config(
      "init", R"({"dump": {"dump_path": ")" + dir.string() +
                  R"(", "dump_list": [], "dump_op_switch": "on", "dump_data": "tensor"}})");
  fake_ = use_fake_backend();
  ASSERT_EQ(aclInit(cfg.c_str()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(std::string(path), dir.string() + "/");
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);  // aclInit already enabled it
  const std::string other = write_config(
      "init_other", R"({"dump": {"dump_path": "/tmp/npusim_other", "dump_op_switch": "on"}})");
  EXPECT_EQ(aclInit(other.c_str()), ACL_ERROR_REPEAT_INITIALIZE);  // changes nothing
  EXPECT_EQ(std::string(acldumpGetPath(DATA_DUMP)), dir.string() + "/");
  run_add(8);
  EXPECT_EQ(files_under(dir).size(), 1u);
}

TEST_F(DumpTest, OperatorRunWritesOneFileInTheDocumentedLayout) {
  const fs::path dir = fresh_dir("layout");
  enable("layout", R"({"dump_path": ")" + dir.string() +
                       R"(", "dump_list": [{}], "dump_op_switch": "on", "dump_mode": "all"})");
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(std::string(path), dir.string() + "/");
  std::vector<float> a, b, y;
  run_add(8, &a, &b, &y);
  const std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 1u);
  const fs::path& f = files[0];
  // <dump_path>/<time>/<device>/Add.aclnnAdd.<task id>.<stream id>.<timestamp>
  EXPECT_EQ(f.parent_path(), dir / "19700101000000" / "0");
  const std::string prefix = "Add.aclnnAdd.1." + std::to_string(stream_id()) + ".";
  const std::string name = f.filename().string();
  ASSERT_EQ(name.rfind(prefix, 0), 0u) << name;  // task 0 captured the inputs
  const std::string ts = name.substr(prefix.size());
  ASSERT_FALSE(ts.empty());
  EXPECT_EQ(ts.find_first_not_of("0123456789"), std::string::npos) << ts;
  // The whole file: what encode_file makes of the inputs and the output.
  const std::vector<std::uint8_t> bytes = read_bytes(f);
  const std::vector<std::uint8_t> expected = dump::encode_file(
      "aclnnAdd", std::stoull(ts),
      {tensor_of(0, a, {4, 2}), tensor_of(0, b, {4, 2}), tensor_of(1, y, {4, 2})}, "");
  EXPECT_EQ(bytes, expected);
  // Its layout: 8-byte length, the DumpData message, then self, other, out.
  ASSERT_GE(bytes.size(), 8u);
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<std::uint64_t>(bytes[static_cast<std::size_t>(i)]) << (8 * i);
  ASSERT_EQ(bytes.size(), 8 + n + 3 * 32);
  const std::string msg(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(n));
  EXPECT_EQ(msg.substr(0, 5), std::string("\x0a\x03" "2.0", 5));  // version "2.0"
  EXPECT_NE(msg.find("aclnnAdd"), std::string::npos);
  std::vector<float> data(24);
  std::memcpy(data.data(), bytes.data() + 8 + n, 96);
  EXPECT_EQ(std::vector<float>(data.begin(), data.begin() + 8), a);
  EXPECT_EQ(std::vector<float>(data.begin() + 8, data.begin() + 16), b);
  EXPECT_EQ(std::vector<float>(data.begin() + 16, data.end()), y);
}

TEST_F(DumpTest, ModeAndLayerSelectWhatIsDumped) {
  const fs::path dir = fresh_dir("select");
  enable("select_out", R"({"dump_path": ")" + dir.string() + R"(", "dump_op_switch": "on"})");
  std::vector<float> a, b, y;
  run_add(4, &a, &b, &y);
  std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 1u);  // default mode: outputs only
  std::vector<std::uint8_t> bytes = read_bytes(files[0]);
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.end() - 16, bytes.end()), float_bytes(y));
  EXPECT_EQ(files[0].filename().string().rfind("Add.aclnnAdd.0.", 0), 0u);
  fs::remove_all(dir);
  ASSERT_EQ(aclmdlSetDump(write_config("select_in", R"({"dump": {"dump_path": ")" + dir.string() +
                                                     R"(", "dump_op_switch": "on", "dump_mode": "input"}})")
                              .c_str()),
            ACL_SUCCESS);
  run_add(4, &a, &b, &y);
  files = files_under(dir);
  ASSERT_EQ(files.size(), 1u);
  bytes = read_bytes(files[0]);
  std::vector<std::uint8_t> ab = float_bytes(a);
  const std::vector<std::uint8_t> bb = float_bytes(b);
  ab.insert(ab.end(), bb.begin(), bb.end());
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.end() - 32, bytes.end()), ab);
  fs::remove_all(dir);
  ASSERT_EQ(aclmdlSetDump(write_config("select_layer",
                                       R"({"dump": {"dump_path": ")" + dir.string() +
                                           R"(", "dump_op_switch": "on", "dump_list": [{"layer": ["Mul"]}]}})")
                              .c_str()),
            ACL_SUCCESS);
  run_add(4);
  EXPECT_TRUE(files_under(dir).empty());  // Add is not in the layer list
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  run_add(4);
  EXPECT_TRUE(files_under(dir).empty());  // dump off again
}

TEST_F(DumpTest, CallbackReceivesTheFileInChunksInsteadOfAFile) {
  g_chunk_heads.clear();
  g_chunk_data.clear();
  g_chunk_lens.clear();
  const fs::path dir = fresh_dir("callback");
  enable("callback", R"({"dump_path": ")" + dir.string() + R"(", "dump_op_switch": "on"})");
  ASSERT_EQ(acldumpRegCallback(collect_chunk, 0), ACL_SUCCESS);
  const std::int64_t n = 20000;  // 80000 output bytes: two chunks
  std::vector<float> y;
  run_add(n, nullptr, nullptr, &y);
  EXPECT_TRUE(files_under(dir).empty());
  ASSERT_EQ(g_chunk_heads.size(), 2u);
  std::vector<std::uint8_t> whole;
  for (std::size_t i = 0; i < 2; ++i) {
    const acldumpChunk& c = g_chunk_heads[i];
    EXPECT_EQ(g_chunk_lens[i], static_cast<std::int32_t>(sizeof(acldumpChunk) + c.bufLen));
    EXPECT_EQ(c.offset, static_cast<std::int64_t>(whole.size()));
    EXPECT_EQ(c.isLastChunk, i == 1 ? 1u : 0u);
    EXPECT_EQ(c.flag, 0);
    EXPECT_EQ(std::string(c.fileName), std::string(g_chunk_heads[0].fileName));
    whole.insert(whole.end(), g_chunk_data[i].begin(), g_chunk_data[i].end());
  }
  EXPECT_EQ(g_chunk_heads[0].bufLen, dump::kChunkBytes);
  const fs::path file(g_chunk_heads[0].fileName);
  EXPECT_EQ(file.parent_path(), dir / "19700101000000" / "0");
  const std::string name = file.filename().string();
  const std::string prefix = "Add.aclnnAdd.0." + std::to_string(stream_id()) + ".";
  ASSERT_EQ(name.rfind(prefix, 0), 0u) << name;
  const std::vector<std::uint8_t> expected = dump::encode_file(
      "aclnnAdd", std::stoull(name.substr(prefix.size())),
      {tensor_of(1, y, {static_cast<std::uint64_t>(n / 2), 2})}, "");
  EXPECT_EQ(whole, expected);
  acldumpUnregCallback();
  run_add(4);
  EXPECT_EQ(g_chunk_heads.size(), 2u);  // no callback any more: a file instead
  EXPECT_EQ(files_under(dir).size(), 1u);
}

TEST_F(DumpTest, DumpArgsWritesOneInformationFilePerShape) {
  const fs::path dir = fresh_dir("args");
  ASSERT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, dir.string().c_str()), ACL_SUCCESS);
  EXPECT_TRUE(fs::is_directory(dir));
  run_add(8);
  run_add(8);  // same shape: no new file
  run_add(4);
  ASSERT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
  run_add(6);  // stopped
  const std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0], dir / "Add.0.json");
  EXPECT_EQ(files[1], dir / "Add.1.json");
  std::ifstream f(files[1]);
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["op_type"], "Add");
  EXPECT_EQ(j["op_name"], "aclnnAdd");
  ASSERT_EQ(j["inputs"].size(), 2u);
  ASSERT_EQ(j["outputs"].size(), 1u);
  EXPECT_EQ(j["inputs"][1]["data_type"], "FLOAT");
  EXPECT_EQ(j["inputs"][1]["format"], "ND");
  EXPECT_EQ(j["outputs"][0]["shape"], nlohmann::json::array({2, 2}));
}

TEST_F(DumpTest, ExceptionDumpRootAndSaveExceptionInfo) {
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH] = {0};
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_ERROR_DUMP_NOT_RUN);
  void* d = alloc(64);
  acldumpTensorInfo t;
  std::memset(&t, 0, sizeof t);
  t.type = ACL_DUMP_TENSOR_INPUT;
  t.tensorSize = 32;
  t.format = ACL_FORMAT_ND;
  t.dataType = ACL_FLOAT;
  t.tensorAddr = static_cast<int64_t*>(d);
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  t.shapeNum = t.originShapeNum = 2;
  t.shape[0] = t.originShape[0] = 4;
  t.shape[1] = t.originShape[1] = 2;
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &t, 1), ACL_ERROR_DUMP_NOT_RUN);
  const fs::path dir = fresh_dir("exception");
  const char* work = std::getenv("ASCEND_WORK_PATH");
  ASSERT_EQ(work, nullptr);  // the test needs the configured path to decide
  ASSERT_EQ(std::getenv("ASCEND_DUMP_PATH"), nullptr);
  enable("exception", R"({"dump_path": ")" + dir.string() + R"(", "dump_scene": "aic_err_brief_dump"})");
  const std::string root = (dir / "extra-info" / "data-dump" / "0").string() + "/";
  ASSERT_EQ(acldumpGetExceptionInfoPath(path, sizeof path), ACL_SUCCESS);
  EXPECT_EQ(std::string(path), root);
  EXPECT_EQ(std::string(acldumpGetPath(AIC_ERR_BRIEF_DUMP)), root);
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(acldumpGetExceptionInfoPath(path, root.size()), ACL_ERROR_INVALID_PARAM);  // no NUL
  EXPECT_EQ(acldumpGetExceptionInfoPath(nullptr, 100), ACL_ERROR_INVALID_PARAM);

  std::vector<float> values{1, 2, 3, 4, 5, 6, 7, 8};
  std::memcpy(d, values.data(), 32);
  EXPECT_EQ(acldumpSaveExceptionInfo("", nullptr, &t, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("a/../../x", nullptr, &t, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("/abs", nullptr, &t, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &t, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  acldumpTensorInfo bad = t;
  bad.addrType = ACL_DUMP_ADDR_PTR;
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &bad, 1), ACL_ERROR_INVALID_PARAM);
  bad = t;
  bad.shapeNum = 26;
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &bad, 1), ACL_ERROR_INVALID_PARAM);
  bad = t;
  bad.tensorSize = 4096;  // beyond the allocation
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &bad, 1), ACL_ERROR_INVALID_PARAM);
  float host[8] = {};
  bad = t;
  bad.tensorAddr = reinterpret_cast<int64_t*>(host);  // not device memory
  EXPECT_EQ(acldumpSaveExceptionInfo("x", nullptr, &bad, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(files_under(dir).empty());

  ASSERT_EQ(acldumpSaveExceptionInfo("sub/info", "component=test", &t, 1), ACL_SUCCESS);
  ASSERT_EQ(acldumpSaveExceptionInfo("sub/info", "component=test", &t, 1), ACL_SUCCESS);
  const std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 2u);  // the second did not overwrite the first
  for (const fs::path& f : files) {
    EXPECT_EQ(f.parent_path(), fs::path(root) / "sub");
    const std::string name = f.filename().string();
    ASSERT_EQ(name.rfind("info.custom.", 0), 0u) << name;
    EXPECT_EQ(name.size(), std::string("info.custom.").size() + 17) << name;
  }
  const std::string ts0 = files[0].filename().string().substr(12);
  const std::string ts1 = files[1].filename().string().substr(12);
  EXPECT_EQ(std::stoull(ts1), std::stoull(ts0) + 1);  // moved on by 1 ms
  const std::vector<std::uint8_t> bytes = read_bytes(files[0]);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.end() - 32, bytes.end()), float_bytes(values));
  const std::string text(bytes.begin(), bytes.end());
  EXPECT_NE(text.find("user_tag"), std::string::npos);
  EXPECT_NE(text.find("component=test"), std::string::npos);
}

TEST_F(DumpTest, FailingKernelLeavesAnExceptionFile) {
  const fs::path dir = fresh_dir("fault");
  enable("fault", R"({"dump_path": ")" + dir.string() + R"(", "dump_scene": "lite_exception"})");
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].parent_path(), dir / "extra-info" / "data-dump" / "0");
  const std::string name = files[0].filename().string();
  EXPECT_EQ(name.rfind("trap_kernel.0." + std::to_string(stream_id()) + ".", 0), 0u) << name;
  std::ifstream f(files[0]);
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["kernel"], "trap_kernel");
  EXPECT_EQ(j["error_code"], ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(j["stream_id"], stream_id());
  EXPECT_EQ(j["task_id"], 0);
  EXPECT_LE(j["start_us"].get<std::uint64_t>(), j["end_us"].get<std::uint64_t>());
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);  // exception dump off: no file
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(files_under(dir).size(), 1u);
}

TEST_F(DumpTest, FailingOperatorLeavesItsTensorsBesideTheExceptionFile) {
  const fs::path dir = fresh_dir("opfault");
  enable("opfault", R"({"dump_path": ")" + dir.string() + R"(", "dump_scene": "aic_err_brief_dump"})");
  std::vector<float> a{1, 2, 3, 4}, host(4, 1.0f);
  void* da = alloc(16);
  void* dy = alloc(16);
  std::memcpy(da, a.data(), 16);
  const std::vector<std::int64_t> shape{2, 2};
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  // `other` is host memory the kernel may not read: the Add kernel faults.
  ASSERT_EQ(aclnnAddGetWorkspaceSize(tensor(shape, ACL_FLOAT, da),
                                     tensor(shape, ACL_FLOAT, host.data()), alpha,
                                     tensor(shape, ACL_FLOAT, dy), &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(alpha), ACLNN_SUCCESS);
  const fs::path root = dir / "extra-info" / "data-dump" / "0";
  const std::vector<fs::path> files = files_under(dir);
  ASSERT_EQ(files.size(), 2u);
  const fs::path json = files[0].extension() == ".json" ? files[0] : files[1];
  const fs::path data = files[0].extension() == ".json" ? files[1] : files[0];
  std::ifstream f(json);
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["op_type"], "Add");
  EXPECT_EQ(j["op_name"], "aclnnAdd");
  EXPECT_EQ(j["tensors"], 2);  // self and out; other is not device memory
  EXPECT_EQ(root / j["data_file"].get<std::string>(), data);
  const std::string prefix = "Add.aclnnAdd.0." + std::to_string(stream_id()) + ".";
  EXPECT_EQ(data.filename().string().rfind(prefix, 0), 0u) << data;
  const std::vector<std::uint8_t> bytes = read_bytes(data);
  ASSERT_GE(bytes.size(), 32u);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.end() - 32, bytes.end() - 16), float_bytes(a));
}

TEST(DumpPieces, CivilTimeOfSimulatedTime) {
  EXPECT_EQ(dump::civil_time(0, 14), "19700101000000");
  const sim::SimTime ms = 1000000000ULL;  // ps
  EXPECT_EQ(dump::civil_time(1234 * ms, 17), "19700101000001234");
  EXPECT_EQ(dump::civil_time((86400ULL * 40 + 3600 * 2 + 61) * 1000 * ms, 14), "19700210020101");
}

}  // namespace
}  // namespace npusim::rt::testing
