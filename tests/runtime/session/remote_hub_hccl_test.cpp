// SPDX-License-Identifier: Apache-2.0
// The session hub's HCCL domains (runtime/session/hub.h), driven frame by frame: registration,
// the rendezvous (member list once every rank joined, the join errors), the device-arena fds,
// and the posts held until every member process is blocked (the quiescent point that keeps
// processes' simulated times independent of the order frames arrive in).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "runtime/hccl/hub_domains.h"
#include "runtime/session/hub.h"

namespace npusim::rt::remote {
namespace {

class HubHccl : public ::testing::Test {
 protected:
  static constexpr int kA = 11;  // client sockets
  static constexpr int kB = 12;
  static constexpr int kC = 13;

  void SetUp() override {
    hccl::add_hub_domains(hub_);  // the HCCL library's part of the server (issue 22)
    hub_.joined(kA, 100, "a");
    hub_.joined(kB, 200, "b");
    hub_.joined(kC, 300, "c");
  }
  std::vector<Outgoing> send(int client, FrameType type, const WireOut& w, int fd = -1) {
    std::vector<Outgoing> out;
    hub_.frame(client, {type, w.bytes()}, fd, out);
    return out;
  }
  std::uint64_t new_domain(int client) {
    WireOut w;
    auto out = send(client, FrameType::kHcclDomain, w.u64(7));
    EXPECT_EQ(out.size(), 1u);
    WireIn in(out[0].frame.payload);
    EXPECT_EQ(in.u64(), 7u);  // the request id
    EXPECT_EQ(in.u8(), 0);
    return in.u64();
  }
  // Joins; returns the frames out and stores the reply's status and error.
  std::vector<Outgoing> join(int client, std::uint64_t id, std::uint64_t nranks,
                             std::uint64_t rank, std::uint64_t device, int fd = -1) {
    WireOut w;
    w.u64(9).u64(id).u64(nranks).u64(rank).u64(device);
    auto out = send(client, FrameType::kHcclJoin, w, fd);
    EXPECT_FALSE(out.empty());
    EXPECT_EQ(out[0].client, client);
    EXPECT_EQ(out[0].frame.type, FrameType::kReply);
    WireIn in(out[0].frame.payload);
    in.u64();
    status_ = in.u8();
    error_ = in.str();
    return out;
  }
  std::vector<Outgoing> blocked(int client, std::uint64_t seen) {
    WireOut w;
    return send(client, FrameType::kBlocked, w.u64(seen));
  }
  std::vector<Outgoing> post(int client, std::uint64_t id, const std::string& body) {
    WireOut w;
    w.u64(id).u8(1).u64(0);
    std::vector<Outgoing> out;
    hub_.frame(client, {FrameType::kHcclPost, w.bytes() + body}, -1, out);
    return out;
  }

  Hub hub_;
  std::uint8_t status_ = 0;
  std::string error_;
};

TEST_F(HubHccl, MembersGoToEveryProcessOnceEveryRankJoined) {
  const std::uint64_t id = new_domain(kA);
  EXPECT_NE(id, 0u);
  EXPECT_EQ(join(kA, id, 3, 0, 0).size(), 1u);  // the reply only
  EXPECT_EQ(status_, 0);
  EXPECT_EQ(join(kB, id, 3, 2, 5).size(), 1u);
  auto out = join(kC, id, 3, 1, 4);
  EXPECT_EQ(status_, 0);
  ASSERT_EQ(out.size(), 4u);  // the reply, then the member list to each of the three processes
  std::vector<int> to;
  for (std::size_t i = 1; i < out.size(); ++i) {
    EXPECT_EQ(out[i].frame.type, FrameType::kHcclMembers);
    to.push_back(out[i].client);
    WireIn in(out[i].frame.payload);
    EXPECT_EQ(in.u64(), id);
    EXPECT_EQ(in.u64(), 3u);
    EXPECT_EQ(in.u64(), 0u);  // rank 0: device 0, pid 100
    EXPECT_EQ(in.i32(), 100);
    EXPECT_EQ(in.u64(), 4u);  // rank 1: device 4, pid 300
    EXPECT_EQ(in.i32(), 300);
    EXPECT_EQ(in.u64(), 5u);  // rank 2: device 5, pid 200
    EXPECT_EQ(in.i32(), 200);
    EXPECT_TRUE(in.ok() && in.done());
  }
  EXPECT_EQ(to, (std::vector<int>{kA, kB, kC}));
}

TEST_F(HubHccl, JoinErrorsSayWhy) {
  join(kA, 999, 2, 0, 0);
  EXPECT_NE(status_, 0);
  EXPECT_NE(error_.find("not known"), std::string::npos) << error_;
  const std::uint64_t id = new_domain(kA);
  join(kA, id, 2, 2, 0);
  EXPECT_NE(status_, 0);
  EXPECT_NE(error_.find("rank 2 is not below nRanks 2"), std::string::npos) << error_;
  join(kA, id, 2, 0, 0);
  EXPECT_EQ(status_, 0);
  join(kB, id, 3, 1, 1);
  EXPECT_NE(status_, 0);
  EXPECT_NE(error_.find("nRanks 3 differs from the 2"), std::string::npos) << error_;
  join(kB, id, 2, 0, 1);
  EXPECT_NE(status_, 0);
  EXPECT_NE(error_.find("rank 0 of the domain has already joined (pid 100)"), std::string::npos)
      << error_;
  join(kB, id, 2, 1, 1);
  EXPECT_EQ(status_, 0);
  join(kC, id, 2, 1, 2);
  EXPECT_NE(status_, 0);
  EXPECT_NE(error_.find("every rank"), std::string::npos) << error_;
}

TEST_F(HubHccl, ArenaFdOfARankIsHandedOut) {
  const std::uint64_t id = new_domain(kA);
  const int fd = memfd_create("arena", 0);
  ASSERT_GE(fd, 0);
  join(kA, id, 2, 0, 0, fd);  // the hub owns it now
  join(kB, id, 2, 1, 1, -1);
  WireOut w;
  auto out = send(kB, FrameType::kHcclArena, w.u64(3).u64(id).u64(0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].pass_fd, fd);
  WireIn in(out[0].frame.payload);
  EXPECT_EQ(in.u64(), 3u);
  EXPECT_EQ(in.u8(), 0);
  WireOut w2;
  out = send(kA, FrameType::kHcclArena, w2.u64(4).u64(id).u64(1));  // rank 1 gave none
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].pass_fd, -1);
  WireIn in2(out[0].frame.payload);
  in2.u64();
  EXPECT_NE(in2.u8(), 0);
}

