// The bench load model on the engine's virtual clock: caps, schedules, the serving loop's order,
// refusals, streaming, determinism.
#include "servebench/plan/virtual_load.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "servebench/sim/deployment.hpp"

namespace servebench::plan {
namespace {

using std::chrono::milliseconds;

sim::Engine engine(int max_running = 0) {
  sim::SimConfig c;  // Llama 3.1 8B on one H200
  if (max_running > 0) c.max_running_requests = max_running;
  return sim::Engine(sim::make_deployment(c).value());
}

std::vector<load::Prompt> prompts(int n, std::int64_t isl, std::int64_t osl) {
  std::vector<load::Prompt> out;
  for (int i = 0; i < n; ++i) {
    load::Prompt p;
    for (std::int64_t j = 0; j < isl; ++j) p.ids.push_back(static_cast<std::int32_t>(1000 + (i * 7919 + j * 31) % 20000));
    p.input_tokens = isl;
    p.output_tokens = osl;
    out.push_back(std::move(p));
  }
  return out;
}

// Requests between sent and done at the moment `t` (a request ending at t no longer counts).
int in_flight_at(const std::vector<load::RequestRecord>& records, util::Nanos t) {
  return static_cast<int>(std::count_if(records.begin(), records.end(), [&](auto& r) { return r.sent <= t && t < r.done; }));
}

TEST(VirtualLoad, ClosedLoopKeepsTheCapAndSendsEachFollowUpWhenARequestEnds) {
  auto e = engine();
  const auto ps = prompts(12, 512, 16);
  VirtualLoad l;
  l.prompts = ps;
  l.max_concurrency = 3;
  auto phase = run_virtual(e, l).value();
  ASSERT_EQ(phase.records.size(), 12u);
  std::vector<util::Nanos> ends;
  for (const auto& r : phase.records) {
    EXPECT_TRUE(r.ok()) << r.error_message;
    EXPECT_EQ(r.output_tokens(), 16);
    EXPECT_EQ(r.input_tokens(), 512);
    EXPECT_EQ(r.token_chunks, 16u);
    EXPECT_LE(in_flight_at(phase.records, r.sent), 3);
    ends.push_back(r.done);
  }
  // The first three go out at 0; every later one exactly when an earlier one ended.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(phase.records[static_cast<std::size_t>(i)].sent.count(), 0);
  for (std::size_t i = 3; i < 12; ++i) {
    EXPECT_NE(std::find(ends.begin(), ends.end(), phase.records[i].sent), ends.end()) << i;
  }
  EXPECT_EQ(phase.span, *std::max_element(ends.begin(), ends.end()));
  EXPECT_EQ(phase.chunks.size(), 12u * 16u);
}

TEST(VirtualLoad, AFollowUpSentAsAStepEndsWaitsForTheStepTheServerAlreadyLaunched) {
  // C=2, one request long and one short: the short one's follow-up is sent while the long one
  // decodes, so it cannot be prefilled at the very instant it was sent (a step was already running).
  auto e = engine();
  auto ps = prompts(3, 256, 64);
  ps[1].output_tokens = 2;
  VirtualLoad l;
  l.prompts = ps;
  l.max_concurrency = 2;
  auto phase = run_virtual(e, l).value();
  const auto& follow = phase.records[2];
  EXPECT_EQ(follow.sent, phase.records[1].done);
  ASSERT_TRUE(follow.first_token);
  // Its first token comes no earlier than one decode step plus its own prefill after it was sent.
  const auto decode_step = (*phase.records[0].last_token - *phase.records[0].first_token) / 63;
  EXPECT_GT(*follow.first_token - follow.sent, decode_step);
}

TEST(VirtualLoad, AtConcurrencyOneEveryRequestRunsAlone) {
  auto e = engine();
  const auto ps = prompts(4, 1024, 8);
  VirtualLoad l;
  l.prompts = ps;
  l.max_concurrency = 1;
  auto phase = run_virtual(e, l).value();
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(phase.records[i].sent, phase.records[i - 1].done);
  // Same prompt length, same output, idle engine: the same TTFT every time.
  const auto ttft0 = *phase.records[0].first_token - phase.records[0].sent;
  for (const auto& r : phase.records) EXPECT_EQ(*r.first_token - r.sent, ttft0);
}

TEST(VirtualLoad, OpenLoopSendsOnScheduleAndTheEngineIdlesBetweenSparseArrivals) {
  auto e = engine();
  const auto ps = prompts(4, 128, 4);
  VirtualLoad l;
  l.prompts = ps;
  l.offsets = {milliseconds(0), milliseconds(500), milliseconds(1000), milliseconds(1500)};
  auto phase = run_virtual(e, l).value();
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(phase.records[i].intended, l.offsets[i]);
    EXPECT_EQ(phase.records[i].sent, l.offsets[i]);  // no cap: never late
    EXPECT_LT(phase.records[i].done, l.offsets[i] + milliseconds(500));  // finished before the next came
  }
}

TEST(VirtualLoad, OpenLoopUnderACapReleasesLateRequestsWhenASlotFrees) {
  auto e = engine();
  const auto ps = prompts(6, 256, 32);
  VirtualLoad l;
  l.prompts = ps;
  l.max_concurrency = 2;
  l.offsets.assign(6, milliseconds(0));
  auto phase = run_virtual(e, l).value();
  for (const auto& r : phase.records) {
    EXPECT_GE(r.sent, r.intended);
    EXPECT_LE(in_flight_at(phase.records, r.sent), 2);
  }
  EXPECT_GT(phase.records[5].sent, phase.records[5].intended);
}

TEST(VirtualLoad, APromptTheEngineRefusesIsAFailedRequestWithTheServersAnswer) {
  auto e = engine();
  auto ps = prompts(2, 64, 8);
  ps[0].output_tokens = 1'000'000;  // beyond the context length
  VirtualLoad l;
  l.prompts = ps;
  l.ignore_eos = true;
  auto phase = run_virtual(e, l).value();
  EXPECT_FALSE(phase.records[0].ok());
  EXPECT_EQ(phase.records[0].http_status, 400);
  EXPECT_FALSE(phase.records[0].error_message.empty());
  EXPECT_TRUE(phase.records[1].ok());
}

class CountingSink final : public RequestSink {
 public:
  void on_request(const load::RequestRecord& r, std::span<const load::ChunkMark> chunks) override {
    requests += 1;
    tokens += r.output_tokens();
    for (const auto& c : chunks) chunk_tokens += c.tokens;
  }
  std::int64_t requests = 0, tokens = 0, chunk_tokens = 0;
};

TEST(VirtualLoad, WithASinkNothingIsHeldAndTheSameRunComesOut) {
  auto a = engine();
  auto b = engine();
  const auto ps = prompts(20, 256, 12);
  VirtualLoad l;
  l.prompts = ps;
  l.max_concurrency = 4;
  CountingSink sink;
  auto streamed = run_virtual(a, l, &sink).value();
  auto held = run_virtual(b, l).value();
  EXPECT_TRUE(streamed.records.empty());
  EXPECT_TRUE(streamed.chunks.empty());
  EXPECT_EQ(sink.requests, 20);
  EXPECT_EQ(sink.tokens, 20 * 12);
  EXPECT_EQ(sink.chunk_tokens, 20 * 12);
  EXPECT_EQ(streamed.span, held.span);  // deterministic: same engine, same calls
  EXPECT_EQ(streamed.steps, held.steps);
}

TEST(VirtualLoad, AScheduleOfTheWrongLengthIsBadInput) {
  auto e = engine();
  const auto ps = prompts(2, 16, 2);
  VirtualLoad l;
  l.prompts = ps;
  l.offsets = {milliseconds(0)};
  auto phase = run_virtual(e, l);
  ASSERT_FALSE(phase.has_value());
  EXPECT_EQ(phase.error().kind, util::ErrorKind::bad_input);
}

}  // namespace
}  // namespace servebench::plan
