// SPDX-License-Identifier: Apache-2.0
// The hub's extension point (issue 22; runtime/session/hub.h HubExtension): a library's handler
// gets the frames of its own type range (with their descriptors), hears when a client blocks or
// leaves, and pushes frames that end a client's block; frames of no range are dropped (their
// descriptors closed). HCCL's domains are such an extension (remote_hub_hccl_test.cpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/session/hub.h"

namespace npusim::rt::remote {
namespace {

// Echoes each frame back to its sender as a push, and writes down what it heard.
class Recorder final : public HubExtension {
 public:
  explicit Recorder(std::string* log) : log_(log) {}
  void frame(Hub& hub, int client, const Frame& f, int fd, std::vector<Outgoing>& out) override {
    *log_ += "frame " + std::to_string(static_cast<std::uint32_t>(f.type)) + " from pid " +
             std::to_string(hub.client_pid(client)) + (fd >= 0 ? " with fd" : "") + ";";
    if (fd >= 0) ::close(fd);
    hub.push(client, {static_cast<FrameType>(200), f.payload}, out);
  }
  void blocked(Hub&, std::vector<Outgoing>&) override { *log_ += "blocked;"; }
  void left(Hub& hub, int client, std::vector<Outgoing>&) override {
    *log_ += "left " + std::to_string(client) + (hub.has_client(client) ? " (known)" : "") + ";";
  }
  void tick(Hub&, Clock::time_point, std::vector<Outgoing>&) override { ++ticks; }
  int poll_timeout_ms(Clock::time_point) const override { return 1234; }
  int ticks = 0;

 private:
  std::string* log_;
};

TEST(HubExtension, FramesOfItsRangeGoToTheRegisteredHandler) {
  std::string log;
  Hub hub(60000, 300);
  auto rec = std::make_unique<Recorder>(&log);
  Recorder* r = rec.get();
  hub.add_extension(100, 109, std::move(rec));
  hub.joined(7, 700, "a");
  std::vector<Outgoing> out;
  const int fd = memfd_create("ext", MFD_CLOEXEC);
  hub.frame(7, {static_cast<FrameType>(105), "hello"}, fd, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(static_cast<std::uint32_t>(out[0].frame.type), 200u);
  EXPECT_EQ(out[0].frame.payload, "hello");
  EXPECT_EQ(log, "frame 105 from pid 700 with fd;");
  EXPECT_EQ(fcntl(fd, F_GETFD), -1) << "the handler owned the descriptor and closed it";

  // A push ends a block: a kBlocked that saw it blocks, the extension hears of it.
  out.clear();
  WireOut b;
  hub.frame(7, {FrameType::kBlocked, b.u64(1).bytes()}, -1, out);
  EXPECT_EQ(log, "frame 105 from pid 700 with fd;blocked;");
  EXPECT_EQ(hub.client_blocked(7), true);
  EXPECT_EQ(hub.poll_timeout_ms(Hub::Clock::now()), 0) << "every client blocked: decide now";

  // Outside every range: dropped, its descriptor closed; the hub's own frames are its own.
  out.clear();
  const int stray = memfd_create("stray", MFD_CLOEXEC);
  hub.frame(7, {static_cast<FrameType>(110), "x"}, stray, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(fcntl(stray, F_GETFD), -1);
  hub.tick(Hub::Clock::now(), out);
  EXPECT_EQ(r->ticks, 1);
  hub.left(7, false, out);
  EXPECT_EQ(log, "frame 105 from pid 700 with fd;blocked;left 7;");
}

TEST(HubExtension, ARegisteredFactoryServesEveryLaterHub) {
  static std::string log;
  register_hub_extension(120, 121, [] { return std::make_unique<Recorder>(&log); });
  Hub hub;
  hub.joined(3, 300, "b");
  std::vector<Outgoing> out;
  hub.frame(3, {static_cast<FrameType>(121), ""}, -1, out);
  EXPECT_EQ(log, "frame 121 from pid 300;");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(hub.poll_timeout_ms(Hub::Clock::now()), 1234) << "the extension's timeout counts";
}

}  // namespace
}  // namespace npusim::rt::remote
