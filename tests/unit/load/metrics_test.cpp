#include "servebench/load/metrics.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

using std::chrono::milliseconds;

// Hand-computed fixture (times in ms from the run origin; every value below was worked out on
// paper, not by this code):
//   r0 sent 0,  chunks 100 110 130 (1 token each), served 3, verify_ct 2, done 131
//   r1 sent 10, chunks 60 (1) 70 (2),              served 3, verify_ct 1, done 71, prompt 101
//   r2 sent 20, chunk 220 (1),                     served 1,              done 221, no prompt count
//   r3 sent 30, chunks 80 90 100 110 (1 each),     served 4,              done 111
//   r4 sent 40, HTTP 500,                                                 done 45
// All requested 3 output tokens with 100 planned input tokens.
struct Fixture {
  std::vector<RequestRecord> records;
  std::vector<ChunkMark> chunks;

  void add(std::uint32_t i, int sent, std::vector<std::pair<int, std::uint32_t>> marks, std::int64_t served,
           int done) {
    RequestRecord r;
    r.index = i;
    r.sent = r.released = r.intended = milliseconds(sent);
    r.done = milliseconds(done);
    r.input_tokens_planned = 100;
    r.input_tokens_served = 100;
    r.output_tokens_requested = 3;
    r.output_tokens_served = served;
    for (auto [at, tokens] : marks) {
      chunks.push_back({std::int64_t{at} * 1'000'000, i, tokens});
      if (!r.first_token) r.first_token = milliseconds(at);
      r.last_token = milliseconds(at);
      ++r.token_chunks;
      r.chunk_tokens += tokens;
    }
    records.push_back(std::move(r));
  }

  Fixture() {
    add(0, 0, {{100, 1}, {110, 1}, {130, 1}}, 3, 131);
    add(1, 10, {{60, 1}, {70, 2}}, 3, 71);
    add(2, 20, {{220, 1}}, 1, 221);
    add(3, 30, {{80, 1}, {90, 1}, {100, 1}, {110, 1}}, 4, 111);
    add(4, 40, {}, 0, 45);
    records[0].spec_verify_ct = 2;
    records[1].spec_verify_ct = 1;
    records[1].input_tokens_served = 101;
    records[2].input_tokens_served.reset();
    records[4].error = RequestError::http_status;
    records[4].output_tokens_served.reset();
    records[4].input_tokens_served.reset();
    // Interleave the requests' chunks the way per-thread recorders would.
    std::stable_sort(chunks.begin(), chunks.end(), [](const ChunkMark& a, const ChunkMark& b) { return a.at_ns < b.at_ns; });
  }
};

RunMetrics compute(Fixture& f, MetricOptions o = {}) {
  sort_chunks(f.chunks);
  return compute_metrics(f.records, f.chunks, o);
}

TEST(Metrics, CountsAndTotals) {
  Fixture f;
  const RunMetrics m = compute(f);
  EXPECT_EQ(m.num_requests, 5);
  EXPECT_EQ(m.completed, 4);
  EXPECT_EQ(m.failed, 1);
  EXPECT_EQ(m.errors_by_kind[static_cast<std::size_t>(RequestError::http_status)], 1);
  EXPECT_EQ(m.total_output_tokens, 11);
  EXPECT_EQ(m.total_output_requested, 12);
  EXPECT_EQ(m.output_mismatches, 2);  // r2 served 1, r3 served 4
  EXPECT_EQ(m.total_input_tokens, 401);  // 100 + 101 + 100 (planned, no server count) + 100
  EXPECT_EQ(m.input_mismatches, 1);
  EXPECT_EQ(m.duration, milliseconds(221));
}

