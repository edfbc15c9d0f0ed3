// SPDX-License-Identifier: Apache-2.0
// The replay's trace formats (tools/replay/trace.h): YAML errors name the file, the line, the
// tensor or op and the key, and the reason; repeat blocks and per-layer tensors expand as
// documented; the msprof CSV importer maps OP Types and keeps unsupported ones by name; the
// shipped traces load.
#include "tools/replay/trace.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "acl/acl_base.h"
#include "tools/replay/elements.h"
#include "tests/test_util.h"
#include "tools/replay/op_table.h"

namespace npusim::replay {
namespace {

namespace fs = std::filesystem;

class TraceTest : public test_util::ScratchDirTest {
 protected:
  TraceTest() : ScratchDirTest("npusim_trace_test_") {}
  // The TraceError message of loading `text`, or "" if it loads.
  std::string error_of(const std::string& text, std::map<std::string, std::string> params = {}) {
    const std::string path = write("t.yaml", text);
    try {
      load_yaml_trace(path, params);
    } catch (const TraceError& e) {
      return e.what();
    }
    return "";
  }
};

const char* kTensors =
    "tensors:\n"
    "  - {name: a, shape: [2, 3], dtype: float32, role: input}\n"
    "  - {name: b, shape: [3], dtype: fp32, role: weight}\n"
    "  - {name: y, shape: [2, 3], dtype: float32, role: output}\n";

void expect_has(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
}

TEST_F(TraceTest, LoadsAValidTrace) {
  const std::string path =
      write("t.yaml", std::string("name: t\nseed: 9\n") + kTensors +
                          "ops:\n"
                          "  - {type: Add, inputs: [a, b], outputs: [y], alpha: 2}\n"
                          "  - {type: Mul, name: m, inputs: [y, a], outputs: [y], stream: 2}\n");
  const Trace t = load_yaml_trace(path, {});
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.seed, 9u);
  ASSERT_EQ(t.tensors.size(), 3u);
  EXPECT_EQ(t.tensors[1].dtype, ACL_FLOAT);
  EXPECT_EQ(t.tensors[0].init.kind, Init::Kind::kRandom);  // inputs and weights default to random
  EXPECT_EQ(t.tensors[2].init.kind, Init::Kind::kNone);
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[0].inputs, (std::vector<int>{0, 1}));
  EXPECT_EQ(t.ops[0].attrs.at("alpha").items[0], "2");
  EXPECT_EQ(t.ops[1].name, "m");
  EXPECT_EQ(t.ops[1].stream, 2);
  EXPECT_EQ(t.streams, 3);
}

TEST_F(TraceTest, ErrorsNameFileLineKeyAndReason) {
  std::string m = error_of(std::string(kTensors) + "ops: []\nmodel: bert\n");
  expect_has(m, "t.yaml:6: trace: unknown key 'model'");

  m = error_of("tensors:\n  - {name: a, shape: [2]}\nops: []\n");
  expect_has(m, "t.yaml:2:");
  expect_has(m, "tensor 0 ('a')");
  expect_has(m, "missing key 'dtype'");

  m = error_of("tensors:\n  - {name: a, shape: [2], dtype: float17}\nops: []\n");
  expect_has(m, "tensor 0 ('a').dtype: unknown type 'float17'");

  m = error_of("tensors:\n  - {name: a, shape: [2, -1], dtype: fp16}\nops: []\n");
  expect_has(m, "a dimension is negative");

  m = error_of("tensors:\n  - {name: a, shape: [2], dtype: fp16, role: inptu}\nops: []\n");
  expect_has(m, "'inptu' is not input, weight, output or intermediate");

  m = error_of(
      "tensors:\n  - {name: a, shape: [3], dtype: fp16, init: {values: [1, 2]}}\nops: []\n");
  expect_has(m, "2 values for 3 elements");
}

