#include "servebench/wire/response_encoder.hpp"

#include <array>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "servebench/wire/chunk_parser.hpp"

namespace servebench::wire {
namespace {

const ResponseHeader k_header{"cmpl-1", "model-a", 1700000000};

Chunk parse_event(ChunkParser& parser, const std::string& data) {
  Chunk c;
  auto ok = parser.parse_event(data, c);
  EXPECT_TRUE(ok) << data;
  return c;
}

TEST(ResponseEncoder, CompletionChunkRoundTrips) {
  std::string out;
  const Usage usage{100, 1, 0};
  ChunkBody body;
  body.text = "he said \"hi\"\n";
  body.usage = &usage;
  body.emit_ns = 42;
  encode_completion_chunk(out, k_header, body);
  const auto o = boost::json::parse(out).as_object();
  EXPECT_EQ(o.at("object").as_string(), "text_completion");
  EXPECT_EQ(o.at("id").as_string(), "cmpl-1");
  EXPECT_EQ(o.at("created").as_int64(), 1700000000);
  EXPECT_TRUE(o.at("choices").as_array()[0].at("finish_reason").is_null());
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  EXPECT_TRUE(c.token_bearing);
  EXPECT_EQ(c.tokens, 1);
  EXPECT_EQ(c.source, TokenCountSource::usage_delta);
  EXPECT_EQ(c.usage, usage);
  EXPECT_EQ(c.emit_ns, 42);
  EXPECT_EQ(c.finish, FinishReason::none);
}

TEST(ResponseEncoder, ChatStreamRoundTrips) {
  ChunkParser parser;
  std::string out;
  encode_chat_role_chunk(out, k_header, std::nullopt);
  const Chunk role = parse_event(parser, out);
  EXPECT_FALSE(role.token_bearing);
  EXPECT_EQ(boost::json::parse(out).at("object").as_string(), "chat.completion.chunk");
  out.clear();
  ChunkBody body;
  body.text = "Paris";
  encode_chat_chunk(out, k_header, body);
  const Chunk content = parse_event(parser, out);
  EXPECT_TRUE(content.token_bearing);
  EXPECT_EQ(std::string(content.text), "Paris");
  out.clear();
  body.text = {};
  body.finish = FinishReason::stop;
  encode_chat_chunk(out, k_header, body);
  const Chunk finish = parse_event(parser, out);
  EXPECT_FALSE(finish.token_bearing);
  EXPECT_EQ(finish.finish, FinishReason::stop);
  EXPECT_TRUE(boost::json::parse(out).at("choices").as_array()[0].at("delta").as_object().empty());
}

TEST(ResponseEncoder, UsageChunkCarriesCachedTokens) {
  std::string out;
  encode_usage_chunk(out, ResponseKind::chat, k_header, Usage{1024, 256, 512}, 7);
  const auto o = boost::json::parse(out).as_object();
  EXPECT_TRUE(o.at("choices").as_array().empty());
  EXPECT_EQ(o.at("usage").at("total_tokens").as_int64(), 1280);
  EXPECT_EQ(o.at("usage").at("prompt_tokens_details").at("cached_tokens").as_int64(), 512);
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  EXPECT_FALSE(c.token_bearing);
  EXPECT_EQ(c.tokens, 0);
  EXPECT_EQ(c.usage, (Usage{1024, 256, 512}));
  EXPECT_EQ(c.emit_ns, 7);
  out.clear();
  encode_usage_chunk(out, ResponseKind::completion, k_header, Usage{3, 4, std::nullopt}, std::nullopt);
  EXPECT_TRUE(boost::json::parse(out).at("usage").at("prompt_tokens_details").is_null());
  EXPECT_EQ(parse_event(parser, out).usage, (Usage{3, 4, std::nullopt}));
}

TEST(ResponseEncoder, NonStreamResponsesRoundTrip) {
  ChunkParser parser;
  for (auto kind : {ResponseKind::completion, ResponseKind::chat}) {
    std::string out;
    encode_completion_response(out, kind, k_header, "x y", FinishReason::length, Usage{10, 2, 0});
    EXPECT_EQ(boost::json::parse(out).at("object").as_string(),
              kind == ResponseKind::chat ? "chat.completion" : "text_completion");
    Chunk c;
    ASSERT_TRUE(parser.parse_response(out, c));
    EXPECT_EQ(c.text, "x y");
    EXPECT_EQ(c.tokens, 2);
    EXPECT_EQ(c.finish, FinishReason::length);
    EXPECT_EQ(c.usage, (Usage{10, 2, 0}));
  }
}

TEST(ResponseEncoder, GenerateStreamRoundTripsMetaInfo) {
  ChunkParser parser;
  const std::vector<std::int32_t> ids{4, 5, 6};
  GenerateOutput g;
  g.id = "rid";
  g.text = "ab";
  g.output_ids = std::span(ids).first(2);
  g.meta.prompt_tokens = 9;
  g.meta.completion_tokens = 2;
  g.meta.cached_tokens = 0;
  std::string out;
  encode_generate(out, g);
  Chunk c = parse_event(parser, out);
  EXPECT_EQ(c.tokens, 2);
  EXPECT_EQ(std::string(c.text), "ab");
  EXPECT_TRUE(boost::json::parse(out).at("meta_info").at("finish_reason").is_null());

  g.text = "abc";
  g.output_ids = ids;
  g.meta.completion_tokens = 3;
  g.meta.cached_tokens = 6;
  g.meta.cached_device = 4;
  g.meta.cached_host = 2;
  g.meta.spec_verify_ct = 2;
  g.meta.e2e_latency = std::chrono::milliseconds(250);
  g.meta.finish = FinishReason::length;
  g.meta.finish_length = 3;
  g.emit_ns = 99;
  out.clear();
  encode_generate(out, g);
  c = parse_event(parser, out);
  EXPECT_EQ(c.tokens, 1);
  EXPECT_EQ(std::string(c.text), "c");
  EXPECT_EQ(c.finish, FinishReason::length);
  ASSERT_TRUE(c.meta);
  EXPECT_EQ(*c.meta, g.meta);
  EXPECT_EQ(c.emit_ns, 99);
  const auto o = boost::json::parse(out).as_object();
  EXPECT_EQ(o.at("meta_info").at("finish_reason").at("type").as_string(), "length");
  EXPECT_EQ(o.at("meta_info").at("cached_tokens_details").at("device").as_int64(), 4);
  EXPECT_EQ(o.at("output_ids").as_array().size(), 3u);

  ChunkParser whole;
  Chunk r;
  ASSERT_TRUE(whole.parse_response(out, r));
  EXPECT_EQ(r.tokens, 3);
  EXPECT_EQ(r.text, "abc");
}

TEST(ResponseEncoder, StopFinishCarriesMatchedToken) {
  GenerateOutput g;
  g.id = "r";
  g.meta.completion_tokens = 1;
  g.meta.finish = FinishReason::stop;
  g.meta.finish_matched = std::int64_t{151645};
  std::string out;
  encode_generate(out, g);
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  ASSERT_TRUE(c.meta);
  EXPECT_EQ(c.meta->finish, FinishReason::stop);
  EXPECT_EQ(c.meta->finish_matched, MatchedStop{std::int64_t{151645}});
}

TEST(ResponseEncoder, ErrorBodyIsSglangShaped) {
  std::string out;
  encode_error(out, "max_tokens: expected an integer >= 0, got \"x\"");
  EXPECT_EQ(out, R"({"object":"error","message":"max_tokens: expected an integer >= 0, got \"x\"",)"
                 R"("type":"BadRequestError","param":null,"code":400})");
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 400);
  EXPECT_EQ(c.error->message, "max_tokens: expected an integer >= 0, got \"x\"");
}

