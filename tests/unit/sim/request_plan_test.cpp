#include "servebench/sim/request_plan.hpp"

#include <gtest/gtest.h>

using namespace servebench;
using namespace servebench::sim;

namespace {

constexpr std::int32_t k_plan_bos = 128000, k_plan_eos = 128009;

const Tokenizer& tokenizer() {
  static const Tokenizer t(128256, TokenIds{k_plan_bos, k_plan_eos, 128000});
  return t;
}

wire::InferenceRequest parse(wire::ServerRoute route, std::string_view body) {
  auto r = wire::parse_inference_request(route, body);
  EXPECT_TRUE(r) << r.error().message;
  return *r;
}

PlanOptions options(OracleMode oracle = OracleMode::off) { return {oracle, false, 8192}; }

std::string decoded(const std::vector<std::int32_t>& ids) {
  return tokenizer().decode(ids, SpecialTokens::skip).value();
}

}  // namespace

TEST(RequestPlan, TextPromptGetsBosAndTokenIdsPassThrough) {
  const auto plan = plan_request(
      parse(wire::ServerRoute::completions, R"({"prompt":["hello world",[5,6,7]],"max_tokens":9,"ignore_eos":true})"),
      tokenizer(), options(), std::nullopt);
  ASSERT_EQ(plan.items.size(), 2u);
  EXPECT_TRUE(plan.batch);
  EXPECT_EQ(plan.items[0].prompt.front(), k_plan_bos);
  EXPECT_EQ(decoded(plan.items[0].prompt), "hello world");
  EXPECT_EQ(plan.items[1].prompt, (std::vector<std::int32_t>{5, 6, 7}));
  EXPECT_EQ(plan.items[1].sampling.max_tokens, 9);
  EXPECT_TRUE(plan.items[1].sampling.ignore_eos);
}

TEST(RequestPlan, DefaultsFollowSglang) {
  const auto completion =
      plan_request(parse(wire::ServerRoute::completions, R"({"prompt":"x"})"), tokenizer(), options(), std::nullopt);
  EXPECT_EQ(completion.items[0].sampling.max_tokens, k_default_completion_tokens);
  EXPECT_EQ(completion.items[0].sampling.temperature, 1.0);
  const auto generate =
      plan_request(parse(wire::ServerRoute::generate, R"({"input_ids":[1,2]})"), tokenizer(), options(), std::nullopt);
  EXPECT_EQ(generate.items[0].sampling.max_tokens, k_default_generate_tokens);
  const auto chat =
      plan_request(parse(wire::ServerRoute::chat_completions, R"({"messages":[{"role":"user","content":"hi"}]})"),
                   tokenizer(), options(), std::nullopt);
  EXPECT_EQ(chat.items[0].sampling.max_tokens, 8192 - static_cast<std::int64_t>(chat.items[0].prompt.size()));
}

TEST(RequestPlan, ChatUsesTheDocumentedTemplate) {
  const auto plan =
      plan_request(parse(wire::ServerRoute::chat_completions,
                         R"({"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}],
                                           "stream":true,"stream_options":{"include_usage":true},"stop":["", "END"]})"),
                   tokenizer(), options(), std::nullopt);
  EXPECT_EQ(decoded(plan.items[0].prompt), "<|system|>\nbe brief\n<|user|>\nhi\n<|assistant|>\n");
  EXPECT_TRUE(plan.stream);
  EXPECT_TRUE(plan.include_usage);
  EXPECT_EQ(plan.stop, (std::vector<std::string>{"END"}));  // empty stop strings never match
}

TEST(RequestPlan, OracleForcesTheAnswerThenEos) {
  const char* body =
      R"({"messages":[{"role":"user","content":"Tom has 5 apples. Tom eats 2 apples. How many apples does Tom have now?"}],
          "temperature":0.9})";
  const auto request = parse(wire::ServerRoute::chat_completions, body);
  const auto off = plan_request(request, tokenizer(), options(), std::nullopt);
  EXPECT_TRUE(off.items[0].sampling.forced_output.empty());
  const auto on = plan_request(request, tokenizer(), options(OracleMode::on), std::nullopt);
  const auto& forced = on.items[0].sampling.forced_output;
  ASSERT_FALSE(forced.empty());
  EXPECT_EQ(forced.back(), k_plan_eos);
  EXPECT_EQ(decoded(forced), "The answer is 3.");
}

TEST(RequestPlan, OracleReadsTokenIdPrompts) {
  const auto ids = tokenizer().encode("Ann has 4 pens. Ann finds 6 more pens. How many pens does Ann have now?");
  std::string body = R"({"input_ids":[)";
  for (std::size_t i = 0; i < ids.size(); ++i) body += (i ? "," : "") + std::to_string(ids[i]);
  body += "]}";
  const auto plan =
      plan_request(parse(wire::ServerRoute::generate, body), tokenizer(), options(OracleMode::on), std::nullopt);
  EXPECT_EQ(decoded(plan.items[0].sampling.forced_output), "The answer is 10.");
}

TEST(RequestPlan, OracleWithToolsCallsTheFirstTool) {
  const auto plan =
      plan_request(parse(wire::ServerRoute::chat_completions, R"({"messages":[{"role":"user","content":"weather?"}]})"),
                   tokenizer(), options(OracleMode::on), std::string("get_weather"));
  ASSERT_TRUE(plan.tool_call);
  EXPECT_EQ(*plan.tool_call, "get_weather");
  EXPECT_EQ(decoded(plan.items[0].sampling.forced_output), R"({"name": "get_weather", "arguments": {}})");
}

TEST(RequestPlan, PromptsWithoutAProblemGenerateAsUsual) {
  const auto plan = plan_request(parse(wire::ServerRoute::completions, R"({"prompt":"Once upon a time"})"), tokenizer(),
                                 options(OracleMode::on), std::nullopt);
  EXPECT_TRUE(plan.items[0].sampling.forced_output.empty());
  EXPECT_FALSE(plan.tool_call);
}