TEST_F(TraceTest, OpErrorsNameTheOpAndTheKey) {
  std::string m =
      error_of(std::string(kTensors) + "ops:\n  - {type: Matmull, inputs: [a, b], outputs: [y]}\n");
  expect_has(m, "t.yaml:6:");
  expect_has(m, "op 0 (Matmull 'Matmull_0')");
  expect_has(m, "unknown op type 'Matmull'");

  m = error_of(std::string(kTensors) +
               "ops:\n  - {type: Add, inputs: [a, b], outputs: [y]}\n"
               "  - {type: Softmax, name: sm, inputs: [y], outputs: [y], axis: 1}\n");
  expect_has(m, "t.yaml:7:");
  expect_has(m, "op 1 (Softmax 'sm')");
  expect_has(m, "unknown attribute 'axis' for Softmax (it takes: dim)");

  m = error_of(std::string(kTensors) +
               "ops:\n  - {type: Softmax, inputs: [y], outputs: [y], dim: last}\n");
  expect_has(m, "attribute 'dim': expected an integer, got 'last'");

  m = error_of(std::string(kTensors) +
               "ops:\n  - {type: Add, name: add, inputs: [a, zz], outputs: [y]}\n");
  expect_has(m, "op 0 (Add 'add').inputs[1]: unknown tensor 'zz'");

  m = error_of(std::string(kTensors) + "ops:\n  - {type: Add, inputs: [a], outputs: [y]}\n");
  expect_has(m, ".inputs: Add takes 2, got 1");

  m = error_of(std::string(kTensors) + "ops:\n  - {type: Permute, inputs: [a], outputs: [y]}\n");
  expect_has(m, "missing attribute 'dims'");

  m = error_of(std::string(kTensors) +
               "ops:\n  - {type: Add, inputs: [a, b], outputs: [y], stream: 99}\n");
  expect_has(m, ".stream: must be 0..63");
}

TEST_F(TraceTest, BadYamlAndMissingFile) {
  expect_has(error_of("tensors: [\n  - a\nops"), "t.yaml:");
  expect_has(error_of("tensors: [\n  - a\nops"), "not valid YAML");
  try {
    load_yaml_trace((dir_ / "absent.yaml").string(), {});
    FAIL() << "no error";
  } catch (const TraceError& e) {
    expect_has(e.what(), "absent.yaml: cannot read the file");
  }
}

TEST_F(TraceTest, ViewsAreCheckedAgainstTheirBase) {
  const std::string base = "tensors:\n  - {name: a, shape: [4, 8], dtype: fp16}\n";
  EXPECT_EQ(
      error_of(base + "  - {name: r, shape: [8], dtype: fp16, view_of: a, offset: 24}\nops: []\n"),
      "");
  expect_has(
      error_of(base + "  - {name: r, shape: [8], dtype: fp16, view_of: a, offset: 25}\nops: []\n"),
      "offset 25 + 8 elements exceed 'a' (32 elements)");
  expect_has(error_of(base + "  - {name: r, shape: [8], dtype: fp32, view_of: a}\nops: []\n"),
             "dtype differs from 'a'");
  expect_has(error_of(base + "  - {name: r, shape: [8], dtype: fp16, view_of: b}\nops: []\n"),
             "no earlier tensor named 'b'");
}

TEST_F(TraceTest, RepeatBlocksAndPerLayerTensors) {
  const std::string text =
      "params: {layers: 3}\n"
      "tensors:\n"
      "  - {name: h, shape: [4], dtype: fp32, role: input}\n"
      "  - {name: w, shape: [4], dtype: fp32, role: weight}\n"
      "  - {name: cache, shape: [2, 4], dtype: fp32, role: input, per_layer: true}\n"
      "  - {name: slot, shape: [4], dtype: fp32, view_of: cache, offset: 4, per_layer: true}\n"
      "ops:\n"
      "  - repeat: layers\n"
      "    ops:\n"
      "      - {type: Mul, inputs: [h, w], outputs: [slot]}\n"
      "      - {type: Add, inputs: [h, slot], outputs: [h]}\n";
  const std::string path = write("r.yaml", text);
  Trace t = load_yaml_trace(path, {});
  ASSERT_EQ(t.ops.size(), 6u);
  // Every layer's Mul writes its own cache instance; h and w are shared.
  ASSERT_EQ(t.tensors.size(), 4u + 2u * 3u);
  for (int layer = 0; layer < 3; ++layer) {
    const Op& mul = t.ops[static_cast<std::size_t>(2 * layer)];
    const Tensor& slot = t.tensors[static_cast<std::size_t>(mul.outputs[0])];
    EXPECT_EQ(slot.name, "slot@" + std::to_string(layer));
    EXPECT_EQ(t.tensors[static_cast<std::size_t>(slot.view_of)].name,
              "cache@" + std::to_string(layer));
    EXPECT_EQ(mul.inputs, (std::vector<int>{0, 1}));
    EXPECT_NE(mul.where.find("layer " + std::to_string(layer)), std::string::npos);
  }
  EXPECT_EQ(load_yaml_trace(path, {{"layers", "1"}}).ops.size(), 2u);
  expect_has(error_of(text, {{"layer", "1"}}), "--param layer: the trace has no parameter 'layer'");
  expect_has(error_of(text, {{"layers", "two"}}), "--param layers=two: not an integer");
  expect_has(error_of("tensors:\n  - {name: c, shape: [1], dtype: fp32, per_layer: true}\n"
                      "ops:\n  - {type: Add, inputs: [c, c], outputs: [c]}\n"),
             "'c' is per_layer and can only be used inside a repeat block");
}

