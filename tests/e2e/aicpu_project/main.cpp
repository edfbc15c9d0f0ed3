// SPDX-License-Identifier: Apache-2.0
// Loads the AI CPU kernels from their operator information file and launches them on a stream:
// with an argument list (aclrtKernelArgs*) and with one host argument block, checks the results
// and the failing kernel's error, and prints the simulated time of the launches.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../e2e_common.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "index_args.h"

#define CHECK(expr) E2E_CHECK(expr)

int main(int argc, char** argv) {
  const std::string json = argc > 1 ? argv[1] : "libindex_aicpu_kernel.json";
  const std::uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  aclrtStream stream = e2e_open(0);

  aclrtBinaryLoadOption option;
  option.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  option.value.cpuKernelMode = 1;
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle bin = nullptr;
  CHECK(aclrtBinaryLoadFromFile(json.c_str(), &options, &bin));
  aclrtFuncHandle func = nullptr;
  CHECK(aclrtBinaryGetFunction(bin, "NonZeroIndex", &func));

  std::vector<float> host(n);
  std::vector<std::int64_t> expect;
  for (std::uint64_t i = 0; i < n; ++i) {
    host[i] = (i % 3 == 0 || i % 7 == 0) ? static_cast<float>(i) + 1.0f : 0.0f;
    if (host[i] != 0.0f) expect.push_back(static_cast<std::int64_t>(i));
  }
  void *in = nullptr, *idx = nullptr, *cnt = nullptr;
  CHECK(aclrtMalloc(&in, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&idx, n * sizeof(std::int64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&cnt, sizeof(std::int64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(in, n * sizeof(float), host.data(), n * sizeof(float),
                    ACL_MEMCPY_HOST_TO_DEVICE));

  // 1. An argument list, as the HCCL custom-op examples launch theirs.
  NonZeroArgs args{static_cast<const float*>(in), static_cast<std::int64_t*>(idx),
                   static_cast<std::int64_t*>(cnt), n};
  aclrtArgsHandle list = nullptr;
  aclrtParamHandle param = nullptr;
  CHECK(aclrtKernelArgsInit(func, &list));
  CHECK(aclrtKernelArgsAppend(list, &args, sizeof args, &param));
  CHECK(aclrtKernelArgsFinalize(list));
  CHECK(aclrtLaunchKernelWithConfig(func, 1, stream, nullptr, list, nullptr));
  CHECK(aclrtSynchronizeStream(stream));
  std::int64_t count = -1;
  std::vector<std::int64_t> got(n);
  CHECK(aclrtMemcpy(&count, sizeof count, cnt, sizeof count, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK(aclrtMemcpy(got.data(), n * sizeof(std::int64_t), idx, n * sizeof(std::int64_t),
                    ACL_MEMCPY_DEVICE_TO_HOST));
  if (count != static_cast<std::int64_t>(expect.size())) {
    std::printf("FAIL count %lld, expected %zu\n", static_cast<long long>(count), expect.size());
    return 1;
  }
  for (std::size_t i = 0; i < expect.size(); ++i) {
    if (got[i] != expect[i]) {
      std::printf("FAIL index %zu: %lld, expected %lld\n", i, static_cast<long long>(got[i]),
                  static_cast<long long>(expect[i]));
      return 1;
    }
  }

  // 2. One host argument block, twice on the stream (two AI CPU tasks in order).
  CHECK(aclrtMemset(cnt, sizeof(std::int64_t), 0, sizeof(std::int64_t)));
  CHECK(aclrtLaunchKernelWithHostArgs(func, 1, stream, nullptr, &args, sizeof args, nullptr, 0));
  CHECK(aclrtLaunchKernelWithHostArgs(func, 1, stream, nullptr, &args, sizeof args, nullptr, 0));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(&count, sizeof count, cnt, sizeof count, ACL_MEMCPY_DEVICE_TO_HOST));
  if (count != static_cast<std::int64_t>(expect.size())) {
    std::printf("FAIL host-args count %lld\n", static_cast<long long>(count));
    return 1;
  }

  // 3. An operator CANN runs on the AI CPU: aclnnIndexPutImpl scatters the found indices' values
  //    back, doubled (accumulate), into a copy of the input.
  {
    const std::int64_t len = static_cast<std::int64_t>(n), found = count;
    aclTensor* self = aclCreateTensor(&len, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &len, 1, in);
    aclTensor* index =
        aclCreateTensor(&found, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, &found, 1, idx);
    std::vector<float> add(expect.size());
    for (std::size_t i = 0; i < expect.size(); ++i) add[i] = host[expect[i]];
    void* vals = nullptr;
    CHECK(aclrtMalloc(&vals, add.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(vals, add.size() * sizeof(float), add.data(), add.size() * sizeof(float),
                      ACL_MEMCPY_HOST_TO_DEVICE));
    aclTensor* values =
        aclCreateTensor(&found, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &found, 1, vals);
    aclTensorList* indices = aclCreateTensorList(&index, 1);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (aclnnIndexPutImplGetWorkspaceSize(self, indices, values, true, false, &ws, &ex) != 0 ||
        aclnnIndexPutImpl(nullptr, 0, ex, stream) != 0) {
      std::printf("FAIL aclnnIndexPutImpl\n");
      return 1;
    }
    CHECK(aclrtSynchronizeStream(stream));
    std::vector<float> doubled(n);
    CHECK(aclrtMemcpy(doubled.data(), n * sizeof(float), in, n * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST));
    for (std::uint64_t i = 0; i < n; ++i) {
      if (doubled[i] != 2 * host[i]) {
        std::printf("FAIL IndexPut element %llu: %f\n", static_cast<unsigned long long>(i),
                    doubled[i]);
        return 1;
      }
    }
    aclDestroyTensor(self);
    aclDestroyTensor(values);
    aclDestroyTensorList(indices);
    CHECK(aclrtFree(vals));
  }

  // 4. A kernel returning non-zero ends its task with ACL_ERROR_RT_AICPU_EXCEPTION.
  aclrtFuncHandle failing = nullptr;
  CHECK(aclrtBinaryGetFunction(bin, "FailingOp", &failing));
  CHECK(aclrtLaunchKernelWithHostArgs(failing, 1, stream, nullptr, &args, sizeof args, nullptr, 0));
  const aclError e = aclrtSynchronizeStream(stream);
  if (e != ACL_ERROR_RT_AICPU_EXCEPTION) {
    std::printf("FAIL failing kernel: %d, expected %d\n", e, ACL_ERROR_RT_AICPU_EXCEPTION);
    return 1;
  }

  CHECK(aclrtBinaryUnLoad(bin));
  e2e_free({in, idx, cnt});
  e2e_close(stream, 0);
  std::printf("[SUCCESS] AI CPU NonZeroIndex: %lld of %llu elements\n",
              static_cast<long long>(expect.size()), static_cast<unsigned long long>(n));
  return 0;
}
