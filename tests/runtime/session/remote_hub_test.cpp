// SPDX-License-Identifier: Apache-2.0
// The session server's state (runtime/session/hub.h), driven frame by frame: the registry rules
// with the caller's pid from the socket, the drain before a memory import, records forwarded to
// the other holders of a shared event, and deadlock / lost-peer detection over wall time.
#include "runtime/session/hub.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

namespace npusim::rt::remote {
namespace {

constexpr int kA = 10;  // client sockets (the hub only uses them as keys)
constexpr int kB = 11;
constexpr std::uint8_t kMemory = 0;
constexpr std::uint8_t kEvent = 2;

Frame publish(std::uint64_t req, std::uint8_t kind, bool check, std::uint64_t records = 0,
              std::int64_t last = -1, const std::string& desc = "d") {
  WireOut w;
  w.u64(req).u8(kind).u8(check ? 1 : 0).u64(records).i64(last).str(desc);
  return {FrameType::kPublish, w.bytes()};
}

Frame keyed(FrameType type, std::uint64_t req, std::uint64_t id, std::uint8_t kind) {
  WireOut w;
  w.u64(req).u64(id).u8(kind);
  return {type, w.bytes()};
}

// The status byte of the only frame in `out`, which must be a reply to `client` for `req`.
std::uint8_t status_of(const std::vector<Outgoing>& out, int client, std::uint64_t req) {
  EXPECT_EQ(out.size(), 1u);
  if (out.size() != 1) return 255;
  EXPECT_EQ(out[0].client, client);
  EXPECT_EQ(out[0].frame.type, FrameType::kReply);
  WireIn in(out[0].frame.payload);
  EXPECT_EQ(in.u64(), req);
  return in.u8();
}

class HubTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hub.joined(kA, 100, "proc_a");
    hub.joined(kB, 200, "proc_b");
  }
  std::uint64_t publish_id(std::uint8_t kind, bool check, std::uint64_t records = 0,
                           std::int64_t last = -1, int fd = -1) {
    std::vector<Outgoing> out;
    hub.frame(kA, publish(1, kind, check, records, last), fd, out);
    EXPECT_EQ(status_of(out, kA, 1), 0);
    WireIn in(out[0].frame.payload);
    in.u64();
    in.u8();
    return in.u64();
  }
  Hub hub{1000, 100};
  Hub::Clock::time_point t0 = Hub::Clock::now();
};

TEST_F(HubTest, WhitelistIsCheckedWithTheSocketsPidAndOnlyTheExporterChangesIt) {
  const std::uint64_t id = publish_id(kMemory, true);
  std::vector<Outgoing> out;
  hub.frame(kB, keyed(FrameType::kImport, 2, id, kMemory), -1, out);
  EXPECT_EQ(status_of(out, kB, 2), 3);  // not permitted
  out.clear();
  WireOut allow;
  allow.u64(3).u64(id).u8(kMemory).i32(200);
  hub.frame(kB, {FrameType::kAllow, allow.bytes()}, -1, out);
  EXPECT_EQ(status_of(out, kB, 3), 2);  // only the exporter lists pids
  out.clear();
  hub.frame(kA, {FrameType::kAllow, allow.bytes()}, -1, out);
  EXPECT_EQ(status_of(out, kA, 3), 0);
  out.clear();
  // A memory import first drains the exporter; the reply follows the exporter's acknowledgement.
  hub.frame(kB, keyed(FrameType::kImport, 4, id, kMemory), -1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].client, kA);
  ASSERT_EQ(out[0].frame.type, FrameType::kDrain);
  const std::string token = out[0].frame.payload;
  out.clear();
  hub.frame(kA, {FrameType::kDrainAck, token}, -1, out);
  EXPECT_EQ(status_of(out, kB, 4), 0);
  WireIn in(out[0].frame.payload);
  in.u64();
  in.u8();
  EXPECT_EQ(in.i32(), 100);  // the owner's pid
  in.u64();
  in.i64();
  EXPECT_EQ(in.str(), "d");
}

