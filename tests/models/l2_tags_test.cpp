// SPDX-License-Identifier: Apache-2.0
// L2Tags (models/l2_tags.h): hits by address, sectors, LRU capacity, write-back, strided bursts.
#include <gtest/gtest.h>

#include "models/l2_tags.h"

namespace npusim::models {
namespace {

constexpr std::uint64_t kBase = 0x7f0000000000ull;

/// 64 KiB, 512-byte lines of 4 sectors, 4 ways: 32 sets.
L2Tags small() { return L2Tags({64 * 1024, 512, 128, 4}); }

L2Tags::Result run(L2Tags& t, std::uint64_t addr, std::uint64_t bytes, bool write = false) {
  L2Tags::Result r;
  t.access(addr, bytes, 1, 0, write, r);
  return r;
}

TEST(L2Tags, ASecondReadOfTheSameBytesHits) {
  L2Tags t = small();
  EXPECT_EQ(t.sets(), 32u);
  L2Tags::Result a = run(t, kBase, 4096);
  EXPECT_EQ(a.hit_bytes, 0u);
  EXPECT_EQ(a.fill_bytes, 4096u);
  L2Tags::Result b = run(t, kBase, 4096);
  EXPECT_EQ(b.hit_bytes, 4096u);
  EXPECT_EQ(b.fill_bytes, 0u);
  EXPECT_EQ(b.evictions, 0u);
}

// msprof op's write hits (L2Cache.csv): written bytes whose line L2 held; reads never count.
TEST(L2Tags, WritesHitOnlyInLinesL2Holds) {
  L2Tags t = small();
  EXPECT_EQ(run(t, kBase, 1024, true).write_hit_bytes, 0u);  // two lines allocated
  EXPECT_EQ(run(t, kBase + 256, 1024, true).write_hit_bytes, 768u);  // the third line is new
  EXPECT_EQ(run(t, kBase + 4096, 256).write_hit_bytes, 0u);           // a read
  EXPECT_EQ(run(t, kBase + 4096 + 128, 64, true).write_hit_bytes, 64u);  // line read in above
}

TEST(L2Tags, MissesFillWholeSectorsOnly) {
  L2Tags t = small();
  L2Tags::Result a = run(t, kBase + 16, 64);  // inside sector 0
  EXPECT_EQ(a.fill_bytes, 128u);
  L2Tags::Result b = run(t, kBase, 512);  // sector 0 valid: its 128 bytes hit, 3 sectors fill
  EXPECT_EQ(b.hit_bytes, 128u);
  EXPECT_EQ(b.fill_bytes, 384u);
  L2Tags::Result c = run(t, kBase + 500, 24);  // crosses into the next line: 12 + 12 bytes
  EXPECT_EQ(c.hit_bytes, 12u);
  EXPECT_EQ(c.fill_bytes, 128u);
}

TEST(L2Tags, AWorkingSetThatFitsHitsAndAStreamLargerThanTheCacheMisses) {
  L2Tags t = small();
  run(t, kBase, 32 * 1024);
  EXPECT_EQ(run(t, kBase, 32 * 1024).hit_bytes, 32u * 1024);
  L2Tags s = small();
  run(s, kBase, 128 * 1024);
  // LRU: by the time the stream comes back to its start, those lines were evicted.
  L2Tags::Result again = run(s, kBase, 128 * 1024);
  EXPECT_EQ(again.hit_bytes, 0u);
  EXPECT_EQ(again.fill_bytes, 128u * 1024);
  EXPECT_EQ(again.evictions, 256u);
}

TEST(L2Tags, LeastRecentlyUsedLineIsTheVictim) {
  L2Tags t = small();
  const std::uint64_t way_stride = 32 * 512;  // same set
  for (int i = 0; i < 4; ++i) run(t, kBase + i * way_stride, 512);
  run(t, kBase, 512);                   // line 0 becomes most recent
  run(t, kBase + 4 * way_stride, 512);  // evicts line 1, the least recent
  EXPECT_EQ(run(t, kBase, 512).hit_bytes, 512u);
  EXPECT_EQ(run(t, kBase + way_stride, 512).hit_bytes, 0u);
}

// The 32-bit LRU stamps wrap after 2^32 line accesses: every set is re-ranked, so the order (and
// the victim) is the same as without the wrap.
TEST(L2Tags, LruOrderSurvivesTheStampWrapAround) {
  L2Tags t = small();
  const std::uint64_t way_stride = 32 * 512;  // same set
  run(t, kBase + 31 * 512, 512);              // another set, used before the wrap
  t.set_clock_for_test(UINT32_MAX - 3);
  for (int i = 0; i < 4; ++i) run(t, kBase + i * way_stride, 512);  // the wrap happens inside
  run(t, kBase, 512);                   // line 0 becomes most recent
  run(t, kBase + 4 * way_stride, 512);  // evicts line 1, the least recent
  EXPECT_EQ(run(t, kBase, 512).hit_bytes, 512u);
  EXPECT_EQ(run(t, kBase + 2 * way_stride, 512).hit_bytes, 512u);
  EXPECT_EQ(run(t, kBase + way_stride, 512).hit_bytes, 0u);
  EXPECT_EQ(run(t, kBase + 31 * 512, 512).hit_bytes, 512u);
}

TEST(L2Tags, WritesAllocateWithoutFetchAndWriteBackWhenEvicted) {
  L2Tags t = small();
  L2Tags::Result w = run(t, kBase, 64 * 1024, true);
  EXPECT_EQ(w.fill_bytes, 0u);
  EXPECT_EQ(w.writeback_bytes, 0u);
  EXPECT_EQ(run(t, kBase, 1024).hit_bytes, 1024u);  // written data is read back from L2
  L2Tags::Result r = run(t, kBase + 64 * 1024, 64 * 1024);  // evicts every dirty line
  EXPECT_EQ(r.writeback_bytes, 64u * 1024);
  EXPECT_EQ(r.fill_bytes, 64u * 1024);
  EXPECT_EQ(r.evictions, 128u);
}

TEST(L2Tags, StridedBurstsTouchOnlyTheirOwnSectors) {
  L2Tags t = small();
  L2Tags::Result r;
  t.access(kBase, 128, 4, 1024, false, r);  // 4 bursts of 128 B, 1 KiB apart
  EXPECT_EQ(r.fill_bytes, 512u);
  EXPECT_EQ(run(t, kBase + 128, 128).hit_bytes, 0u);  // between the bursts: never fetched
  EXPECT_EQ(run(t, kBase + 3 * 1024, 128).hit_bytes, 128u);
}

// The set is (address / line) mod sets: the same pattern at another base, shifted by any multiple
// of the line size (device memory at another host address), hits and misses alike.
TEST(L2Tags, MovingEveryAddressByTheSameAmountChangesNothing) {
  auto pattern = [](std::uint64_t base) {
    L2Tags t({64 * 1024, 512, 128, 4});
    L2Tags::Result total;
    for (int pass = 0; pass < 3; ++pass) {
      for (std::uint64_t i = 0; i < 200; ++i) {
        L2Tags::Result r;
        t.access(base + (i * 7919 % 160) * 512 + (i % 3) * 128, 200, 1, 0, i % 5 == 0, r);
        total.hit_bytes += r.hit_bytes;
        total.fill_bytes += r.fill_bytes;
        total.writeback_bytes += r.writeback_bytes;
      }
    }
    return total;
  };
  const L2Tags::Result a = pattern(kBase);
  const L2Tags::Result b = pattern(kBase + 4096 * 12345);
  EXPECT_GT(a.hit_bytes, 0u);
  EXPECT_GT(a.fill_bytes, 0u);
  EXPECT_EQ(a.hit_bytes, b.hit_bytes);
  EXPECT_EQ(a.fill_bytes, b.fill_bytes);
  EXPECT_EQ(a.writeback_bytes, b.writeback_bytes);
}

}  // namespace
}  // namespace npusim::models
