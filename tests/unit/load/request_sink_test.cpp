#include "servebench/load/request_sink.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

// Counts this binary's heap allocations, so the hot path can be checked for none.
#include "support/counting_new.hpp"

namespace servebench::load {
namespace {

using std::chrono::milliseconds;

std::string fixture(const char* name) {
  auto text = util::read_file(std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/load/llamacpp/" + name);
  EXPECT_TRUE(text) << name;
  return text.value_or("");
}

struct Harness {
  util::ManualClock clock{util::TimePoint{milliseconds(1000)}};
  ThreadRecorder recorder;
  RequestRecord record;
  int finished = 0;
  RequestSink sink;

  explicit Harness(Streaming mode = Streaming::sse)
      : sink(recorder, clock, util::TimePoint{milliseconds(1000)}, mode, [this](RequestSink&) { ++finished; }) {
    record.index = 0;
    sink.begin(record);
  }
  // Feeds `bytes` in `parts` reads, the k-th read returning at origin + 10·(k+1) ms.
  void feed(std::string_view bytes, int parts) {
    sink.on_sent(clock.now());
    sink.on_headers(200, "text/event-stream");
    const std::size_t step = bytes.size() / static_cast<std::size_t>(parts) + 1;
    for (int k = 0; k < parts && !bytes.empty(); ++k) {
      const std::size_t n = std::min(step, bytes.size());
      clock.set(util::TimePoint{milliseconds(1000 + 10 * (k + 1))});
      sink.on_body(bytes.substr(0, n), clock.now());
      bytes.remove_prefix(n);
    }
    sink.on_done({});
  }
};

TEST(RequestSink, LlamaChatStreamSkipsTheRoleOnlyChunkAndReadsUsageFromTheFinishChunk) {
  Harness h;
  h.feed(fixture("chat_stream.sse"), 1);
  const RequestRecord& r = h.record;
  EXPECT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.token_chunks, 6u);  // role-only first chunk and the empty finish delta carry no token
  EXPECT_EQ(r.chunks, 10u);       // nine JSON events and [DONE]
  EXPECT_EQ(r.output_tokens_served, 6);
  EXPECT_EQ(r.input_tokens_served, 30);
  EXPECT_EQ(r.cached_tokens, 0);
  EXPECT_EQ(r.finish_reason, "length");
  EXPECT_EQ(h.recorder.chunks.size(), 6u);
  EXPECT_EQ(h.finished, 1);
}

TEST(RequestSink, TimestampsComeFromTheReadThatCarriedTheToken) {
  Harness h;
  const std::string bytes = fixture("completions_stream.sse");
  h.feed(bytes, 4);
  const RequestRecord& r = h.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.token_chunks, 8u);
  EXPECT_EQ(r.output_tokens_served, 8);
  EXPECT_EQ(r.input_tokens_served, 11);
  // The first event completes inside the first read (10 ms), the last token inside the last read
  // that holds a text chunk; the usage chunk after it is not a token.
  EXPECT_EQ(r.first_token, milliseconds(10));
  ASSERT_TRUE(r.last_token);
  EXPECT_LE(*r.last_token, milliseconds(40));
  EXPECT_GE(*r.last_token, milliseconds(30));
  EXPECT_FALSE(r.chunk_tokens_exact);  // OpenAI text chunks do not say how many tokens they hold
  EXPECT_EQ(h.recorder.lags.read_lag.count(), 4u);
}

TEST(RequestSink, WholeBodyResponseCountsItsCompletionTokens) {
  Harness h(Streaming::whole_body);
  h.feed(fixture("completions_nostream.json"), 2);
  const RequestRecord& r = h.record;
  ASSERT_TRUE(r.ok()) << r.error_message;
  EXPECT_EQ(r.output_tokens_served, 4);
  EXPECT_EQ(r.cached_tokens, 5);
  EXPECT_EQ(r.first_token, r.last_token);
}

TEST(RequestSink, MalformedChunkAndHttpErrorsBecomeErrorKinds) {
  Harness bad;
  bad.feed("data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {oops\n\n", 1);
  EXPECT_EQ(bad.record.error, RequestError::malformed);
  EXPECT_FALSE(bad.record.error_message.empty());

  Harness status;
  status.sink.on_headers(503, "application/json");
  status.sink.on_done({.result = http::StreamResult::http_status, .status = 503, .error_body = "{\"error\":\"busy\"}", .message = "", .reconnects = 0});
  EXPECT_EQ(status.record.error, RequestError::http_status);
  EXPECT_EQ(status.record.error_message, "HTTP 503: {\"error\":\"busy\"}");

  Harness empty;
  empty.feed("data: [DONE]\n\n", 1);
  EXPECT_EQ(empty.record.error, RequestError::no_tokens);
}

TEST(RequestSink, SimulatorStampsGiveClientAddedLatency) {
  Harness h;
  // Emitted at 1005 ms on the shared steady clock, read at 1010 ms: 5 ms added.
  const std::int64_t emit = std::chrono::nanoseconds(milliseconds(1005)).count();
  h.feed(fmt::format("data: {{\"choices\":[{{\"text\":\"a\"}}],\"sb_emit_ns\":{}}}\n\ndata: [DONE]\n\n", emit), 1);
  ASSERT_TRUE(h.record.ok()) << h.record.error_message;
  ASSERT_EQ(h.recorder.lags.client_added.count(), 1u);
  EXPECT_NEAR(h.recorder.lags.client_added.percentile(50), 5e6, 5e6 * 0.01);
}

}  // namespace
}  // namespace servebench::load