TEST_F(HubTest, TheExportersCloseWithdrawsAndAnImportCarriesTheFd) {
  const int fd = memfd_create("hub-test", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  const std::uint64_t id = publish_id(kMemory, false, 0, -1, fd);
  std::vector<Outgoing> out;
  hub.frame(kA, keyed(FrameType::kImport, 2, id, kMemory), -1, out);  // its own: no drain
  EXPECT_EQ(status_of(out, kA, 2), 0);
  EXPECT_EQ(out[0].pass_fd, fd);
  out.clear();
  hub.frame(kB, keyed(FrameType::kClose, 3, id, kMemory), -1, out);
  EXPECT_EQ(status_of(out, kB, 3), 2);  // neither importer nor exporter
  out.clear();
  hub.frame(kA, keyed(FrameType::kClose, 4, id, kMemory), -1, out);  // drops A's import
  EXPECT_EQ(status_of(out, kA, 4), 0);
  out.clear();
  hub.frame(kA, keyed(FrameType::kClose, 5, id, kMemory), -1, out);  // withdraws
  EXPECT_EQ(status_of(out, kA, 5), 0);
  out.clear();
  hub.frame(kB, keyed(FrameType::kImport, 6, id, kMemory), -1, out);
  EXPECT_EQ(status_of(out, kB, 6), 1);  // unknown
  EXPECT_EQ(hub.exports(), 0u);
}

TEST_F(HubTest, RecordsOfASharedEventReachTheOtherHoldersWithTheirSimulatedTime) {
  const std::uint64_t id = publish_id(kEvent, false, 1, 5000);
  std::vector<Outgoing> out;
  hub.frame(kB, keyed(FrameType::kImport, 2, id, kEvent), -1, out);
  ASSERT_EQ(out.size(), 1u);  // the exporter finishes its records first
  ASSERT_EQ(out[0].frame.type, FrameType::kDrain);
  const std::string token = out[0].frame.payload;
  out.clear();
  WireOut during;
  during.u64(id).i64(7000);  // completed by the drain: part of the answer, not forwarded
  hub.frame(kA, {FrameType::kRecord, during.bytes()}, -1, out);
  EXPECT_TRUE(out.empty());
  hub.frame(kA, {FrameType::kDrainAck, token}, -1, out);
  EXPECT_EQ(status_of(out, kB, 2), 0);
  WireIn in(out[0].frame.payload);
  in.u64();
  in.u8();
  in.i32();
  EXPECT_EQ(in.u64(), 2u);     // records so far
  EXPECT_EQ(in.i64(), 7000);  // the latest one's time
  out.clear();
  WireOut rec;
  rec.u64(id).i64(9000);
  hub.frame(kA, {FrameType::kRecord, rec.bytes()}, -1, out);
  ASSERT_EQ(out.size(), 1u);  // to B only
  EXPECT_EQ(out[0].client, kB);
  EXPECT_EQ(out[0].frame.type, FrameType::kRecorded);
  WireIn r(out[0].frame.payload);
  EXPECT_EQ(r.u64(), id);
  EXPECT_EQ(r.i64(), 9000);
  EXPECT_EQ(r.i32(), 100);
  out.clear();
  hub.frame(kB, {FrameType::kRecord, rec.bytes()}, -1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].client, kA);
}

TEST_F(HubTest, EveryProcessBlockedForTheWaitTimeIsADeadlock) {
  std::vector<Outgoing> out;
  WireOut zero;
  zero.u64(0);
  hub.frame(kA, {FrameType::kBlocked, zero.bytes()}, -1, out);
  hub.tick(t0, out);
  EXPECT_TRUE(out.empty());  // B can still act
  EXPECT_EQ(hub.poll_timeout_ms(t0), -1);
  hub.frame(kB, {FrameType::kBlocked, zero.bytes()}, -1, out);
  hub.tick(t0, out);
  EXPECT_TRUE(out.empty());  // not for long enough yet
  EXPECT_GT(hub.poll_timeout_ms(t0), 0);
  hub.tick(t0 + std::chrono::milliseconds(999), out);
  EXPECT_TRUE(out.empty());
  hub.tick(t0 + std::chrono::milliseconds(1001), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].frame.type, FrameType::kDeadlock);
  EXPECT_EQ(out[1].frame.type, FrameType::kDeadlock);
}

TEST_F(HubTest, ABlockThatCrossedAForwardedRecordIsIgnored) {
  const std::uint64_t id = publish_id(kEvent, false);
  std::vector<Outgoing> out;
  hub.frame(kB, keyed(FrameType::kImport, 2, id, kEvent), -1, out);
  ASSERT_EQ(out.size(), 1u);
  hub.frame(kA, {FrameType::kDrainAck, out[0].frame.payload}, -1, out);
  out.clear();
  WireOut rec;
  rec.u64(id).i64(1);
  hub.frame(kA, {FrameType::kRecord, rec.bytes()}, -1, out);  // forwarded to B
  out.clear();
  WireOut stale;
  stale.u64(0);  // B had not seen it when it blocked
  hub.frame(kB, {FrameType::kBlocked, stale.bytes()}, -1, out);
  hub.frame(kA, {FrameType::kBlocked, stale.bytes()}, -1, out);
  hub.tick(t0 + std::chrono::seconds(5), out);
  EXPECT_TRUE(out.empty());  // B is awake (it will take the record)
}

TEST_F(HubTest, APeerLostWhileOthersWaitEndsTheirWaitsSoon) {
  std::vector<Outgoing> out;
  WireOut zero;
  zero.u64(0);
  hub.frame(kA, {FrameType::kBlocked, zero.bytes()}, -1, out);
  hub.left(kB, true, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].client, kA);
  EXPECT_EQ(out[0].frame.type, FrameType::kPeerLost);
  out.clear();
  hub.tick(t0, out);
  EXPECT_TRUE(out.empty());
  hub.tick(t0 + std::chrono::milliseconds(150), out);  // the lost-peer grace (100 ms here)
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].frame.type, FrameType::kDeadlock);
  WireIn in(out[0].frame.payload);
  EXPECT_EQ(in.str(), "200 (proc_b)");
}

}  // namespace
}  // namespace npusim::rt::remote
