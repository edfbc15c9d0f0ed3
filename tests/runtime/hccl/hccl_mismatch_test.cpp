// SPDX-License-Identifier: Apache-2.0
// Ranks that call one collective with different arguments (issue 23, item 9): a count, data type,
// reduction or root that differs between ranks fails every rank's copies when they run (reported
// by synchronising the stream, ACL_ERROR_RT_DEVICE_MEM_ERROR as for the other cross-rank
// mismatches, and logged), nothing is written, and no rank hangs or crashes (an AllReduce with
// counts 8 and 4096 used to end the process with SIGSEGV in the copy task).
#include "hccl/hccl.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "runtime/core/runtime.h"
#include "tests/runtime/hccl/hccl_support.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

struct Args {
  std::uint64_t count = 8;
  HcclDataType type = HCCL_DATA_TYPE_FP32;
  HcclReduceOp op = HCCL_REDUCE_SUM;
  std::uint32_t root = 0;
};

enum class Coll { kAllReduce, kBroadcast, kAllGather, kReduceScatter, kReduce, kScatter };

class HcclMismatchTest : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.num_devices = 2;
    config.hccl.ring_threshold.value = 1024;  // 256 floats and more: the ring
  }

  HcclResult call(Coll coll, const Args& a, void* send, void* recv, HcclComm comm,
                  aclrtStream s) {
    switch (coll) {
      case Coll::kAllReduce: return HcclAllReduce(send, recv, a.count, a.type, a.op, comm, s);
      case Coll::kBroadcast: return HcclBroadcast(send, a.count, a.type, a.root, comm, s);
      case Coll::kAllGather: return HcclAllGather(send, recv, a.count, a.type, comm, s);
      case Coll::kReduceScatter:
        return HcclReduceScatter(send, recv, a.count, a.type, a.op, comm, s);
      case Coll::kReduce: return HcclReduce(send, recv, a.count, a.type, a.op, a.root, comm, s);
      case Coll::kScatter: return HcclScatter(send, recv, a.count, a.type, a.root, comm, s);
    }
    return HCCL_E_INTERNAL;
  }

  // Two ranks (rank r on device r) call `coll` with args[r]; buffers of 4096 elements of 8 bytes
  // hold every shape used here. Returns what synchronising each rank's stream returned; expects
  // the receive buffer of a rank that failed untouched.
  std::vector<aclError> run(Coll coll, const Args (&args)[2]) {
    const std::size_t bytes = 4096 * 8;
    const std::vector<unsigned char> ones(bytes, 1), marks(bytes, 0xEE);
    void* send[2] = {};
    void* recv[2] = {};
    return run_ranks_sync(
        2,
        [&](Rank& r) {
          send[r.id] = to_device(ones);
          recv[r.id] = to_device(marks);
          ASSERT_EQ(call(coll, args[r.id], send[r.id], recv[r.id], r.comm, r.stream), HCCL_SUCCESS);
        },
        [&](Rank& r) {
          if (r.sync != ACL_SUCCESS && coll != Coll::kBroadcast) {
            EXPECT_EQ(to_host<unsigned char>(recv[r.id], bytes), marks)
                << "rank " << r.id << " failed but wrote recvBuf";
          }
          aclrtFree(send[r.id]);
          aclrtFree(recv[r.id]);
        });
  }
};

const std::vector<aclError> kBothFail = {ACL_ERROR_RT_DEVICE_MEM_ERROR,
                                         ACL_ERROR_RT_DEVICE_MEM_ERROR};

TEST_F(HcclMismatchTest, AllReduceWithDifferentCountsFailsEveryRank) {
  Args a[2];
  a[1].count = 200;  // both below the ring threshold: mesh
  EXPECT_EQ(run(Coll::kAllReduce, a), kBothFail);
}

TEST_F(HcclMismatchTest, AllReduceMeshAgainstRingFailsWithoutAHang) {
  Args a[2];
  a[1].count = 4096;  // rank 0 plans the mesh, rank 1 the ring
  EXPECT_EQ(run(Coll::kAllReduce, a), kBothFail);
  Args b[2];
  b[0].count = b[1].count = 1024;  // both ring, counts equal, types differ
  b[1].type = HCCL_DATA_TYPE_INT32;
  EXPECT_EQ(run(Coll::kAllReduce, b), kBothFail);
}

TEST_F(HcclMismatchTest, AllReduceWithDifferentTypesOrOpsFailsEveryRank) {
  Args a[2];
  a[1].type = HCCL_DATA_TYPE_INT64;
  EXPECT_EQ(run(Coll::kAllReduce, a), kBothFail);
  Args b[2];
  b[1].op = HCCL_REDUCE_MAX;
  EXPECT_EQ(run(Coll::kAllReduce, b), kBothFail);
}

TEST_F(HcclMismatchTest, OtherCollectivesWithDifferentArgumentsFail) {
  Args counts[2];
  counts[1].count = 16;
  EXPECT_EQ(run(Coll::kAllGather, counts), kBothFail);
  EXPECT_EQ(run(Coll::kReduceScatter, counts), kBothFail);
  // Rooted collectives: only the ranks that read fail (the root of a broadcast reads nothing,
  // nor does a rank of a reduce but the root).
  EXPECT_EQ(run(Coll::kReduce, counts)[0], ACL_ERROR_RT_DEVICE_MEM_ERROR);
  EXPECT_EQ(run(Coll::kBroadcast, counts)[1], ACL_ERROR_RT_DEVICE_MEM_ERROR);
  Args roots[2];
  roots[1].root = 1;
  EXPECT_EQ(run(Coll::kScatter, roots)[0], ACL_ERROR_RT_DEVICE_MEM_ERROR);
}

TEST_F(HcclMismatchTest, RanksThatAgreeStillSucceed) {
  Args a[2];
  EXPECT_EQ(run(Coll::kAllReduce, a), std::vector<aclError>(2, ACL_SUCCESS));
  a[0].count = a[1].count = 1024;  // the ring
  EXPECT_EQ(run(Coll::kAllReduce, a), std::vector<aclError>(2, ACL_SUCCESS));
  a[0].root = a[1].root = 1;
  EXPECT_EQ(run(Coll::kReduce, a), std::vector<aclError>(2, ACL_SUCCESS));
}

}  // namespace
}  // namespace npusim::rt::testing