TEST(ResponseEncoder, TokenizeAndDetokenizeUseSglangKeys) {
  std::string out;
  const std::vector<std::int32_t> tokens{1, 2, 3};
  encode_tokenize_response(out, tokens, 32768);
  EXPECT_EQ(out, R"({"tokens":[1,2,3],"count":3,"max_model_len":32768})");
  out.clear();
  encode_detokenize_response(out, "a\"b");
  EXPECT_EQ(out, R"({"text":"a\"b"})");
}

TEST(ResponseEncoder, StopStringFinishCarriesMatchedText) {
  GenerateOutput g;
  g.id = "r";
  g.text = "x";
  g.meta.completion_tokens = 1;
  g.meta.finish = FinishReason::stop;
  const std::string stop = "</answer> and \"more\" past the inline buffer";
  g.meta.finish_matched = stop;
  std::string out;
  encode_generate(out, g);
  EXPECT_EQ(boost::json::parse(out).at("meta_info").at("finish_reason").at("matched").as_string(), stop);
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  ASSERT_TRUE(c.meta);
  EXPECT_EQ(c.meta->finish_matched, MatchedStop{stop});
  EXPECT_EQ(*c.meta, g.meta);
  Chunk whole;
  ChunkParser whole_parser;  // what the chunk views lives in its parser
  ASSERT_TRUE(whole_parser.parse_response(out, whole));
  EXPECT_EQ(whole.meta->finish_matched, MatchedStop{stop});
  // The next chunk on the same parser does not inherit the string.
  g.meta.finish_matched = std::int64_t{2};
  out.clear();
  encode_generate(out, g);
  EXPECT_EQ(parse_event(parser, out).meta->finish_matched, MatchedStop{std::int64_t{2}});
}

