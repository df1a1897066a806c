#include "servebench/wire/chunk_parser.hpp"

#include <gtest/gtest.h>

#include "support/fixture.hpp"

// Counts this binary's heap allocations, so the hot path can be checked for none.
#include "support/counting_new.hpp"

namespace servebench::wire {
namespace {

using testing::read_fixture;
using testing::sse_data;

std::vector<Chunk> parse_all(ChunkParser& parser, const std::vector<std::string>& events) {
  std::vector<Chunk> out;
  for (const auto& e : events) {
    Chunk c;
    auto ok = parser.parse_event(e, c);
    EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
    c.text = {};  // views die with the next parse
    out.push_back(std::move(c));
  }
  return out;
}

TEST(ChunkParser, LlamacppCompletionStreamCountsEveryTokenOnce) {
  ChunkParser parser;
  const auto events = sse_data(read_fixture("llamacpp/completions_stream.sse"));
  ASSERT_EQ(events.size(), 10u);
  const auto chunks = parse_all(parser, events);
  std::int64_t tokens = 0, bearing = 0;
  for (const auto& c : chunks) {
    tokens += c.tokens;
    bearing += c.token_bearing ? 1 : 0;
  }
  EXPECT_EQ(bearing, 8);
  EXPECT_EQ(tokens, 8);
  const Chunk& last = chunks[8];  // usage arrives in the finish chunk, whose text is empty
  EXPECT_FALSE(last.token_bearing);
  EXPECT_EQ(last.finish, FinishReason::length);
  ASSERT_TRUE(last.usage);
  EXPECT_EQ(last.usage->completion_tokens, 8);
  EXPECT_EQ(last.usage->prompt_tokens, 11);
  EXPECT_EQ(last.usage->cached_tokens, 0);
  ASSERT_TRUE(last.timings);
  EXPECT_EQ(last.timings->predicted_n, 8);
  EXPECT_EQ(last.timings->prompt_n, 11);
  EXPECT_EQ(last.timings->cache_n, 0);
  EXPECT_EQ(last.timings->prompt_time, util::from_ms(5.37));
  EXPECT_FALSE(last.timings->draft_n);
  EXPECT_EQ(chunks[0].source, TokenCountSource::assumed_one);
  EXPECT_FALSE(chunks[0].usage);
  EXPECT_TRUE(chunks[9].done);
}

TEST(ChunkParser, LlamacppChatRoleOnlyFirstChunkIsNotAToken) {
  ChunkParser parser;
  const auto chunks = parse_all(parser, sse_data(read_fixture("llamacpp/chat_stream.sse")));
  ASSERT_EQ(chunks.size(), 10u);
  EXPECT_FALSE(chunks[0].token_bearing);
  EXPECT_EQ(chunks[0].tokens, 0);
  for (int i = 1; i <= 6; ++i) EXPECT_TRUE(chunks[i].token_bearing) << i;
  EXPECT_EQ(chunks[7].finish, FinishReason::length);
  EXPECT_FALSE(chunks[7].token_bearing);
  const Chunk& usage = chunks[8];  // choices: [] with usage and timings
  EXPECT_FALSE(usage.token_bearing);
  ASSERT_TRUE(usage.usage);
  EXPECT_EQ(usage.usage->completion_tokens, 6);
  EXPECT_EQ(usage.usage->prompt_tokens, 30);
  ASSERT_TRUE(usage.timings);
  EXPECT_EQ(usage.timings->predicted_n, 6);
  EXPECT_TRUE(chunks[9].done);
}

TEST(ChunkParser, TextViewCarriesTheChunkContent) {
  ChunkParser parser;
  const auto events = sse_data(read_fixture("llamacpp/chat_stream.sse"));
  Chunk c;
  ASSERT_TRUE(parser.parse_event(events[2], c));
  EXPECT_EQ(c.text, " Weblinks");
}

TEST(ChunkParser, LlamacppNonStreamResponse) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_response(read_fixture("llamacpp/completions_nostream.json"), c));
  EXPECT_EQ(c.tokens, 4);
  EXPECT_EQ(c.source, TokenCountSource::response);
  EXPECT_EQ(c.finish, FinishReason::length);
  EXPECT_EQ(c.text, " \xD0\xA3\xD0\xBA\xD1\x80\xD0\xB0\xD1\x97\xD0\xBD\xD0\xB8 Verl todas todas");
  ASSERT_TRUE(c.usage);
  EXPECT_EQ(c.usage->cached_tokens, 5);
  ASSERT_TRUE(c.timings);
  EXPECT_EQ(c.timings->cache_n, 5);
}

