#include "servebench/wire/server_request.hpp"

#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

InferenceRequest parse_ok(ServerRoute route, std::string_view body) {
  auto r = parse_inference_request(route, body);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : InferenceRequest{};
}

std::string error_of(ServerRoute route, std::string_view body) {
  auto r = parse_inference_request(route, body);
  EXPECT_FALSE(r);
  if (r) return "";
  EXPECT_EQ(r.error().kind, util::ErrorKind::bad_input);
  return r.error().message;
}

TEST(InferenceRequest, CompletionsWithTokenIdsAndStreamOptions) {
  const auto r = parse_ok(ServerRoute::completions,
                          R"({"model":"m","prompt":[1,2,3],"max_tokens":16,"min_tokens":4,"ignore_eos":true,
                              "temperature":0,"seed":7,"stop":"END","stream":true,
                              "stream_options":{"include_usage":true,"continuous_usage_stats":true},"top_p":1})");
  ASSERT_EQ(r.prompts.size(), 1u);
  EXPECT_EQ(std::get<TokenIds>(r.prompts[0]), (TokenIds{1, 2, 3}));
  EXPECT_FALSE(r.batch);
  EXPECT_EQ(r.model, "m");
  EXPECT_EQ(r.max_tokens, 16);
  EXPECT_EQ(r.min_tokens, 4);
  EXPECT_TRUE(r.ignore_eos);
  EXPECT_EQ(r.temperature, 0.0);
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.stop, (std::vector<std::string>{"END"}));
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.include_usage);
  EXPECT_TRUE(r.continuous_usage);
}

TEST(InferenceRequest, PromptBatches) {
  auto texts = parse_ok(ServerRoute::completions, R"({"prompt":["a","b"]})");
  EXPECT_TRUE(texts.batch);
  ASSERT_EQ(texts.prompts.size(), 2u);
  EXPECT_EQ(std::get<std::string>(texts.prompts[1]), "b");
  auto ids = parse_ok(ServerRoute::completions, R"({"prompt":[[1],[2,3]]})");
  ASSERT_EQ(ids.prompts.size(), 2u);
  EXPECT_EQ(std::get<TokenIds>(ids.prompts[1]), (TokenIds{2, 3}));
  auto text = parse_ok(ServerRoute::completions, R"({"prompt":"hi"})");
  EXPECT_FALSE(text.batch);
  EXPECT_FALSE(text.max_tokens);
  EXPECT_FALSE(text.stream);
}

TEST(InferenceRequest, ChatMessagesAndCompletionTokenCap) {
  const auto r = parse_ok(ServerRoute::chat_completions,
                          R"({"messages":[{"role":"system","content":"s"},
                                          {"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],
                              "max_tokens":5,"max_completion_tokens":9,"stop":["x","y"]})");
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[1], (ChatMessage{"user", "ab"}));
  EXPECT_EQ(r.max_tokens, 9);
  EXPECT_EQ(r.stop.size(), 2u);
}

TEST(InferenceRequest, GenerateWithSamplingParams) {
  const auto r = parse_ok(ServerRoute::generate,
                          R"({"input_ids":[5,6],"stream":true,"sampling_params":{"max_new_tokens":8,
                              "min_new_tokens":8,"ignore_eos":true,"temperature":0.5,"sampling_seed":3}})");
  EXPECT_EQ(std::get<TokenIds>(r.prompts[0]), (TokenIds{5, 6}));
  EXPECT_EQ(r.max_tokens, 8);
  EXPECT_EQ(r.min_tokens, 8);
  EXPECT_EQ(r.seed, 3u);
  EXPECT_EQ(r.temperature, 0.5);
  EXPECT_TRUE(r.stream);
  EXPECT_EQ(std::get<std::string>(parse_ok(ServerRoute::generate, R"({"text":"t"})").prompts[0]), "t");
}

TEST(InferenceRequest, ErrorsNameTheField) {
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":"a","max_tokens":"ten"})")
                .find("max_tokens: expected an integer >= 0, got \"ten\""), std::string::npos);
  EXPECT_EQ(error_of(ServerRoute::completions, R"({"max_tokens":1})"), "prompt: required");
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":[1,-2]})").find("prompt: expected token ids"),
            std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":[]})").find("prompt:"), std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":"a","stop":5})").find("stop:"), std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":"a","stream":"yes"})").find("stream:"),
            std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":"a","stream_options":{"include_usage":1}})")
                .find("stream_options.include_usage:"), std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, R"({"prompt":"a","temperature":-1})").find("temperature:"),
            std::string::npos);
  EXPECT_EQ(error_of(ServerRoute::chat_completions, R"({"model":"m"})"), "messages: required");
  EXPECT_NE(error_of(ServerRoute::chat_completions, R"({"messages":[{"content":"x"}]})").find("messages[].role"),
            std::string::npos);
  EXPECT_EQ(error_of(ServerRoute::generate, R"({"sampling_params":{}})"), "text or input_ids: required");
  EXPECT_NE(error_of(ServerRoute::generate, R"({"text":"a","sampling_params":{"max_new_tokens":-1}})")
                .find("sampling_params.max_new_tokens:"), std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, "not json").find("request body"), std::string::npos);
  EXPECT_NE(error_of(ServerRoute::completions, "[1]").find("expected a JSON object"), std::string::npos);
}