TEST(ResponseEncoder, BatchIndexMarksChunksAndGenerateObjects) {
  ChunkParser parser;
  ChunkBody body;
  body.text = "t";
  body.index = 3;
  std::string out;
  encode_completion_chunk(out, k_header, body);
  EXPECT_EQ(boost::json::parse(out).at("choices").as_array()[0].at("index").as_int64(), 3);
  EXPECT_EQ(std::string(parse_event(parser, out).text), "t");
  out.clear();
  encode_chat_chunk(out, k_header, body);
  EXPECT_EQ(boost::json::parse(out).at("choices").as_array()[0].at("index").as_int64(), 3);
  EXPECT_EQ(std::string(parse_event(parser, out).text), "t");

  GenerateOutput g;
  g.id = "r";
  g.text = "g";
  g.meta.completion_tokens = 1;
  out.clear();
  encode_generate(out, g);
  EXPECT_FALSE(boost::json::parse(out).as_object().contains("index"));
  g.index = 2;
  out.clear();
  encode_generate(out, g);
  EXPECT_EQ(boost::json::parse(out).at("index").as_int64(), 2);
  ChunkParser native;
  const Chunk c = parse_event(native, out);
  EXPECT_EQ(std::string(c.text), "g");
  EXPECT_EQ(c.tokens, 1);
}

TEST(ResponseEncoder, BatchCompletionResponseKeepsChoicesInOrder) {
  const std::array<ResponseChoice, 3> choices{
      ResponseChoice{"a", FinishReason::length}, ResponseChoice{"b", FinishReason::stop},
      ResponseChoice{"c", FinishReason::length}};
  for (auto kind : {ResponseKind::completion, ResponseKind::chat}) {
    std::string out;
    encode_batch_completion_response(out, kind, k_header, choices, Usage{30, 6, 3});
    const auto o = boost::json::parse(out).as_object();
    const auto& array = o.at("choices").as_array();
    ASSERT_EQ(array.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      const auto& choice = array[i].as_object();
      EXPECT_EQ(choice.at("index").as_int64(), static_cast<std::int64_t>(i));
      const auto& text = kind == ResponseKind::chat ? choice.at("message").at("content") : choice.at("text");
      EXPECT_EQ(text.as_string(), choices[i].text);
      EXPECT_EQ(choice.at("finish_reason").as_string(), to_string(choices[i].finish));
    }
    EXPECT_EQ(o.at("usage").at("total_tokens").as_int64(), 36);
    Chunk c;
    ChunkParser parser;  // c.text views the parser's buffer: the parser must outlive it
    ASSERT_TRUE(parser.parse_response(out, c));
    EXPECT_EQ(c.text, "abc");  // the parser reads every choice's text
    EXPECT_EQ(c.tokens, 6);
    EXPECT_EQ(c.usage, (Usage{30, 6, 3}));
  }
  std::string single, batch;
  encode_completion_response(single, ResponseKind::completion, k_header, "a", FinishReason::length, Usage{1, 2, 0});
  encode_batch_completion_response(batch, ResponseKind::completion, k_header, std::span(choices).first(1),
                                   Usage{1, 2, 0});
  EXPECT_EQ(single, batch);
}