TEST(ChunkParser, ContinuousUsageCountsDeltas) {
  ChunkParser parser;
  const auto u = [](int n) {
    return R"({"choices":[{"index":0,"delta":{"content":"x"}}],"usage":{"prompt_tokens":9,"completion_tokens":)" +
           std::to_string(n) + "}}";
  };
  const auto chunks = parse_all(parser, {
      R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}],"usage":{"prompt_tokens":9,"completion_tokens":0}})",
      u(1), u(3), u(4),
      R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}})",
      "[DONE]"});
  EXPECT_EQ(chunks[0].tokens, 0);
  EXPECT_EQ(chunks[1].tokens, 1);
  EXPECT_EQ(chunks[2].tokens, 2);  // a speculative step that produced two tokens
  EXPECT_EQ(chunks[3].tokens, 1);
  EXPECT_EQ(chunks[2].source, TokenCountSource::usage_delta);
  EXPECT_EQ(chunks[4].tokens, 0);
  EXPECT_FALSE(chunks[4].token_bearing);
}

TEST(ChunkParser, VllmNullUsageIsAbsent) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"index":0,"text":"a","finish_reason":null}],"usage":null})", c));
  EXPECT_FALSE(c.usage);
  EXPECT_EQ(c.tokens, 1);
  EXPECT_EQ(c.finish, FinishReason::none);
}

TEST(ChunkParser, TokenIdsGiveTheCount) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"index":0,"text":"ab","token_ids":[5,6,7]}]})", c));
  EXPECT_EQ(c.tokens, 3);
  EXPECT_EQ(c.source, TokenCountSource::token_ids);
}

TEST(ChunkParser, SglangNativeCumulativeOutputBecomesDeltas) {
  ChunkParser parser;
  const auto chunks_text = std::vector<std::string>{
      R"({"text":"a","output_ids":[1],"meta_info":{"id":"r","finish_reason":null,"prompt_tokens":5,"completion_tokens":1,"cached_tokens":0}})",
      R"({"text":"abc","output_ids":[1,2,3],"meta_info":{"id":"r","finish_reason":null,"prompt_tokens":5,"completion_tokens":3,"cached_tokens":0}})",
      R"({"text":"abcd","output_ids":[1,2,3,4],"meta_info":{"id":"r","finish_reason":{"type":"length","length":4},"prompt_tokens":5,"completion_tokens":4,"cached_tokens":2,"cached_tokens_details":{"device":1,"host":1},"spec_verify_ct":2,"e2e_latency":0.25,"spec_accept_length":2.0}})",
      "[DONE]"};
  std::vector<std::string> texts;
  std::vector<std::int64_t> tokens;
  Chunk c;
  for (const auto& e : chunks_text) {
    ASSERT_TRUE(parser.parse_event(e, c));
    texts.emplace_back(c.text);
    tokens.push_back(c.tokens);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "bc", "d", ""}));
  EXPECT_EQ(tokens, (std::vector<std::int64_t>{1, 2, 1, 0}));
  ChunkParser again;
  ASSERT_TRUE(again.parse_event(chunks_text[2], c));
  EXPECT_EQ(c.source, TokenCountSource::native);
  EXPECT_EQ(c.finish, FinishReason::length);
  ASSERT_TRUE(c.meta);
  EXPECT_EQ(c.meta->finish_length, 4);
  EXPECT_EQ(c.meta->spec_verify_ct, 2);
  EXPECT_EQ(c.meta->cached_tokens, 2);
  EXPECT_EQ(c.meta->cached_device, 1);
  EXPECT_EQ(c.meta->cached_host, 1);
  EXPECT_FALSE(c.meta->cached_storage);
  EXPECT_EQ(c.meta->e2e_latency, util::from_seconds(0.25));
}