TEST_F(TraceTest, OptionalInputsAreNull) {
  const std::string path =
      write("o.yaml",
            "tensors:\n"
            "  - {name: x, shape: [1, 4, 8], dtype: fp16, role: input}\n"
            "  - {name: m, shape: [4, 4], dtype: uint8, role: input, init: {triu: 1}}\n"
            "  - {name: y, shape: [1, 4, 8], dtype: fp16}\n"
            "  - {name: s, shape: [1, 2, 4, 8], dtype: fp32}\n"
            "ops:\n"
            "  - {type: FlashAttentionScore, inputs: [x, x, x, ~, ~, ~, m], outputs: [y, s, s], "
            "head_num: 2}\n");
  const Trace t = load_yaml_trace(path, {});
  EXPECT_EQ(t.ops[0].inputs, (std::vector<int>{0, 0, 0, -1, -1, -1, 1}));
  EXPECT_EQ(t.tensors[1].init.kind, Init::Kind::kTriu);
}

TEST_F(TraceTest, MsprofCsvRowsBecomeOps) {
  const Trace t =
      load_msprof_csv(std::string(NPUSIM_SOURCE_DIR) + "/tests/tools/msprof_sample.csv");
  EXPECT_EQ(t.csv_rows, 7);
  ASSERT_EQ(t.ops.size(), 5u);
  EXPECT_EQ(t.ops[0].type, "Add");
  EXPECT_EQ(t.ops[1].type, "Mul");
  EXPECT_EQ(t.ops[2].type, "Matmul");  // MatMulV2 with a [N, K] weight: transpose_b
  EXPECT_EQ(t.ops[2].attrs.at("transpose_b").items[0], "true");
  EXPECT_EQ(t.ops[2].attrs.at("transpose_a").items[0], "false");
  EXPECT_EQ(t.ops[3].stream, 1);  // Stream ID 3, the second stream seen
  EXPECT_EQ(t.ops[4].type, "Softmax");
  EXPECT_EQ(t.streams, 2);
  EXPECT_DOUBLE_EQ(t.ops[2].captured_us, 11.40);
  // Identical input signatures share one read-only tensor.
  EXPECT_EQ(t.ops[0].inputs[0], t.ops[3].inputs[0]);
  ASSERT_EQ(t.unsupported.size(), 1u);
  EXPECT_EQ(t.unsupported.at("MysteryOp").first, 2);
  EXPECT_NE(t.unsupported.at("MysteryOp").second.find("no op table entry"), std::string::npos);
}

TEST_F(TraceTest, MsprofCsvErrors) {
  const std::string missing = write("m.csv", "OP Type,Input Shapes\nAdd,\"1,2\"\n");
  try {
    load_msprof_csv(missing);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    expect_has(e.what(), "m.csv:1: missing column 'Input Data Types'");
  }
  const std::string bad =
      write("b.csv",
            "OP Type,Input Shapes,Input Data Types,Output Shapes,Output Data Types\n"
            "Add,\"1,x\",FLOAT,\"1\",FLOAT\n");
  try {
    load_msprof_csv(bad);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    expect_has(e.what(), "b.csv:2: row 1 (Add)");
  }
}

TEST(OpTable, EntriesAreConsistent) {
  for (const OpEntry& e : op_table()) {
    SCOPED_TRACE(e.type);
    EXPECT_LE(e.min_inputs, e.max_inputs);
    EXPECT_LE(e.min_outputs, e.max_outputs);
    EXPECT_NE(e.build, nullptr);
    EXPECT_EQ(find_op(e.type), &e);
  }
  EXPECT_EQ(find_op("Transpose")->aclnn, std::string("Permute"));
  EXPECT_EQ(find_op("MaxPool2d")->aclnn, std::string("MaxPool2dWithIndices"));
  EXPECT_EQ(op_type_from_msprof("MatMulV2"), "Matmul");
  EXPECT_EQ(op_type_from_msprof("SoftmaxV2"), "Softmax");
  EXPECT_EQ(op_type_from_msprof("MysteryOp"), "");
  EXPECT_EQ(op_table().size(), 28u);
}