TEST_F(HubHccl, PostsAreHeldUntilEveryMemberProcessIsBlocked) {
  const std::uint64_t id = new_domain(kA);
  join(kA, id, 2, 0, 0);
  join(kB, id, 2, 1, 1);  // members sent: each process has had one push
  // Process C is no member: whether it is blocked does not matter.
  EXPECT_TRUE(post(kA, id, "flag-a1").empty());
  EXPECT_TRUE(post(kB, id, "flag-b1").empty());
  EXPECT_TRUE(blocked(kA, 1).empty());  // B still runs
  EXPECT_TRUE(blocked(kB, 0).empty());  // stale: B has not seen its member list yet
  auto out = blocked(kB, 1);            // now every member is blocked: both get the other's posts
  ASSERT_EQ(out.size(), 2u);
  for (const Outgoing& o : out) {
    EXPECT_EQ(o.frame.type, FrameType::kHcclBatch);
    WireIn in(o.frame.payload);
    const std::string item = in.str();
    EXPECT_TRUE(in.done());
    const std::string body = o.client == kA ? "flag-b1" : "flag-a1";
    EXPECT_EQ(item.substr(item.size() - body.size()), body);
  }
  // Released posts are gone; the next round waits again for both.
  EXPECT_TRUE(post(kA, id, "flag-a2").empty());
  EXPECT_TRUE(blocked(kA, 2).empty());
  out = blocked(kB, 2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].client, kB);
}

TEST_F(HubHccl, TheProcessThatRegisteredWithoutRanksDoesNotHoldTheRanksBack) {
  const std::uint64_t id = new_domain(kC);  // a launcher: registers, joins no rank
  join(kA, id, 2, 0, 0);
  join(kB, id, 2, 1, 1);
  EXPECT_TRUE(post(kA, id, "a").empty());
  EXPECT_TRUE(blocked(kA, 0).empty());  // A's member list came: a stale block
  EXPECT_TRUE(blocked(kA, 1).empty());
  auto out = blocked(kB, 1);  // C never blocks, yet B gets A's post
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].client, kB);
  EXPECT_EQ(out[0].frame.type, FrameType::kHcclBatch);
}

TEST_F(HubHccl, AProcessThatLeavesNoLongerHoldsTheOthersBack) {
  const std::uint64_t id = new_domain(kA);
  join(kA, id, 3, 0, 0);
  join(kB, id, 3, 1, 1);
  join(kC, id, 3, 2, 2);
  EXPECT_TRUE(post(kA, id, "x").empty());
  EXPECT_TRUE(blocked(kA, 1).empty());
  EXPECT_TRUE(blocked(kB, 1).empty());
  std::vector<Outgoing> out;
  hub_.left(kC, true, out);  // C crashed: B and A hear of it, B gets A's post
  int batches = 0;
  for (const Outgoing& o : out) {
    if (o.frame.type == FrameType::kHcclBatch) {
      ++batches;
      EXPECT_EQ(o.client, kB);
    }
  }
  EXPECT_EQ(batches, 1);
  WireOut w;
  EXPECT_TRUE(send(kA, FrameType::kHcclLeave, w.u64(id)).empty());
  EXPECT_TRUE(post(kB, id, "y").empty());  // nobody left to hear it
  EXPECT_TRUE(blocked(kB, 2).empty());
}

}  // namespace
}  // namespace npusim::rt::remote