TEST(ChunkParser, SglangIncrementalStreamingKeepsTextAsSent) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"text":"a","output_ids":[1],"meta_info":{"completion_tokens":1}})", c));
  ASSERT_TRUE(parser.parse_event(R"({"text":"bc","output_ids":[2,3],"meta_info":{"completion_tokens":3}})", c));
  EXPECT_EQ(c.text, "bc");
  EXPECT_EQ(c.tokens, 2);
}

TEST(ChunkParser, ResetStartsANewStream) {
  ChunkParser parser;
  Chunk c;
  const std::string e = R"({"text":"a","output_ids":[1],"meta_info":{"completion_tokens":1}})";
  ASSERT_TRUE(parser.parse_event(e, c));
  ASSERT_TRUE(parser.parse_event(e, c));
  EXPECT_EQ(c.tokens, 0);
  parser.reset();
  ASSERT_TRUE(parser.parse_event(e, c));
  EXPECT_EQ(c.tokens, 1);
}

TEST(ChunkParser, ReasoningAndToolCallTextAreTokens) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"delta":{"reasoning_content":"hm","content":null}}]})", c));
  EXPECT_TRUE(c.token_bearing);
  EXPECT_EQ(c.text, "");
  ASSERT_TRUE(parser.parse_event(
      R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\""}}]}}]})", c));
  EXPECT_TRUE(c.token_bearing);
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"delta":{"reasoning_content":""}}]})", c));
  EXPECT_FALSE(c.token_bearing);
}

TEST(ChunkParser, ErrorObjectsInsideTheStream) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"error":{"code":500,"message":"boom \"x\"","type":"server_error"}})", c));
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 500);
  EXPECT_EQ(c.error->message, "boom \"x\"");
  ASSERT_TRUE(parser.parse_event(
      R"({"object":"error","message":"max_tokens too large","type":"BadRequestError","param":null,"code":400})", c));
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 400);
  EXPECT_EQ(c.error->message, "max_tokens too large");
  ASSERT_TRUE(parser.parse_event(R"({"error":"plain text"})", c));
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->message, "plain text");
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"text":"a"}]})", c));
  EXPECT_FALSE(c.error);
}

TEST(ChunkParser, LlamacppErrorBody) {
  const std::string recorded = read_fixture("llamacpp/error_bad_json.txt");
  const std::string body = recorded.substr(0, recorded.find('\n'));
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_response(body, c));
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 500);
  EXPECT_NE(c.error->message.find("parse error"), std::string::npos);
}

// Build b1-de3ff81 (tests/fixtures/llamacpp/README.md): 8 tokens with ignore_eos at temperature 0,
// usage and timings on the finish chunk, then [DONE].
TEST(ChunkParser, LlamacppStreamOfBuildDe3ff81) {
  ChunkParser parser;
  const auto events = sse_data(read_fixture("llamacpp/de3ff81/completions_stream.sse"));
  ASSERT_EQ(events.size(), 10u);
  const auto chunks = parse_all(parser, events);
  std::int64_t tokens = 0;
  for (const auto& c : chunks) tokens += c.tokens;
  EXPECT_EQ(tokens, 8);
  const Chunk& last = chunks[8];
  EXPECT_EQ(last.finish, FinishReason::length);
  ASSERT_TRUE(last.usage);
  EXPECT_EQ(last.usage->completion_tokens, 8);
  EXPECT_EQ(last.usage->prompt_tokens, 7);
  ASSERT_TRUE(last.timings);
  EXPECT_EQ(last.timings->predicted_n, 8);
  EXPECT_EQ(last.timings->predicted_time, util::from_ms(2.841));
  EXPECT_TRUE(chunks[9].done);
}

