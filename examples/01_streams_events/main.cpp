// SPDX-License-Identifier: Apache-2.0
// Two streams and events: ordering across streams and timing in simulated time.
//
// Stream "upload" copies a buffer to the device and records an event when the copy is done.
// Stream "work" waits for that event (aclrtStreamWaitEvent) before it reads the buffer, so its
// device-to-device copy and the copy back can never run ahead of the upload, even though the
// host queued them all at once without synchronizing. Meanwhile an independent download on the
// "work" stream, queued before the wait, overlaps the upload: the PCIe link is full duplex.
// Events with ACL_EVENT_TIME_LINE time each phase with aclrtEventElapsedTime. Under npusim every
// time is simulated (the modelled chip's time, not the host's), so the figures are the same on
// every run and every machine.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

namespace {

constexpr size_t kBytes = 16u << 20;  // 16 MiB per copy

aclrtEvent timing_event() {
  aclrtEvent e = nullptr;
  CHECK(aclrtCreateEventWithFlag(&e, ACL_EVENT_TIME_LINE));  // an event that can be timed
  return e;
}

float elapsed_ms(aclrtEvent start, aclrtEvent end) {
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  return ms;
}

void* device_buffer() {
  void* p = nullptr;
  CHECK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  return p;
}

void* pinned_buffer() {  // page-locked host memory: asynchronous copies need it to overlap
  void* p = nullptr;
  CHECK(aclrtMallocHost(&p, kBytes));
  return p;
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  std::printf("device 0: %s\n", aclrtGetSocName());

  aclrtStream upload = nullptr, work = nullptr;
  CHECK(aclrtCreateStream(&upload));
  CHECK(aclrtCreateStream(&work));

  auto* input = static_cast<unsigned char*>(pinned_buffer());
  auto* result = static_cast<unsigned char*>(pinned_buffer());
  auto* old_data = static_cast<unsigned char*>(pinned_buffer());
  for (size_t i = 0; i < kBytes; ++i) input[i] = static_cast<unsigned char>(i * 31 + 7);
  std::memset(result, 0, kBytes);
  void* dev_in = device_buffer();
  void* dev_copy = device_buffer();
  void* dev_old = device_buffer();
  CHECK(aclrtMemset(dev_old, kBytes, 0x42, kBytes));  // synchronous: done before we go on

  aclrtEvent up_start = timing_event(), up_done = timing_event();
  aclrtEvent down_start = timing_event(), down_done = timing_event(), all_done = timing_event();

  // Stream "upload": host -> device, then mark the data as ready.
  CHECK(aclrtRecordEvent(up_start, upload));
  CHECK(aclrtMemcpyAsync(dev_in, kBytes, input, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, upload));
  CHECK(aclrtRecordEvent(up_done, upload));

  // Stream "work": a download that does not need the upload runs at the same time ...
  CHECK(aclrtRecordEvent(down_start, work));
  CHECK(aclrtMemcpyAsync(old_data, kBytes, dev_old, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, work));
  CHECK(aclrtRecordEvent(down_done, work));
  // ... then the stream waits (on the device, the host does not block) for the upload, and
  // only then copies the uploaded buffer on the device and brings the copy back.
  CHECK(aclrtStreamWaitEvent(work, up_done));
  CHECK(aclrtMemcpyAsync(dev_copy, kBytes, dev_in, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, work));
  CHECK(aclrtMemcpyAsync(result, kBytes, dev_copy, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, work));
  CHECK(aclrtRecordEvent(all_done, work));

  CHECK(aclrtSynchronizeStream(work));  // the host waits here; npusim simulates until then

  const bool ordered = std::memcmp(result, input, kBytes) == 0;
  const bool old_ok = old_data[0] == 0x42 && old_data[kBytes - 1] == 0x42;
  const float up = elapsed_ms(up_start, up_done), down = elapsed_ms(down_start, down_done);
  const float total = elapsed_ms(up_start, all_done);
  std::printf("upload   (stream upload, 16 MiB H2D):  %.3f ms\n", up);
  std::printf("download (stream work,   16 MiB D2H):  %.3f ms\n", down);
  std::printf("upload and download overlap: %s\n",
              elapsed_ms(up_start, down_done) < up + down ? "yes" : "no");
  std::printf("upload start -> result back (D2D + D2H after the wait): %.3f ms\n", total);
  std::printf("the work stream waited for the upload: %s\n", ordered ? "yes (data OK)" : "NO");
  std::printf("download data: %s\n", old_ok ? "OK" : "WRONG");

  for (aclrtEvent e : {up_start, up_done, down_start, down_done, all_done})
    CHECK(aclrtDestroyEvent(e));
  for (void* p : {dev_in, dev_copy, dev_old}) CHECK(aclrtFree(p));
  for (void* p : {static_cast<void*>(input), static_cast<void*>(result),
                  static_cast<void*>(old_data)})
    CHECK(aclrtFreeHost(p));
  CHECK(aclrtDestroyStream(upload));
  CHECK(aclrtDestroyStream(work));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return ordered && old_ok ? 0 : 1;
}
