#include "servebench/http/read_poller.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <functional>
#include <vector>

using servebench::http::detail::ReadPoller;
using servebench::http::detail::ReadyHandler;

namespace {

// A connected pair of stream sockets: `ours` is watched, the test writes on `theirs`.
struct Pair {
  Pair() {
    std::array<int, 2> fds{};
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds.data()), 0);
    ours = fds[0];
    theirs = fds[1];
  }
  ~Pair() {
    if (ours >= 0) ::close(ours);
    if (theirs >= 0) ::close(theirs);
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  void write(std::string_view bytes) const { EXPECT_EQ(::write(theirs, bytes.data(), bytes.size()), std::ssize(bytes)); }
  int ours = -1, theirs = -1;
};

struct Recorder final : ReadyHandler {
  void on_ready(std::uint32_t events) override {
    ++calls;
    last = events;
    if (then) then();
  }
  int calls = 0;
  std::uint32_t last = 0;
  std::function<void()> then;
};

TEST(ReadPoller, AnArrivalIsHandedOutOnce) {
  ReadPoller poller;
  Pair pair;
  Recorder handler;
  ASSERT_TRUE(poller.add(pair.ours, handler));
  EXPECT_EQ(poller.dispatch(), 0u);  // nothing arrived yet
  pair.write("a");
  EXPECT_EQ(poller.dispatch(), 1u);
  EXPECT_EQ(handler.calls, 1);
  EXPECT_TRUE(handler.last & EPOLLIN);
  // Edge-triggered: the unread byte is not announced again; only a new arrival is.
  EXPECT_EQ(poller.dispatch(), 0u);
  pair.write("b");
  EXPECT_EQ(poller.dispatch(), 1u);
  EXPECT_EQ(handler.calls, 2);
}

TEST(ReadPoller, AHangUpIsReported) {
  ReadPoller poller;
  Pair pair;
  Recorder handler;
  ASSERT_TRUE(poller.add(pair.ours, handler));
  ::close(std::exchange(pair.theirs, -1));
  EXPECT_EQ(poller.dispatch(), 1u);
  EXPECT_TRUE(handler.last & ReadPoller::k_hangup);
}

TEST(ReadPoller, ARemovedSocketIsNotHandedOutEvenFromTheSameBatch) {
  ReadPoller poller;
  Pair a, b;
  Recorder on_a, on_b;
  const auto token_a = poller.add(a.ours, on_a);
  const auto token_b = poller.add(b.ours, on_b);
  ASSERT_TRUE(token_a && token_b);
  // Whichever is handed out first removes the other, whose event is already fetched.
  on_a.then = [&] { poller.remove(*token_b, b.ours); };
  on_b.then = [&] { poller.remove(*token_a, a.ours); };
  a.write("x");
  b.write("y");
  EXPECT_EQ(poller.dispatch(), 1u);
  EXPECT_EQ(on_a.calls + on_b.calls, 1);
  EXPECT_EQ(poller.watched(), 1u);
}

TEST(ReadPoller, AStaleTokenRemovesNothing) {
  ReadPoller poller;
  Pair a, b;
  Recorder on_a, on_b;
  const auto first = poller.add(a.ours, on_a);
  ASSERT_TRUE(first);
  poller.remove(*first, a.ours);
  const auto second = poller.add(b.ours, on_b);  // takes the freed slot
  ASSERT_TRUE(second);
  EXPECT_NE(*first, *second);
  poller.remove(*first, b.ours);  // an earlier registration's token: ignored
  b.write("z");
  EXPECT_EQ(poller.dispatch(), 1u);
  EXPECT_EQ(on_b.calls, 1);
  EXPECT_EQ(on_a.calls, 0);
}

TEST(ReadPoller, MoreReadySocketsThanOneFetchAreAllHandedOut) {
  constexpr int k_sockets = 300;  // more than one fetch of 256
  ReadPoller poller;
  std::vector<std::unique_ptr<Pair>> pairs;
  std::vector<Recorder> handlers(k_sockets);
  for (int i = 0; i < k_sockets; ++i) {
    pairs.push_back(std::make_unique<Pair>());
    ASSERT_TRUE(poller.add(pairs.back()->ours, handlers[static_cast<std::size_t>(i)]));
    pairs.back()->write("t");
  }
  EXPECT_EQ(poller.dispatch(), static_cast<std::size_t>(k_sockets));
  for (const auto& h : handlers) EXPECT_EQ(h.calls, 1);
}

TEST(ReadPoller, RefusesADescriptorThatIsNoSocketItCanWatch) {
  ReadPoller poller;
  Recorder handler;
  const auto token = poller.add(-1, handler);
  ASSERT_FALSE(token);
  EXPECT_NE(token.error().message.find("cannot watch a socket for reads"), std::string::npos);
  EXPECT_EQ(poller.watched(), 0u);
}

}  // namespace