TEST(Metrics, NearestRankPercentilesMatchHandValues) {
  Fixture f;
  const RunMetrics m = compute(f);
  // TTFT 100 50 200 50 -> sorted 50 50 100 200
  EXPECT_DOUBLE_EQ(m.ttft_ms.mean, 100.0);
  EXPECT_DOUBLE_EQ(m.ttft_ms.median, 50.0);  // rank ceil(2) = 2
  EXPECT_DOUBLE_EQ(m.ttft_ms.at(90), 200.0);  // rank ceil(3.6) = 4
  EXPECT_NEAR(m.ttft_ms.std, 61.2372, 1e-4);  // sqrt(15000 / 4)
  // E2E 130 60 200 80 -> 60 80 130 200
  EXPECT_DOUBLE_EQ(m.e2e_ms.mean, 117.5);
  EXPECT_DOUBLE_EQ(m.e2e_ms.median, 80.0);
  EXPECT_DOUBLE_EQ(m.e2e_ms.at(95), 200.0);
  // TPOT 15 5 10 (r2 has one token: undefined)
  EXPECT_EQ(m.tpot_ms.count, 3u);
  EXPECT_DOUBLE_EQ(m.tpot_ms.mean, 10.0);
  EXPECT_DOUBLE_EQ(m.tpot_ms.median, 10.0);
  EXPECT_DOUBLE_EQ(m.tpot_ms.at(90), 15.0);
  // ITL per chunk 10 20 | 10 | 10 10 10 -> 10 10 10 10 10 20
  EXPECT_EQ(m.itl_ms.count, 6u);
  EXPECT_NEAR(m.itl_ms.mean, 70.0 / 6.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.itl_ms.median, 10.0);
  EXPECT_DOUBLE_EQ(m.itl_ms.at(90), 20.0);  // rank ceil(5.4) = 6
  EXPECT_DOUBLE_EQ(m.itl_ms.max, 20.0);
  // ITL per token: r1's 10 ms gap carried 2 tokens -> 5
  EXPECT_NEAR(m.itl_token_ms.mean, 65.0 / 6.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.itl_token_ms.min, 5.0);
}

TEST(Metrics, LinearPercentilesInterpolate) {
  Fixture f;
  MetricOptions o;
  o.method = stats::PercentileMethod::linear;
  const RunMetrics m = compute(f, o);
  EXPECT_DOUBLE_EQ(m.ttft_ms.median, 75.0);  // position 1.5 between 50 and 100
  EXPECT_DOUBLE_EQ(m.e2e_ms.at(90), 179.0);  // position 2.7: 130 + 0.7 * 70
}

TEST(Metrics, ThroughputConcurrencyAndPeaks) {
  Fixture f;
  MetricOptions o;
  o.gpus = 2;
  const RunMetrics m = compute(f, o);
  EXPECT_NEAR(m.request_throughput, 4 / 0.221, 1e-9);
  EXPECT_NEAR(m.output_throughput, 11 / 0.221, 1e-9);
  EXPECT_NEAR(m.total_throughput, 412 / 0.221, 1e-9);
  EXPECT_NEAR(*m.total_throughput_per_gpu, 206 / 0.221, 1e-9);
  EXPECT_NEAR(m.concurrency, 470.0 / 221.0, 1e-9);
  EXPECT_DOUBLE_EQ(m.max_output_tokens_per_s, 11.0);
  EXPECT_EQ(m.max_concurrent_requests, 4);
  ASSERT_TRUE(m.native_accept_length);
  EXPECT_DOUBLE_EQ(*m.native_accept_length, 2.0);  // (3 + 3) / (2 + 1)
}

TEST(Metrics, GoodputCountsRequestsMeetingEverySlo) {
  Fixture f;
  MetricOptions o;
  o.goodput.ttft = milliseconds(60);
  o.goodput.tpot = milliseconds(12);
  RunMetrics m = compute(f, o);
  ASSERT_TRUE(m.goodput);
  EXPECT_EQ(m.goodput->good_requests, 2);  // r1 and r3
  EXPECT_NEAR(m.goodput->request_goodput, 2 / 0.221, 1e-9);
  EXPECT_NEAR(m.goodput->output_token_goodput, 7 / 0.221, 1e-9);
  EXPECT_DOUBLE_EQ(m.goodput->fraction, 0.5);
  Fixture g;
  MetricOptions tpot_only;
  tpot_only.goodput.tpot = milliseconds(12);
  m = compute(g, tpot_only);
  EXPECT_EQ(m.goodput->good_requests, 3);  // r2's undefined TPOT passes, r0's 15 ms fails
}

