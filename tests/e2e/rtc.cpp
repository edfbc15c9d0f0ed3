// SPDX-License-Identifier: Apache-2.0
// aclrtc through the installed tree: a template kernel (commas in its template arguments)
// compiled at run time by bin/npusim-asc, its lowered name a mangled C++ name, loaded with
// aclrtBinaryLoadFromData and launched; a compile error is ACL_ERROR_RTC_COMPILATION with the
// compiler's message in the log.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"

#define CHECK(x)                                                            \
  do {                                                                      \
    const int rc_ = (x);                                                    \
    if (rc_ != 0) {                                                         \
      std::fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, rc_); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

static const char* kSource = R"(
#include "kernel_operator.h"
namespace ns {
template <class T, int Factor>
__global__ __vector__ void scale(GM_ADDR x) {
  auto* p = reinterpret_cast<__gm__ T*>(x) + AscendC::GetBlockIdx();
  *p = *p * Factor;
}
}  // namespace ns
)";

static std::string compile_log(aclrtcProg prog) {
  size_t size = 0;
  aclrtcGetCompileLogSize(prog, &size);
  std::vector<char> log(size);
  aclrtcGetCompileLog(prog, log.data());
  return log.data();
}

int main() {
  aclrtcProg bad = nullptr;
  CHECK(aclrtcCreateProg(&bad, "__global__ void broken( {", "broken", 0, nullptr, nullptr));
  if (aclrtcCompileProg(bad, 0, nullptr) != ACL_ERROR_RTC_COMPILATION ||
      compile_log(bad).find("broken.asc:1:") == std::string::npos) {
    std::fprintf(stderr, "compile error not reported: %s\n", compile_log(bad).c_str());
    return 1;
  }
  CHECK(aclrtcDestroyProg(&bad));

  aclrtcProg prog = nullptr;
  const char* expr = "ns::scale<int, 3>";
  const char* options[] = {"--npu-arch=dav-2201"};
  CHECK(aclrtcCreateProg(&prog, kSource, "scale", 0, nullptr, nullptr));
  CHECK(aclrtcAddNameExpr(prog, expr));
  CHECK(aclrtcCompileProg(prog, 1, options));
  const char* lowered = nullptr;
  CHECK(aclrtcGetLoweredName(prog, expr, &lowered));
  if (std::strcmp(lowered, "_ZN2ns5scaleIiLi3EEEvPh") != 0) {
    std::fprintf(stderr, "lowered name %s\n", lowered);
    return 1;
  }
  size_t size = 0;
  CHECK(aclrtcGetBinDataSize(prog, &size));
  std::vector<char> bin(size);
  CHECK(aclrtcGetBinData(prog, bin.data()));

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  aclrtBinaryLoadOption option;
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
  aclrtBinaryLoadOptions load{&option, 1};
  aclrtBinHandle binary = nullptr;
  CHECK(aclrtBinaryLoadFromData(bin.data(), size, &load, &binary));
  aclrtFuncHandle fn = nullptr;
  CHECK(aclrtBinaryGetFunction(binary, lowered, &fn));
  int host[4] = {1, 2, 3, 4};
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
  void* args[] = {&dev};
  CHECK(aclrtLaunchKernelWithArgsArray(fn, 4, stream, nullptr, args));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(host, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 4; ++i) {
    if (host[i] != 3 * (i + 1)) {
      std::fprintf(stderr, "x[%d] = %d\n", i, host[i]);
      return 1;
    }
  }
  CHECK(aclrtBinaryUnLoad(binary));
  CHECK(aclrtFree(dev));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  CHECK(aclrtcDestroyProg(&prog));
  std::printf("rtc ok\n");
  return 0;
}
