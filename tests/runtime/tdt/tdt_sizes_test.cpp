// SPDX-License-Identifier: Apache-2.0
// Size arguments of the TDT calls (issue 23, item 13): a size that runs past the end of the
// address space (SIZE_MAX) or bytes for a queue or channel larger than the device's memory are
// ACL_ERROR_INVALID_PARAM with a message naming the argument, never the C++ library's exception
// text under ACL_ERROR_RT_INTERNAL_ERROR (acltdtEnqueueData with SIZE_MAX used to return 507000,
// "cannot create std::vector larger than max_size()"). Nothing is queued by a refused call.
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr std::size_t kHuge = std::size_t{1} << 62;  // no wrap from a host address; > 64 GiB

std::string message() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr ? std::string() : std::string(m);
}

using TdtSizesTest = DeviceTest;

TEST_F(TdtSizesTest, QueueCallsRefuseSizesNoBufferHas) {
  uint32_t qid = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
  std::vector<unsigned char> buf(16, 7);
  EXPECT_EQ(acltdtEnqueueData(qid, buf.data(), SIZE_MAX, nullptr, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(message().find("dataSize 18446744073709551615 is not the size of a buffer"),
            std::string::npos)
      << message();
  EXPECT_EQ(acltdtEnqueueData(qid, buf.data(), kHuge, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(message().find("more than the device memory"), std::string::npos) << message();
  // A refused dequeue leaves the entry queued.
  ASSERT_EQ(acltdtEnqueueData(qid, buf.data(), 16, nullptr, 0, 0, 0), ACL_SUCCESS);
  size_t got = 0;
  std::vector<unsigned char> out(16, 0);
  EXPECT_EQ(acltdtDequeueData(qid, out.data(), SIZE_MAX, &got, nullptr, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(message().find("dataSize 18446744073709551615"), std::string::npos) << message();
  ASSERT_EQ(acltdtDequeueData(qid, out.data(), out.size(), &got, nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(got, 16u);
  EXPECT_EQ(out, buf);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

TEST_F(TdtSizesTest, ChannelCallsRefuseSizesNoBufferHas) {
  std::vector<float> values(4, 1.5f);
  const int64_t dims[1] = {4};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, values.data(),
                                 SIZE_MAX),
            nullptr);
  EXPECT_NE(message().find("size 18446744073709551615 is not the size of a buffer"),
            std::string::npos)
      << message();
  // An item that claims more bytes than the device holds is refused when sent.
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT,
                                              values.data(), kHuge);
  ASSERT_NE(item, nullptr);
  acltdtDataset* d = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(d, item), ACL_SUCCESS);
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "sizes", 4);
  ASSERT_NE(ch, nullptr);
  EXPECT_EQ(acltdtSendTensor(ch, d, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(message().find("an item of the dataset is 4611686018427387904 bytes, more than the "
                           "device memory"),
            std::string::npos)
      << message();
  size_t queued = 99;
  ASSERT_EQ(acltdtQueryChannelSize(ch, &queued), ACL_SUCCESS);
  EXPECT_EQ(queued, 0u);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(d), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
