// SPDX-License-Identifier: Apache-2.0
// Profiling, mstx and securec from a real program linked as CANN programs link them
// (-lmsprofiler -lc_sec -lascendcl -lopapi): markers and ranges around a copy, a session under
// aclprofInit with an operator in it (its op_summary row), securec's checked copies.
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl_prof.h"
#include "aclnnop/aclnn_add.h"
#include "e2e_common.h"
#include "mstx/ms_tools_ext.h"
#include "securec.h"

int main() {
  aclrtStream stream = e2e_open(0);
  const char path[] = "prof";
  E2E_CHECK(aclprofInit(path, sizeof path - 1));
  uint32_t devices[1] = {0};
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                                              ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  E2E_EXPECT(config != nullptr);
  E2E_CHECK(aclprofStart(config));

  mstxDomainHandle_t domain = mstxDomainCreateA("copies");
  mstxMarkA("begin", stream);
  const mstxRangeId range = mstxDomainRangeStartA(domain, "h2d", stream);
  constexpr size_t kBytes = 1u << 20;
  std::vector<unsigned char> host(kBytes, 7), back(kBytes, 0);
  void* dev = nullptr;
  E2E_CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  E2E_CHECK(aclrtMemcpy(dev, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  mstxDomainRangeEnd(domain, range);
  void* stamp = aclprofCreateStamp();
  E2E_CHECK(aclprofSetStampTraceMessage(stamp, "d2h", 3));
  E2E_CHECK(aclprofPush(stamp));
  E2E_CHECK(aclrtMemcpy(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  E2E_CHECK(aclprofPop());
  aclprofDestroyStamp(stamp);
  mstxDomainDestroy(domain);
  E2E_EXPECT(back == host);

  // securec: a checked copy that fits, one that does not (the destination is cleared).
  char small[8];
  E2E_EXPECT(memcpy_s(small, sizeof small, "abcdefg", 8) == EOK);
  E2E_EXPECT(strcpy_s(small, sizeof small, "far too long") == ERANGE_AND_RESET);
  E2E_EXPECT(small[0] == '\0');
  E2E_EXPECT(sprintf_s(small, sizeof small, "%d", 1234) == 4);

  // out = a + b on a 16 x 64 FLOAT16 matrix: a row of op_summary with its shapes.
  std::int64_t shape[2] = {16, 64};
  auto* base = static_cast<unsigned char*>(dev);
  aclTensor* a = aclCreateTensor(shape, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape, 2, base);
  aclTensor* out =
      aclCreateTensor(shape, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape, 2, base + 4096);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(aclnnAddGetWorkspaceSize(a, a, alpha, out, &ws, &ex));
  E2E_CHECK(aclnnAdd(nullptr, 0, ex, stream));
  E2E_CHECK(aclrtSynchronizeStream(stream));
  aclDestroyScalar(alpha);
  aclDestroyTensor(a);
  aclDestroyTensor(out);
  E2E_CHECK(aclprofStop(config));
  E2E_CHECK(aclprofDestroyConfig(config));
  E2E_CHECK(aclprofFinalize());
  e2e_free({dev});
  e2e_close(stream, 0);
  std::printf("profiling ok\n");
  return 0;
}