TEST(Metrics, OpenLoopLatencyFromIntendedSendTime) {
  Fixture f;
  f.records[1].intended = milliseconds(5);
  f.records[3].intended = milliseconds(20);
  MetricOptions o;
  o.open_loop = true;
  const RunMetrics m = compute(f, o);
  ASSERT_TRUE(m.ttft_from_intended_ms && m.queue_ms);
  // TTFT from intended: 100 55 200 60 -> 55 60 100 200
  EXPECT_DOUBLE_EQ(m.ttft_from_intended_ms->median, 60.0);
  EXPECT_DOUBLE_EQ(m.ttft_from_intended_ms->mean, 103.75);
  EXPECT_DOUBLE_EQ(m.queue_ms->max, 10.0);  // r3 released at 30, due at 20
  EXPECT_DOUBLE_EQ(m.ttft_ms.median, 50.0);  // service time unchanged
}

TEST(Metrics, PerTokenItlUsesTheAverageWhenChunksDidNotSay) {
  std::vector<RequestRecord> records(1);
  RequestRecord& r = records[0];
  r.first_token = milliseconds(10);
  r.last_token = milliseconds(30);
  r.done = milliseconds(31);
  r.output_tokens_served = 5;
  r.token_chunks = 3;
  r.chunk_tokens = 3;
  r.chunk_tokens_exact = false;
  std::vector<ChunkMark> chunks{{10'000'000, 0, 1}, {20'000'000, 0, 1}, {30'000'000, 0, 1}};
  const RunMetrics m = compute_metrics(records, chunks, {});
  EXPECT_DOUBLE_EQ(m.itl_ms.mean, 10.0);
  EXPECT_DOUBLE_EQ(m.itl_token_ms.mean, 5.0);  // (5 - 1) / (3 - 1) = 2 tokens per later chunk
  EXPECT_DOUBLE_EQ(m.tpot_ms.mean, 5.0);       // 20 ms / 4
}

TEST(Metrics, PeakConcurrencyCountsOneSecondBuckets) {
  std::vector<RequestRecord> records(3);
  const int spans[3][2] = {{0, 2500}, {1200, 1300}, {1900, 3100}};  // ms
  for (std::uint32_t i = 0; i < 3; ++i) {
    records[i].index = i;
    records[i].sent = milliseconds(spans[i][0]);
    records[i].first_token = records[i].last_token = records[i].done = milliseconds(spans[i][1]);
    records[i].output_tokens_served = 1;
  }
  std::vector<ChunkMark> chunks{{2'500'000'000, 0, 1}, {1'300'000'000, 1, 1}, {3'100'000'000, 2, 1}};
  const RunMetrics m = compute_metrics(records, chunks, {});
  EXPECT_EQ(m.max_concurrent_requests, 3);  // bucket 1 (1-2 s) sees all three
  EXPECT_EQ(m.peak_in_flight, 2);  // but never more than two at once: [1200, 1300] ends before 1900
  EXPECT_DOUBLE_EQ(m.max_output_tokens_per_s, 1.0);
  EXPECT_TRUE(std::isnan(m.tpot_ms.mean));  // every request produced one token
  EXPECT_TRUE(std::isnan(interactivity(m.tpot_ms.mean)));
  EXPECT_DOUBLE_EQ(interactivity(20.0), 50.0);
}

TEST(Metrics, EveryDefinitionHasAnId) {
  const auto ids = definition_ids();
  EXPECT_GE(ids.size(), 10u);
  for (const auto& [metric, id] : ids) EXPECT_FALSE(id.empty()) << metric;
}

TEST(Metrics, PeakInFlightCountsFailedRequestsAndBackToBackAsOne) {
  // A closed loop at concurrency 1: each request starts the instant the previous one ends.
  std::vector<RequestRecord> records(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    records[i].index = i;
    records[i].sent = milliseconds(100 * i);
    records[i].done = milliseconds(100 * (i + 1));
  }
  records[3].error = RequestError::reset;  // failed mid-stream, still in flight until then
  records[3].sent = milliseconds(250);
  const RunMetrics m = compute_metrics(records, {}, {});
  EXPECT_EQ(m.peak_in_flight, 2);  // 250-300 ms: request 2 and the failed one
}

}  // namespace
}  // namespace servebench::load
