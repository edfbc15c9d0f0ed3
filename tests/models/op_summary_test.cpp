// SPDX-License-Identifier: Apache-2.0
// op_summary.csv rows (plain C++): msprof column names, formulas, N/A for unknown values.
#include <gtest/gtest.h>

#include "models/aicore/op_summary.h"
#include "sim/quantity.h"

namespace npusim::models {
namespace {

using ascendc::Pipe;
using sim::kUs;
using sim::SimTime;

TEST(OpSummary, HeaderUsesMsprofColumnNames) {
  EXPECT_EQ(op_summary_header(),
            "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
            "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
            "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
            "Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,"
            "aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
            "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,"
            "aic_fixpipe_time(us),aic_fixpipe_ratio,aiv_time(us),aiv_total_cycles,"
            "aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,"
            "aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,"
            "cube_utilization(%)\n");
}

TEST(OpSummary, RowsFollowTheFormulas) {
  // A vector kernel: 8 blocks of 15 us at 1 GHz; per block vector 3 us, scalar 1.5, MTE2 12,
  // MTE3 6. aiv_time = 8 x 15000 cycles / (1 GHz x 8) = 15 us; ratios = busy / total.
  KernelRecord v;
  v.stream = 3;
  v.task_id = 7;
  v.name = "add_custom";
  v.task_type = "AI_VECTOR_CORE";
  v.block_dim = 8;
  v.start = 10 * kUs;
  v.end = 30 * kUs;
  v.aiv.used = true;
  v.aiv.blocks = 8;
  v.aiv.total = 8 * 15 * kUs;
  v.aiv.busy[static_cast<int>(Pipe::kVector)] = 8 * 3 * kUs;
  v.aiv.busy[static_cast<int>(Pipe::kScalar)] = 12 * kUs;
  v.aiv.busy[static_cast<int>(Pipe::kMte2)] = 8 * 12 * kUs;
  v.aiv.busy[static_cast<int>(Pipe::kMte3)] = 8 * 6 * kUs;
  // A cube kernel 10 us after it on 2 of 4 cube cores: 2 blocks of 10 us, Mmad 8 us each.
  // cube_utilization = 20000 cycles / (1 GHz x 4 cores x 20 us) = 25%.
  KernelRecord c;
  c.stream = 3;
  c.task_id = 8;
  c.name = "mm";
  c.op_type = "MatMul";
  c.task_type = "AI_CORE";
  c.block_dim = 2;
  c.start = 40 * kUs;
  c.end = 60 * kUs;
  c.aic.used = true;
  c.aic.blocks = 2;
  c.aic.total = 20 * kUs;
  c.aic.busy[static_cast<int>(Pipe::kCube)] = 16 * kUs;
  const std::string csv = op_summary_csv({c, v}, {1e9, 4});
  const std::string na8 = "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A";
  const std::string na12 = na8 + ",N/A,N/A,N/A,N/A";
  const std::string na10 = na8 + ",N/A,N/A";
  EXPECT_EQ(csv, op_summary_header() +
                     "0,4294967295,7,3,add_custom,add_custom,N/A,AI_VECTOR_CORE,10.000,20.000,"
                     "0.000,8,0," + na8 + "," + na12 +
                     ",15.000,120000,3.000,0.200,1.500,0.100,12.000,0.800,6.000,0.400,N/A\n"
                     "0,4294967295,8,3,mm,MatMul,N/A,AI_CORE,40.000,20.000,10.000,2,0," + na8 +
                     ",10.000,20000,8.000,0.800,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000," +
                     na10 + ",25.000\n");
}

// The Op Name and tensor columns come from the record's OpInfo (quoted where they hold commas);
// what it leaves empty stays N/A.
TEST(OpSummary, OpNameAndTensorsFromTheInfo) {
  KernelRecord r;
  r.name = "Add";
  r.task_type = "AI_VECTOR_CORE";
  r.block_dim = 1;
  r.end = kUs;
  r.info.op_name = "aclnnAdd_AddAiCore_Add";
  r.info.input_shapes = "4,1024;1024";
  r.info.input_types = "FLOAT16;FLOAT16";
  r.info.input_formats = "ND;ND";
  r.info.output_shapes = "4,1024";
  r.info.output_types = "FLOAT16";
  const std::string csv = op_summary_csv({r}, {});
  const std::string row = csv.substr(op_summary_header().size());
  // ... Output Data Types, Output Formats (not given), Context ID, aicore_time(us) (no cube side)
  EXPECT_EQ(row.rfind("0,4294967295,0,0,aclnnAdd_AddAiCore_Add,Add,N/A,AI_VECTOR_CORE,0.000,1.000,"
                      "0.000,1,0,N/A,\"4,1024;1024\",FLOAT16;FLOAT16,ND;ND,\"4,1024\",FLOAT16,"
                      "N/A,N/A,N/A,",
                      0),
            0u)
      << row;
}

// op_statistic: per device, OP Type and Core Type: count, total, min, avg, max and the share of
// the device's time; the largest total first.
TEST(OpSummary, OpStatisticGroupsByTypeAndCore) {
  auto rec = [](std::uint32_t device, const char* type, const char* core, SimTime us) {
    KernelRecord r;
    r.device = device;
    r.name = std::string("k_") + type;
    r.op_type = type;
    r.task_type = core;
    r.start = 100 * kUs;
    r.end = r.start + us * kUs;
    return r;
  };
  const std::string csv = op_statistic_csv({rec(0, "Add", "AI_VECTOR_CORE", 1),
                                            rec(0, "MatMul", "AI_CORE", 6),
                                            rec(0, "Add", "AI_VECTOR_CORE", 3),
                                            rec(1, "Add", "AI_VECTOR_CORE", 2)});
  EXPECT_EQ(csv,
            "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),"
            "Max Time(us),Ratio(%)\n"
            "0,MatMul,AI_CORE,1,6.000,6.000,6.000,6.000,60.000\n"
            "0,Add,AI_VECTOR_CORE,2,4.000,1.000,2.000,3.000,40.000\n"
            "1,Add,AI_VECTOR_CORE,1,2.000,2.000,2.000,2.000,100.000\n");
}

}  // namespace
}  // namespace npusim::models
