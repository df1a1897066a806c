// The inference routes over loopback: a real SimServer on an ephemeral port in fast timing.
#include <gtest/gtest.h>

#include "front_fixture.hpp"
#include "servebench/http/sse_decoder.hpp"

using namespace servebench;
using namespace servebench::sim;
using sim::test::Front;

namespace {

std::vector<boost::json::value> sse_json(const std::string& body, bool& done) {
  std::vector<boost::json::value> out;
  done = false;
  http::SseDecoder decoder;
  decoder.feed(body, [&](const http::SseEvent& e) {
    if (e.data == "[DONE]") {
      done = true;
    } else {
      out.push_back(boost::json::parse(e.data));
    }
  });
  return out;
}

std::string message_of(const http::Response& r) { return std::string(Front::json(r).at("message").as_string()); }

}  // namespace

TEST(RoutesInference, StreamingCompletionWithIgnoreEosReturnsExactlyMaxTokens) {
  Front f;
  const auto r = f.post("/v1/completions", R"({"model":"x","prompt":"Hello there","max_tokens":33,"ignore_eos":true,
      "stream":true,"stream_options":{"include_usage":true}})");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/event-stream");
  bool done = false;
  const auto chunks = sse_json(r.body, done);
  EXPECT_TRUE(done);
  ASSERT_GE(chunks.size(), 2u);
  const auto& usage = chunks.back().at("usage");
  EXPECT_EQ(usage.at("completion_tokens"), 33);
  // The same count /tokenize gives (BOS included), so clients can size prompts without a tokenizer.
  EXPECT_EQ(usage.at("prompt_tokens"), Front::json(f.post("/tokenize", R"({"prompt":"Hello there"})")).at("count"));
  EXPECT_TRUE(usage.at("prompt_tokens_details").as_object().contains("cached_tokens"));
  EXPECT_EQ(chunks[chunks.size() - 2].at("choices").at(0).at("finish_reason"), "length");
}

TEST(RoutesInference, TokenIdPromptCountsItsTokens) {
  Front f;
  const auto r = f.post("/v1/completions", R"({"prompt":[11,22,33,44,55],"max_tokens":4,"ignore_eos":true})");
  ASSERT_EQ(r.status, 200);
  const auto body = Front::json(r);
  EXPECT_EQ(body.at("usage").at("prompt_tokens"), 5);
  EXPECT_EQ(body.at("usage").at("completion_tokens"), 4);
  EXPECT_EQ(body.at("object"), "text_completion");
}

TEST(RoutesInference, ChatStreamSendsARoleOnlyChunkFirst) {
  Front f;
  const auto r = f.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":5,
      "ignore_eos":true,"stream":true})");
  ASSERT_EQ(r.status, 200);
  bool done = false;
  const auto chunks = sse_json(r.body, done);
  EXPECT_TRUE(done);
  ASSERT_GE(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].at("choices").at(0).at("delta").at("role"), "assistant");
  EXPECT_EQ(chunks[0].at("choices").at(0).at("delta").at("content"), "");
  EXPECT_EQ(chunks.back().at("choices").at(0).at("finish_reason"), "length");
}

TEST(RoutesInference, GenerateReturnsSglangMetaInfo) {
  Front f;
  const auto r =
      f.post("/generate", R"({"input_ids":[1,2,3,4],"sampling_params":{"max_new_tokens":6,"ignore_eos":true}})");
  ASSERT_EQ(r.status, 200);
  const auto body = Front::json(r);
  EXPECT_EQ(body.at("output_ids").as_array().size(), 6u);
  const auto& meta = body.at("meta_info");
  EXPECT_EQ(meta.at("prompt_tokens"), 4);
  EXPECT_EQ(meta.at("completion_tokens"), 6);
  EXPECT_EQ(meta.at("cached_tokens"), 0);
  EXPECT_EQ(meta.at("cached_tokens_details").at("host"), 0);
  EXPECT_GT(meta.at("e2e_latency").to_number<double>(), 0.0);
  EXPECT_EQ(meta.at("finish_reason").at("type"), "length");
}

TEST(RoutesInference, RepeatedPromptHitsThePrefixCache) {
  Front f;
  const char* body =
      R"({"input_ids":[9,8,7,6,5,4,3,2,1,9,8,7,6,5,4,3],"sampling_params":{"max_new_tokens":2,"ignore_eos":true}})";
  ASSERT_EQ(f.post("/generate", body).status, 200);
  const auto second = Front::json(f.post("/generate", body));
  EXPECT_GT(second.at("meta_info").at("cached_tokens").as_int64(), 0);
}