// A prompt longer than a slot: 400 with the error type and the two sizes beside the message.
TEST(ChunkParser, LlamacppExceedContextErrorBody) {
  const std::string recorded = read_fixture("llamacpp/de3ff81/error_exceed_context.txt");
  ASSERT_NE(recorded.find("\nHTTP 400"), std::string::npos);
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_response(recorded.substr(0, recorded.find('\n')), c));
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 400);
  EXPECT_EQ(c.error->message, "request (1100 tokens) exceeds the available context size (1024 tokens), try increasing it");
  EXPECT_EQ(c.tokens, 0);
}

TEST(ChunkParser, EmissionStampIsRead) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"text":"a"}],"sb_emit_ns":1234567890123})", c));
  EXPECT_EQ(c.emit_ns, 1234567890123);
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"text":"a"}]})", c));
  EXPECT_FALSE(c.emit_ns);
}

TEST(ChunkParser, NotJsonFails) {
  ChunkParser parser;
  Chunk c;
  auto r = parser.parse_event("{\"choices\":[", c);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not JSON"), std::string::npos);
  EXPECT_TRUE(parser.parse_event(" [DONE] \r", c));
  EXPECT_TRUE(c.done);
}

TEST(ChunkParser, ChatNonStreamResponse) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_response(
      R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"4"},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":2,"total_tokens":22}})",
      c));
  EXPECT_EQ(c.text, "4");
  EXPECT_EQ(c.tokens, 2);
  EXPECT_EQ(c.finish, FinishReason::stop);
}

TEST(ChunkParser, ParsesWithoutAllocatingInSteadyState) {
  ChunkParser parser;
  const auto events = sse_data(read_fixture("llamacpp/chat_stream.sse"));
  const std::string native =
      R"({"text":"abc","output_ids":[1,2,3],"meta_info":{"id":"r","finish_reason":{"type":"length","length":3},"prompt_tokens":5,"completion_tokens":3,"cached_tokens":0,"cached_tokens_details":{"device":0,"host":0},"spec_verify_ct":2,"e2e_latency":0.25}})";
  Chunk c;
  for (const auto& e : events) ASSERT_TRUE(parser.parse_event(e, c));  // warm-up grows the buffers
  ASSERT_TRUE(parser.parse_event(native, c));
  const long before = servebench::testing::allocations();
  for (int round = 0; round < 50; ++round) {
    parser.reset();
    for (const auto& e : events) (void)parser.parse_event(e, c);
    (void)parser.parse_event(native, c);
  }
  EXPECT_EQ(servebench::testing::allocations() - before, 0);
}

// Found by fuzz_chunk_stream (fuzz/regressions/chunk_stream/): a count sent as a double beyond int64's
// range was cast to int64 (undefined behaviour; INT64_MIN on x86).
TEST(ChunkParser, ACountBeyondInt64IsNoCount) {
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[{"text":"a"}],"usage":{"prompt_tokens":1e29,"completion_tokens":-1e300}})", c));
  ASSERT_TRUE(c.usage);
  EXPECT_GE(c.usage->prompt_tokens.value_or(0), 0);
  EXPECT_GE(c.usage->completion_tokens.value_or(0), 0);
  EXPECT_GE(c.tokens, 0);
}

}  // namespace
}  // namespace servebench::wire

namespace servebench::wire {
namespace {

TEST(ChunkParser, AnImplausibleLlamacppTimingIsLeftOutNotCast) {
  // predicted_ms 8e98 (found by fuzzing) was an out-of-range double-to-integer cast: undefined.
  ChunkParser parser;
  Chunk c;
  ASSERT_TRUE(parser.parse_event(R"({"choices":[],"timings":{"predicted_n":6,"predicted_ms":8.18182e98,"prompt_ms":-3,)"
                           R"("prompt_n":30}})",
                           c));
  ASSERT_TRUE(c.timings);
  EXPECT_EQ(c.timings->predicted_n, 6);
  EXPECT_EQ(c.timings->prompt_n, 30);
  EXPECT_FALSE(c.timings->predicted_time);
  EXPECT_FALSE(c.timings->prompt_time);
  ASSERT_TRUE(parser.parse_event(R"({"choices":[],"timings":{"predicted_ms":12.017}})", c));
  EXPECT_EQ(c.timings->predicted_time, util::from_ms(12.017));
}

}  // namespace
}  // namespace servebench::wire