namespace servebench::load {
namespace {

std::string stream_of(int tokens) {
  std::string s;
  for (int i = 0; i < tokens; ++i) {
    s += "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" tok\","
         "\"logprobs\":null,\"finish_reason\":null}]}\n\n";
  }
  s += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":" + std::to_string(tokens) +
       ",\"total_tokens\":9}}\n\ndata: [DONE]\n\n";
  return s;
}

TEST(RequestSink, SteadyStateChunksAllocateNothing) {
  util::ManualClock clock{util::TimePoint{milliseconds(1)}};
  ThreadRecorder recorder;
  recorder.chunks.reserve(4096);
  RequestSink sink(recorder, clock, util::TimePoint{}, Streaming::sse, [](RequestSink&) {});
  const std::string bytes = stream_of(1000);
  const auto feed = [&](RequestRecord& record) {
    sink.begin(record);
    sink.on_headers(200, "text/event-stream");
    // One SSE event per read, as a server streaming tokens one at a time delivers them.
    std::size_t at = 0;
    while (at < bytes.size()) {
      const std::size_t end = bytes.find("\n\n", at) + 2;
      sink.on_body(std::string_view(bytes).substr(at, end - at), clock.now());
      at = end;
    }
  };
  RequestRecord warm, measured;
  const long cold = servebench::testing::allocations();
  feed(warm);  // grows the decoder's and parser's buffers once
  EXPECT_GT(servebench::testing::allocations(), cold);  // the counter sees the sink's own allocations
  const long before = servebench::testing::allocations();
  feed(measured);
  const long after = servebench::testing::allocations();
  EXPECT_EQ(after - before, 0);
  EXPECT_EQ(measured.token_chunks, 1000u);
  EXPECT_EQ(measured.output_tokens_served, 1000);
}

TEST(RequestSink, AnErrorEventInsideA2xxStreamIsAStreamError) {
  Harness h;
  h.feed("data: {\"error\":{\"code\":500,\"message\":\"out of memory\",\"type\":\"server_error\"}}\n\n"
         "data: [DONE]\n\n",
         1);
  EXPECT_EQ(h.record.error, RequestError::stream_error);
  EXPECT_NE(h.record.error_message.find("out of memory"), std::string::npos) << h.record.error_message;
  EXPECT_EQ(to_string(h.record.error), "stream_error");
}

}  // namespace
}  // namespace servebench::load