TEST(OpTable, MissingFunctionsAreNamed) {
  std::set<std::string> have = {"aclCreateTensor",
                                "aclDestroyTensor",
                                "aclnnSoftmaxGetWorkspaceSize",
                                "aclnnSoftmax",
                                "aclnnLayerNormGetWorkspaceSize",
                                "aclnnLayerNorm",
                                "aclnnAddGetWorkspaceSize",
                                "aclnnAdd"};
  auto lookup = [&](const std::string& name) -> void* {
    static int dummy;
    return have.count(name) ? &dummy : nullptr;
  };
  EXPECT_EQ(missing_symbol(*find_op("Softmax"), lookup), "");
  EXPECT_EQ(missing_symbol(*find_op("Matmul"), lookup), "aclnnMatmul is not in this npusim build");
  EXPECT_EQ(missing_symbol(*find_op("Transpose"), lookup),
            "aclnnPermute is not in this npusim build");
  EXPECT_EQ(missing_symbol(*find_op("LayerNorm"), lookup),
            "aclCreateIntArray is not in this npusim build (aclnnLayerNorm needs it)");
  EXPECT_EQ(missing_symbol(*find_op("Add"), lookup),
            "aclCreateScalar is not in this npusim build (aclnnAdd needs it)");
  have.erase("aclDestroyTensor");
  EXPECT_EQ(missing_symbol(*find_op("Softmax"), lookup),
            "aclCreateTensor is not in this npusim build");
}

TEST(ShippedTraces, Load) {
  const std::string dir = std::string(NPUSIM_SOURCE_DIR) + "/traces/";
  struct Case {
    const char* file;
    std::size_t ops;
  };
  for (const Case& c :
       {Case{"bert_large_layer_fp16_unfused.yaml", 30},
        Case{"bert_large_layer_fp16_fused.yaml", 18}, Case{"bert_large_layer_fp32.yaml", 30},
        Case{"resnet50_fp16.yaml", 175}, Case{"llama7b_prefill.yaml", 1 + 32 * 16 + 2},
        Case{"llama7b_decode.yaml", 1 + 32 * 16 + 2}}) {
    SCOPED_TRACE(c.file);
    const Trace t = load_yaml_trace(dir + c.file, {});
    EXPECT_EQ(t.ops.size(), c.ops);
  }
  EXPECT_EQ(load_yaml_trace(dir + "llama7b_decode.yaml", {{"layers", "2"}}).ops.size(),
            1u + 2 * 16 + 2);
}

// The host-side element values the replay fills tensors with and checks them by: every type
// stores and loads through its own width (float16/bfloat16 rounded to nearest even).
TEST(Elements, StoreLoadEveryType) {
  const int types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                       ACL_BOOL,  ACL_INT16,   ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64,
                       ACL_UINT64};
  for (int dt : types) {
    char buf[16] = {};
    store_element(dt, buf, 3.0);
    EXPECT_EQ(load_element(dt, buf), 3.0) << dtype_name(dt);
    for (std::size_t k = dtype_size(dt); k < sizeof(buf); ++k) {
      EXPECT_EQ(buf[k], 0) << dtype_name(dt);  // nothing past the element's width
    }
  }
  char buf[8] = {};
  store_element(ACL_FLOAT16, buf, 1.0 + 1.0 / 2048);  // halfway to 1 + 2^-10: to even (1.0)
  EXPECT_EQ(load_element(ACL_FLOAT16, buf), 1.0);
  store_element(ACL_FLOAT16, buf, 1.0 + 3.0 / 2048);  // halfway: to even (1 + 2^-9)
  EXPECT_EQ(load_element(ACL_FLOAT16, buf), 1.0 + 2.0 / 1024);
  store_element(ACL_FLOAT16, buf, 65520.0);  // rounds past the largest half: infinity
  EXPECT_TRUE(std::isinf(load_element(ACL_FLOAT16, buf)));
  store_element(ACL_FLOAT16, buf, 1e-7);  // a subnormal half
  EXPECT_NEAR(load_element(ACL_FLOAT16, buf), 1.1920929e-7, 1e-12);
  store_element(ACL_BF16, buf, 1.0 + 1.0 / 256);  // halfway: to even (1.0)
  EXPECT_EQ(load_element(ACL_BF16, buf), 1.0);
  store_element(ACL_BF16, buf, -2.5);
  EXPECT_EQ(load_element(ACL_BF16, buf), -2.5);
  store_element(ACL_INT32, buf, -7.9);  // integers truncate
  EXPECT_EQ(load_element(ACL_INT32, buf), -7.0);
  EXPECT_TRUE(is_integer(ACL_BOOL));
  EXPECT_FALSE(is_integer(ACL_BF16));
}

// Random fills are a function of the seed only: the same sequence each time, another per name.
TEST(Elements, SeededSequence) {
  std::uint64_t a = name_hash("x", 1), b = name_hash("x", 1), c = name_hash("y", 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const std::uint64_t first = splitmix(a);
  EXPECT_EQ(first, splitmix(b));
  EXPECT_NE(first, splitmix(a));
}

}  // namespace
}  // namespace npusim::replay
