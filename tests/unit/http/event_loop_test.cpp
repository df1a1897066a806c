#include "servebench/http/event_loop.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "loopback.hpp"

using namespace servebench::http;
using namespace servebench::http::test;
using Clock = std::chrono::steady_clock;

namespace {

// Records task ids (and when they ran) from the loop thread.
struct Journal {
  void add(int id) {
    std::lock_guard lock(mutex);
    ids.push_back(id);
    times.push_back(Clock::now());
    ran.signal();
  }
  std::vector<int> snapshot() {
    std::lock_guard lock(mutex);
    return ids;
  }
  std::mutex mutex;
  std::vector<int> ids;
  std::vector<Clock::time_point> times;
  Latch ran;
};

}  // namespace

TEST(EventLoop, PostRunsTasksInOrderOnTheLoopThread) {
  EventLoop loop;
  loop.start();
  Journal journal;
  std::atomic<bool> on_loop_thread{true};
  for (int i = 0; i < 100; ++i) {
    loop.post([&, i] {
      on_loop_thread = on_loop_thread && loop.in_loop_thread();
      journal.add(i);
    });
  }
  ASSERT_TRUE(journal.ran.wait_for_count(100));
  std::vector<int> expected(100);
  for (int i = 0; i < 100; ++i) expected[i] = i;
  EXPECT_EQ(journal.snapshot(), expected);
  EXPECT_TRUE(on_loop_thread);
  EXPECT_FALSE(loop.in_loop_thread());
}

TEST(EventLoop, PostAtRunsInTimeOrderNotBefore) {
  EventLoop loop;
  loop.start();
  Journal journal;
  const auto base = Clock::now() + 20ms;
  const std::vector<std::chrono::milliseconds> offsets = {30ms, 10ms, 20ms, 0ms};
  for (int i = 0; i < 4; ++i) loop.post_at(base + offsets[i], [&journal, i] { journal.add(i); });
  ASSERT_TRUE(journal.ran.wait_for_count(4));
  EXPECT_EQ(journal.snapshot(), (std::vector<int>{3, 1, 2, 0}));
  std::lock_guard lock(journal.mutex);
  for (int k = 0; k < 4; ++k) EXPECT_GE(journal.times[k], base + offsets[journal.ids[k]]);
}

TEST(EventLoop, TasksDueAtTheSameTimeRunInPostingOrder) {
  EventLoop loop;
  loop.start();
  Journal journal;
  const auto when = Clock::now() + 10ms;
  for (int i = 0; i < 50; ++i) loop.post_at(when, [&journal, i] { journal.add(i); });
  ASSERT_TRUE(journal.ran.wait_for_count(50));
  const auto ids = journal.snapshot();
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
}

TEST(EventLoop, PastDeadlinesRunAtOnce) {
  EventLoop loop;
  loop.start();
  Journal journal;
  const auto begin = Clock::now();
  loop.post_at(begin - 1s, [&] { journal.add(1); });
  ASSERT_TRUE(journal.ran.wait_for_count(1));
  EXPECT_LT(Clock::now() - begin, 500ms);
}

TEST(EventLoop, AnEarlierTimerPostedFromTheLoopPreemptsALaterOne) {
  EventLoop loop;
  loop.start();
  Journal journal;
  loop.post_at(Clock::now() + 300ms, [&] { journal.add(2); });
  loop.post([&] { loop.post_at(Clock::now() + 5ms, [&] { journal.add(1); }); });
  ASSERT_TRUE(journal.ran.wait_for_count(1));
  EXPECT_EQ(journal.snapshot(), std::vector<int>{1});  // did not wait for the 300 ms timer
  ASSERT_TRUE(journal.ran.wait_for_count(2));
  EXPECT_EQ(journal.snapshot(), (std::vector<int>{1, 2}));
}

TEST(EventLoop, StopDropsTimersNotYetDueAndIsIdempotent) {
  Journal journal;
  {
    EventLoop loop;
    loop.start();
    loop.post_at(Clock::now() + 10s, [&] { journal.add(1); });
    const auto begin = Clock::now();
    loop.stop();
    EXPECT_LT(Clock::now() - begin, 1s);
    EXPECT_FALSE(loop.running());
    loop.stop();
  }
  EXPECT_EQ(journal.ran.count(), 0);
}

TEST(EventLoop, CarriesMoveOnlyTasks) {
  EventLoop loop;
  loop.start();
  Journal journal;
  auto owned = std::make_unique<int>(42);
  loop.post([&journal, owned = std::move(owned)] { journal.add(*owned); });
  ASSERT_TRUE(journal.ran.wait_for_count(1));
  EXPECT_EQ(journal.snapshot(), std::vector<int>{42});
}
