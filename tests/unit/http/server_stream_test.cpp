// StreamCore without a server: what the producer writes itself once the connection lets it, and
// what it leaves to the connection.
#include "servebench/http/server_stream.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <vector>

using servebench::http::detail::StreamCore;
using servebench::http::detail::StreamEvent;
using servebench::http::detail::StreamOwner;

namespace {

constexpr std::string_view k_header = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

// The connection side: records what the core asked for.
class RecordingOwner final : public StreamOwner {
 public:
  void notify(std::shared_ptr<StreamCore>, StreamEvent event) override { events.push_back(event); }
  std::vector<StreamEvent> events;
};

// A socket pair standing in for the connection: the core writes on `ours`, the test reads `theirs`.
struct Socket {
  Socket() {
    std::array<int, 2> fds{};
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds.data()), 0);
    ours = fds[0];
    theirs = fds[1];
  }
  ~Socket() {
    ::close(ours);
    ::close(theirs);
  }
  // One read: what a single write of the core delivered.
  std::string read_once() const {
    std::array<char, 4096> buffer{};
    const ssize_t n = ::read(theirs, buffer.data(), buffer.size());
    return n > 0 ? std::string(buffer.data(), static_cast<std::size_t>(n)) : std::string();
  }
  int ours = -1, theirs = -1;
};

// A core whose header and first chunk the connection has written, and which now lets the
// producer write to `socket` itself.
std::shared_ptr<StreamCore> direct_core(const std::shared_ptr<RecordingOwner>& owner, const Socket& socket) {
  auto core = std::make_shared<StreamCore>(owner, k_header);
  core->send("data: a\n\n");
  std::string out;
  bool last = true;
  EXPECT_TRUE(core->take_pending(out, last, socket.ours));  // the connection writes header and chunk
  EXPECT_EQ(out, std::string(k_header) + "9\r\ndata: a\n\n\r\n");
  EXPECT_FALSE(last);
  out.clear();
  EXPECT_FALSE(core->take_pending(out, last, socket.ours));  // nothing queued: direct from now on
  EXPECT_FALSE(last);
  return core;
}

TEST(StreamCore, ALastChunkAndTheEndGoInOneWrite) {
  auto owner = std::make_shared<RecordingOwner>();
  Socket socket;
  auto core = direct_core(owner, socket);
  owner->events.clear();
  core->send("data: b\n\n");
  EXPECT_EQ(socket.read_once(), "9\r\ndata: b\n\n\r\n");
  EXPECT_TRUE(owner->events.empty());  // a direct write wakes nobody
  core->finish_with("data: [DONE]\n\n");
  EXPECT_EQ(socket.read_once(), "e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n");
  // The connection hears that the exchange is over (nothing left for it to write).
  ASSERT_EQ(owner->events.size(), 1u);
  EXPECT_EQ(owner->events[0], StreamEvent::flush);
  std::string out;
  bool last = false;
  EXPECT_FALSE(core->take_pending(out, last, socket.ours));
  EXPECT_TRUE(last);
  core->send("data: late\n\n");  // after the end: nothing
  EXPECT_EQ(socket.read_once(), "");
}

TEST(StreamCore, FinishAloneWritesTheEndDirectly) {
  auto owner = std::make_shared<RecordingOwner>();
  Socket socket;
  auto core = direct_core(owner, socket);
  core->finish();
  EXPECT_EQ(socket.read_once(), "0\r\n\r\n");
  std::string out;
  bool last = false;
  EXPECT_FALSE(core->take_pending(out, last, socket.ours));
  EXPECT_TRUE(last);
}

TEST(StreamCore, BeforeTheConnectionLetsItTheEndIsQueued) {
  auto owner = std::make_shared<RecordingOwner>();
  Socket socket;
  auto core = std::make_shared<StreamCore>(owner, k_header);
  core->finish_with("data: only\n\n");
  EXPECT_EQ(socket.read_once(), "");  // nothing written by the producer
  std::string out;
  bool last = false;
  EXPECT_TRUE(core->take_pending(out, last, socket.ours));
  EXPECT_EQ(out, std::string(k_header) + "c\r\ndata: only\n\n\r\n0\r\n\r\n");
  EXPECT_TRUE(last);
}

}  // namespace