TEST(InferenceRequest, WhatTheClientBuildsTheServerReadsBack) {
  GenerationRequest g;
  g.prompt = TokenIds{9, 8, 7};
  g.model = "m";
  g.max_tokens = 64;
  g.min_tokens = 64;
  g.ignore_eos = true;
  g.temperature = 0.0;
  g.seed = 42;
  g.stop = {"s"};
  g.continuous_usage = true;
  for (auto [backend, route] : {std::pair{Backend::sglang_oai, ServerRoute::completions},
                                std::pair{Backend::sim, ServerRoute::generate}}) {
    std::string body;
    ASSERT_TRUE(build_request_body(backend, g, body));
    const auto r = parse_ok(route, body);
    EXPECT_EQ(std::get<TokenIds>(r.prompts[0]), (TokenIds{9, 8, 7})) << to_string(backend);
    EXPECT_EQ(r.max_tokens, 64);
    EXPECT_EQ(r.min_tokens, 64);
    EXPECT_TRUE(r.ignore_eos);
    EXPECT_EQ(r.temperature, 0.0);
    EXPECT_EQ(r.seed, 42u);
    EXPECT_EQ(r.stop, g.stop);
    EXPECT_TRUE(r.stream);
    if (route == ServerRoute::completions) {
      EXPECT_TRUE(r.include_usage);
      EXPECT_TRUE(r.continuous_usage);
      EXPECT_EQ(r.model, "m");
    }
  }
  g.prompt = std::vector<ChatMessage>{{"user", "q"}};
  std::string body;
  ASSERT_TRUE(build_request_body(Backend::sglang_oai_chat, g, body));
  EXPECT_EQ(parse_ok(ServerRoute::chat_completions, body).messages, (std::vector<ChatMessage>{{"user", "q"}}));
}

TEST(TokenizeRequest, TextOrBatch) {
  auto one = parse_tokenize_request(R"({"model":"m","prompt":"hello","add_special_tokens":false})");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->prompts, (std::vector<std::string>{"hello"}));
  EXPECT_FALSE(one->batch);
  EXPECT_FALSE(one->add_special_tokens);
  auto batch = parse_tokenize_request(R"({"prompt":["a","b"]})");
  ASSERT_TRUE(batch);
  EXPECT_TRUE(batch->batch);
  EXPECT_TRUE(batch->add_special_tokens);
  auto bad = parse_tokenize_request(R"({"prompt":[1]})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("prompt:"), std::string::npos);
}

TEST(DetokenizeRequest, IdsOrBatch) {
  auto one = parse_detokenize_request(R"({"tokens":[1,2]})");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->tokens, (std::vector<TokenIds>{{1, 2}}));
  EXPECT_TRUE(one->skip_special_tokens);
  auto batch = parse_detokenize_request(R"({"tokens":[[1],[2,3]],"skip_special_tokens":false})");
  ASSERT_TRUE(batch);
  EXPECT_TRUE(batch->batch);
  EXPECT_EQ(batch->tokens.size(), 2u);
  EXPECT_FALSE(batch->skip_special_tokens);
  EXPECT_FALSE(parse_detokenize_request(R"({"tokens":"abc"})"));
  EXPECT_FALSE(parse_detokenize_request(R"({})"));
}

TEST(InferenceRequest, ChatToolsGiveTheirFunctionNamesInOrder) {
  const auto r = parse_ok(ServerRoute::chat_completions,
                          R"({"messages":[{"role":"user","content":"hi"}],"tools":[
                              {"type":"function","function":{"name":"get_weather","parameters":{}}},
                              {"function":{"name":"lookup","description":"d"}}],"tool_choice":"auto"})");
  EXPECT_EQ(r.tool_names, (std::vector<std::string>{"get_weather", "lookup"}));
  EXPECT_TRUE(parse_ok(ServerRoute::chat_completions, R"({"messages":[{"role":"user","content":"hi"}]})")
                  .tool_names.empty());
  // Completions have no tools: the field is ignored like any unknown one.
  EXPECT_TRUE(parse_ok(ServerRoute::completions, R"({"prompt":"p","tools":7})").tool_names.empty());
}

TEST(InferenceRequest, MalformedToolsNameTheField) {
  const std::string messages = R"("messages":[{"role":"user","content":"hi"}])";
  const auto error = [&](std::string_view tools) {
    return error_of(ServerRoute::chat_completions, "{" + messages + ",\"tools\":" + std::string(tools) + "}");
  };
  EXPECT_EQ(error(R"({"name":"f"})"), R"(tools: expected a list of tools, got {"name":"f"})");
  EXPECT_EQ(error(R"([{"type":"function"}])"), R"(tools[].function.name: expected a string, got {"type":"function"})");
  EXPECT_EQ(error(R"([{"function":{"name":3}}])"), "tools[].function.name: expected a string, got 3");
  EXPECT_EQ(error(R"([{"type":"retrieval","function":{"name":"f"}}])"),
            R"(tools[].type: expected "function", got "retrieval")");
  EXPECT_EQ(error(R"(["f"])"), R"(tools[].function.name: expected a string, got "f")");
}

}  // namespace
}  // namespace servebench::wire