TEST(RoutesInference, GreedyOutputIsDeterministic) {
  Front f;
  const char* body = R"({"prompt":"The same prompt","max_tokens":12,"temperature":0,"ignore_eos":true})";
  const auto a = Front::json(f.post("/v1/completions", body));
  const auto b = Front::json(f.post("/v1/completions", body));
  EXPECT_EQ(a.at("choices").at(0).at("text"), b.at("choices").at(0).at("text"));
  EXPECT_FALSE(a.at("choices").at(0).at("text").as_string().empty());
}

TEST(RoutesInference, StopStringEndsTheOutputBeforeIt) {
  Front f;
  const char* body = R"({"prompt":"Stop test","max_tokens":12,"temperature":0,"ignore_eos":true})";
  const std::string full(Front::json(f.post("/v1/completions", body)).at("choices").at(0).at("text").as_string());
  const auto second_word = full.find(' ', 1);
  ASSERT_NE(second_word, std::string::npos) << full;
  const std::string stop = full.substr(second_word, 3);
  const auto r = Front::json(f.post("/v1/completions", R"({"prompt":"Stop test","max_tokens":12,"temperature":0,
      "ignore_eos":true,"stop":[)" + boost::json::serialize(boost::json::value(stop)) +
                                                           "]}"));
  EXPECT_EQ(r.at("choices").at(0).at("text").as_string(), full.substr(0, second_word));
  EXPECT_EQ(r.at("choices").at(0).at("finish_reason"), "stop");
}

TEST(RoutesInference, BatchPromptAnswersOneChoicePerPrompt) {
  Front f;
  const auto body =
      Front::json(f.post("/v1/completions", R"({"prompt":[[1,2,3],[4,5]],"max_tokens":2,"ignore_eos":true})"));
  const auto& choices = body.at("choices").as_array();
  ASSERT_EQ(choices.size(), 2u);
  EXPECT_EQ(choices[1].at("index"), 1);
  EXPECT_EQ(body.at("usage").at("prompt_tokens"), 5);
  EXPECT_EQ(body.at("usage").at("completion_tokens"), 4);
}

TEST(RoutesInference, BadInputAnswers400NamingTheProblem) {
  Front f;
  auto r = f.post("/v1/completions", R"({"prompt":"x",)");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(message_of(r).find("request body"), std::string::npos) << r.body;
  r = f.post("/v1/completions", R"({"prompt":"x","max_tokens":-1})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(message_of(r).find("max_tokens"), std::string::npos) << r.body;
  r = f.post("/v1/chat/completions", R"({"messages":[]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(message_of(r).find("messages"), std::string::npos) << r.body;
  r = f.post("/generate", R"({"input_ids":[1, 99999999]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(message_of(r).find("vocabulary"), std::string::npos) << r.body;
}

TEST(RoutesInference, PromptPlusMaxTokensBeyondTheContextIs400) {
  SimConfig config;
  config.context_length = 1024;
  Front f(sim::test::fast_options(), config);
  const auto r = f.post("/v1/completions", R"({"prompt":[1,2,3,4],"max_tokens":1021})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(message_of(r).find("maximum context length of 1024 tokens"), std::string::npos) << r.body;
  EXPECT_EQ(f.post("/v1/completions", R"({"prompt":[1,2,3,4],"max_tokens":1020,"ignore_eos":true})").status, 200);
}

TEST(RoutesInference, MaxTokensNearInt64MaxIs400AndTheServerKeepsAnswering) {
  Front f(sim::test::fast_options());
  const auto r = f.post("/v1/completions", R"({"prompt":[1,2,3,4],"max_tokens":9223372036854775807,"ignore_eos":true})");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(message_of(r).find("maximum context length"), std::string::npos) << r.body;
  EXPECT_EQ(f.post("/v1/completions", R"({"prompt":[1,2,3,4],"max_tokens":3,"ignore_eos":true})").status, 200);
}

TEST(RoutesInference, OracleAnswersWordProblemsAndCallsTools) {
  auto options = sim::test::fast_options();
  options.oracle = OracleMode::on;
  Front f(options);
  auto r = Front::json(f.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":
      "Mia has 7 cards. Mia buys 3 boxes with 4 cards in each box. How many cards does Mia have now?"}],
      "temperature":0.7,"max_tokens":64})"));
  EXPECT_EQ(r.at("choices").at(0).at("message").at("content"), "The answer is 19.");
  EXPECT_EQ(r.at("choices").at(0).at("finish_reason"), "stop");
  r = Front::json(f.post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"weather in Paris?"}],
      "tools":[{"type":"function","function":{"name":"get_weather","parameters":{}}}],"max_tokens":64})"));
  EXPECT_EQ(r.at("choices").at(0).at("finish_reason"), "tool_calls");
  EXPECT_EQ(r.at("choices").at(0).at("message").at("tool_calls").at(0).at("function").at("name"), "get_weather");
}
