// SPDX-License-Identifier: Apache-2.0
// Shared by the HCCL tests: ranks in host threads (rank r on device r), device buffers.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace npusim::rt::testing {

struct Rank {
  std::uint32_t id = 0;
  std::uint32_t n = 0;
  HcclComm comm = nullptr;
  aclrtStream stream = nullptr;
  aclError sync = ACL_SUCCESS;  // what synchronising the stream after the body returned
};

// Device buffer with host contents.
template <class T>
void* to_device(const std::vector<T>& host) {
  void* dev = nullptr;
  const std::size_t bytes = std::max<std::size_t>(host.size() * sizeof(T), 1);
  EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  if (!host.empty()) {
    EXPECT_EQ(aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  return dev;
}

template <class T>
std::vector<T> to_host(const void* dev, std::size_t count) {
  std::vector<T> host(count);
  if (count > 0) {
    EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(T), dev, count * sizeof(T),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  }
  return host;
}

using RankBody = std::function<void(Rank&)>;

// Runs `body` on n ranks, one host thread each (rank r on device r), after
// HcclCommInitRootInfo; synchronises the stream, runs `after` (if any) and destroys the
// communicator and the stream. Returns what synchronising each rank's stream returned.
inline std::vector<aclError> run_ranks_sync(std::uint32_t n, const RankBody& body,
                                            const RankBody& after = {}) {
  std::vector<aclError> sync(n, ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclRootInfo root;
  EXPECT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      Rank rank;
      rank.id = r;
      rank.n = n;
      ASSERT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
      ASSERT_EQ(HcclCommInitRootInfo(n, &root, r, &rank.comm), HCCL_SUCCESS);
      ASSERT_EQ(aclrtCreateStream(&rank.stream), ACL_SUCCESS);
      body(rank);
      sync[r] = rank.sync = aclrtSynchronizeStream(rank.stream);
      if (after) after(rank);
      EXPECT_EQ(HcclCommDestroy(rank.comm), HCCL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(rank.stream), ACL_SUCCESS);
    });
  }
  for (auto& t : threads) t.join();
  return sync;
}

}  // namespace npusim::rt::testing
