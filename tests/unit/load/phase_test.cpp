#include "servebench/load/phase.hpp"

#include <gtest/gtest.h>

#include "fake_server.hpp"

namespace servebench::load {
namespace {

using namespace std::chrono_literals;

PreparedRequest completion(std::string_view model, int prompt_len, int max_tokens) {
  std::string ids;
  for (int i = 0; i < prompt_len; ++i) ids += fmt::format("{}{}", i ? "," : "", 100 + i);
  return {fmt::format(R"({{"model":"{}","prompt":[{}],"max_tokens":{},"stream":true}})", model, ids, max_tokens),
          prompt_len, max_tokens};
}

PhaseSpec spec_for(const std::string& base_url, std::vector<PreparedRequest> requests) {
  PhaseSpec spec;
  auto url = http::parse_url(base_url);
  EXPECT_TRUE(url);
  spec.url = *url;
  spec.target = "/v1/completions";
  auto schedule = make_schedule({.num_requests = static_cast<std::int64_t>(requests.size())});
  EXPECT_TRUE(schedule);
  spec.schedule = *schedule;
  spec.requests = std::move(requests);
  spec.threads = 2;
  spec.timeout = 10s;
  return spec;
}

TEST(Phase, ClosedLoopKeepsTheCapAndCountsEveryToken) {
  testing::FakeServer server(2ms);
  std::vector<PreparedRequest> requests;
  for (int i = 0; i < 12; ++i) requests.push_back(completion("ok", 7 + i, 5));
  PhaseSpec spec = spec_for(server.base_url(), std::move(requests));
  spec.max_concurrency = 4;
  auto result = run_phase(std::move(spec));
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->records.size(), 12u);
  for (const RequestRecord& r : result->records) {
    EXPECT_TRUE(r.ok()) << r.index << ": " << r.error_message;
    EXPECT_EQ(r.output_tokens_served, 5);
    EXPECT_EQ(r.token_chunks, 5u);
    EXPECT_EQ(r.input_tokens_served, 7 + static_cast<int>(r.index));
    ASSERT_TRUE(r.first_token && r.last_token);
    EXPECT_LE(r.sent, *r.first_token);
    EXPECT_LE(*r.last_token, r.done);
    EXPECT_GE(r.sent, r.released);
  }
  EXPECT_EQ(result->chunks.size(), 60u);
  EXPECT_EQ(server.max_in_flight(), 4);
  EXPECT_LE(result->connections_opened, 6u);  // keep-alive: about one connection per stream
  EXPECT_EQ(result->threads, 2);
  EXPECT_GT(result->loop_cpu.count(), 0);
  EXPECT_GT(result->max_loop_busy, 0.0);
  EXPECT_LE(result->max_loop_busy, 1.5);  // a thread cannot use much more CPU than wall time
}

TEST(Phase, FailuresBecomeErrorKindsAndTheRunCompletes) {
  testing::FakeServer server;
  std::vector<PreparedRequest> requests{completion("ok", 3, 2), completion("http500", 3, 2),
                                        completion("reset", 3, 9), completion("malformed", 3, 2),
                                        completion("silent", 3, 2)};
  PhaseSpec spec = spec_for(server.base_url(), std::move(requests));
  spec.timeout = 300ms;
  auto result = run_phase(std::move(spec));
  ASSERT_TRUE(result) << result.error().message;
  const auto& r = result->records;
  EXPECT_EQ(r[0].error, RequestError::none);
  EXPECT_EQ(r[1].error, RequestError::http_status);
  EXPECT_EQ(r[1].http_status, 500);
  EXPECT_NE(r[1].error_message.find("boom"), std::string::npos);
  EXPECT_EQ(r[2].error, RequestError::reset) << r[2].error_message;
  EXPECT_EQ(r[3].error, RequestError::malformed);
  EXPECT_EQ(r[4].error, RequestError::timeout);
}

TEST(Phase, RefusedConnectionsAreCountedNotFatal) {
  std::string url;
  {
    testing::FakeServer closed;
    url = closed.base_url();
  }
  auto result = run_phase(spec_for(url, {completion("ok", 3, 2), completion("ok", 3, 2)}));
  ASSERT_TRUE(result);
  for (const RequestRecord& r : result->records) EXPECT_EQ(r.error, RequestError::connect_refused);
}

TEST(Phase, OpenLoopSendsAtTheIntendedTimes) {
  testing::FakeServer server;
  std::vector<PreparedRequest> requests;
  for (int i = 0; i < 10; ++i) requests.push_back(completion("ok", 2, 2));
  PhaseSpec spec = spec_for(server.base_url(), std::move(requests));
  auto schedule = make_schedule({.num_requests = 10, .rate = 100.0, .arrival = Arrival::constant});
  ASSERT_TRUE(schedule);
  spec.schedule = *schedule;
  auto result = run_phase(std::move(spec));
  ASSERT_TRUE(result);
  for (const RequestRecord& r : result->records) {
    EXPECT_TRUE(r.ok()) << r.error_message;
    EXPECT_EQ(r.intended, r.index * 10ms);
    EXPECT_GE(r.sent, r.intended);
    EXPECT_LT(r.sent - r.intended, 50ms);  // loose: a loaded CI machine still sends within the slot
  }
}

// An interrupt (bench's SIGINT): nothing new starts, requests in flight get the grace, the ones that
// outlive it are cut off, and the result holds exactly the requests that ended, renumbered.
TEST(Phase, AnInterruptStopsSendingKeepsWhatEndedAndCutsOffTheRest) {
  testing::FakeServer server(2ms);
  std::vector<PreparedRequest> requests{completion("silent", 3, 2), completion("silent", 3, 2)};
  for (int i = 0; i < 30; ++i) requests.push_back(completion("ok", 4, 5));
  PhaseSpec spec = spec_for(server.base_url(), std::move(requests));
  spec.max_concurrency = 3;  // the two silent requests hold two slots; ok requests pass one at a time
  spec.threads = 1;          // admitted in send order, so both silent requests are among the first three
  std::atomic<bool> interrupt{false};
  spec.interrupt = &interrupt;
  spec.interrupt_grace = 300ms;
  spec.progress_interval = 10ms;
  spec.on_progress = [&](const PhaseProgress& p) {
    if (p.done >= 3) interrupt.store(true);
  };
  const auto begin = std::chrono::steady_clock::now();
  auto result = run_phase(std::move(spec));
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_TRUE(result->interrupted);
  EXPECT_EQ(result->cut_off, 2) << "the silent requests outlived the grace";
  EXPECT_GT(result->not_sent, 0);
  EXPECT_GE(result->records.size(), 3u);
  EXPECT_EQ(static_cast<std::int64_t>(result->records.size()) + result->not_sent + result->cut_off, 32);
  for (std::size_t i = 0; i < result->records.size(); ++i) {
    EXPECT_TRUE(result->records[i].ok()) << result->records[i].error_message;
    EXPECT_EQ(result->records[i].index, i);
    EXPECT_EQ(result->records[i].output_tokens_served, 5);
  }
  EXPECT_EQ(result->chunks.size(), 5 * result->records.size());
  for (const ChunkMark& c : result->chunks) EXPECT_LT(c.request, result->records.size());
  EXPECT_GE(elapsed, 300ms) << "the grace was given";
  EXPECT_LT(elapsed, 5s);
}

}  // namespace
}  // namespace servebench::load
