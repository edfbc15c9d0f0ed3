// SPDX-License-Identifier: Apache-2.0
// Runtime behaviour seen from a real program: SoC name before aclInit, misuse error codes, a wait
// that can never finish reported as an error (not a hang), host threads with their own streams.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "e2e_common.h"

namespace {

void worker(int id, int* result) {
  E2E_CHECK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  E2E_CHECK(aclrtCreateStream(&s));
  constexpr size_t kBytes = 1u << 20;
  std::vector<unsigned char> src(kBytes, static_cast<unsigned char>(id + 1)), dst(kBytes, 0);
  void* dev = nullptr;
  E2E_CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  for (int i = 0; i < 20; ++i) {
    E2E_CHECK(aclrtMemcpyAsync(dev, kBytes, src.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    E2E_CHECK(aclrtMemcpyAsync(dst.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
  }
  E2E_CHECK(aclrtSynchronizeStream(s));
  *result = (dst == src) ? 1 : 0;
  E2E_CHECK(aclrtFree(dev));
  E2E_CHECK(aclrtDestroyStream(s));
}

}  // namespace

int main() {
  const char* soc = aclrtGetSocName();  // works before aclInit
  E2E_EXPECT(soc != nullptr && std::string(soc).rfind("Ascend", 0) == 0);
  std::printf("soc before aclInit: %s\n", soc);

  E2E_CHECK(aclInit(nullptr));
  E2E_CHECK(aclrtSetDevice(0));

  // Misuse gets the documented codes.
  void* dev = nullptr;
  E2E_EXPECT(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  E2E_EXPECT(aclrtMalloc(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_INVALID_PARAM);
  E2E_CHECK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  char host[512] = {0};
  E2E_EXPECT(aclrtMemcpy(dev, 128, host, 256, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_RT_PARAM_INVALID);
  E2E_EXPECT(aclrtMemcpy(dev, 256, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  E2E_EXPECT(aclrtFree(nullptr) == ACL_ERROR_INVALID_PARAM);
  E2E_CHECK(aclrtFree(dev));
  E2E_EXPECT(aclrtFree(dev) != ACL_SUCCESS);  // double free is reported
  aclrtRunMode mode;
  E2E_EXPECT(aclrtGetRunMode(nullptr) != ACL_SUCCESS);
  E2E_CHECK(aclrtGetRunMode(&mode));
  E2E_EXPECT(mode == ACL_HOST);

  // A wait that can never finish is reported, not hung: nobody ever writes the value.
  void* flag = nullptr;
  E2E_CHECK(aclrtMalloc(&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  E2E_CHECK(aclrtMemset(flag, 64, 0, 64));
  aclrtStream s = nullptr;
  E2E_CHECK(aclrtCreateStream(&s));
  E2E_CHECK(aclrtValueWait(flag, 42, ACL_STREAM_WAIT_VALUE_EQ, s));
  aclError err = aclrtSynchronizeStream(s);
  std::printf("synchronize on a never-satisfied wait: %d\n", err);
  E2E_EXPECT(err != ACL_SUCCESS);
  // A timed synchronize returns the documented timeout code in simulated time.
  E2E_EXPECT(aclrtSynchronizeStreamWithTimeout(s, 10) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  E2E_CHECK(aclrtDestroyStreamForce(s));

  // Host threads, each with its own stream.
  int ok[2] = {0, 0};
  std::thread t0(worker, 0, &ok[0]), t1(worker, 1, &ok[1]);
  t0.join();
  t1.join();
  E2E_EXPECT(ok[0] == 1 && ok[1] == 1);

  E2E_CHECK(aclrtResetDeviceForce(0));
  E2E_CHECK(aclFinalize());
  E2E_CHECK(aclInit(nullptr));  // init → finalize → init works
  E2E_CHECK(aclFinalize());
  std::printf("PASS api_misc\n");
  return 0;
}