TEST(ResponseEncoder, ToolCallChunkRoundTrips) {
  std::string out;
  encode_tool_call_chunk(out, k_header, ToolCall{"call_1", "get_weather", R"({"city":"Paris"})"}, 42);
  const auto o = boost::json::parse(out).as_object();
  EXPECT_EQ(o.at("object").as_string(), "chat.completion.chunk");
  const auto& choice = o.at("choices").as_array()[0].as_object();
  EXPECT_EQ(choice.at("finish_reason").as_string(), "tool_calls");
  EXPECT_FALSE(choice.at("delta").as_object().contains("content"));
  const auto& call = choice.at("delta").at("tool_calls").as_array()[0].as_object();
  EXPECT_EQ(call.at("index").as_int64(), 0);
  EXPECT_EQ(call.at("id").as_string(), "call_1");
  EXPECT_EQ(call.at("type").as_string(), "function");
  EXPECT_EQ(call.at("function").at("name").as_string(), "get_weather");
  EXPECT_EQ(call.at("function").at("arguments").as_string(), R"({"city":"Paris"})");
  ChunkParser parser;
  const Chunk c = parse_event(parser, out);
  EXPECT_TRUE(c.token_bearing);  // the call's text is generated output
  EXPECT_EQ(c.tokens, 1);
  EXPECT_TRUE(c.text.empty());
  EXPECT_EQ(c.finish, FinishReason::tool_calls);
  EXPECT_EQ(c.emit_ns, 42);
}

TEST(ResponseEncoder, ToolCallResponseRoundTrips) {
  std::string out;
  encode_tool_call_response(out, k_header, ToolCall{"call_1", "get_weather", "{}"}, Usage{5, 7, 0});
  const auto o = boost::json::parse(out).as_object();
  EXPECT_EQ(o.at("object").as_string(), "chat.completion");
  const auto& choice = o.at("choices").as_array()[0].as_object();
  EXPECT_EQ(choice.at("finish_reason").as_string(), "tool_calls");
  EXPECT_EQ(choice.at("message").at("role").as_string(), "assistant");
  EXPECT_TRUE(choice.at("message").at("content").is_null());
  EXPECT_EQ(choice.at("message").at("tool_calls").as_array()[0].at("function").at("name").as_string(),
            "get_weather");
  Chunk c;
  ASSERT_TRUE(ChunkParser().parse_response(out, c));
  EXPECT_TRUE(c.token_bearing);
  EXPECT_EQ(c.tokens, 7);
  EXPECT_EQ(c.finish, FinishReason::tool_calls);
  EXPECT_EQ(c.usage, (Usage{5, 7, 0}));
}

TEST(ResponseEncoder, GenerateBatchIsAnArrayInOrder) {
  std::array<GenerateOutput, 2> outputs;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].id = i == 0 ? "r0" : "r1";
    outputs[i].text = i == 0 ? "first" : "second";
    outputs[i].index = static_cast<std::int64_t>(i);
    outputs[i].meta.completion_tokens = static_cast<std::int64_t>(i + 1);
  }
  std::string out;
  encode_generate_batch(out, outputs);
  const auto array = boost::json::parse(out).as_array();
  ASSERT_EQ(array.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    std::string one;
    encode_generate(one, outputs[i]);
    EXPECT_EQ(array[i], boost::json::parse(one));  // each item is the single object
    EXPECT_EQ(array[i].at("index").as_int64(), static_cast<std::int64_t>(i));
  }
}

TEST(ResponseEncoder, BatchTokenizeAndDetokenizeUseSglangKeys) {
  std::string out;
  const std::vector<std::vector<std::int32_t>> tokens{{1, 2}, {3}, {}};
  encode_batch_tokenize_response(out, tokens, 100);
  EXPECT_EQ(out, R"({"tokens":[[1,2],[3],[]],"count":[2,1,0],"max_model_len":100})");
  out.clear();
  const std::vector<std::string> texts{"a", "b\"c"};
  encode_batch_detokenize_response(out, texts);
  EXPECT_EQ(out, R"({"text":["a","b\"c"]})");
}

}  // namespace
}  // namespace servebench::wire
