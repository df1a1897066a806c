#include "servebench/wire/client_request.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

boost::json::object body_of(Backend b, const GenerationRequest& r) {
  std::string out;
  auto ok = build_request_body(b, r, out);
  EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
  return ok ? boost::json::parse(out).as_object() : boost::json::object{};
}

GenerationRequest ids_request() {
  GenerationRequest r;
  r.prompt = TokenIds{11, 22, 33};
  r.model = "m";
  r.max_tokens = 128;
  r.min_tokens = 128;
  r.ignore_eos = true;
  r.temperature = 0.0;
  r.seed = 42;
  r.continuous_usage = true;
  r.cache_prompt = false;
  return r;
}

TEST(Backend, NamesRoundTripAndRoutes) {
  for (auto b : {Backend::sglang, Backend::sglang_oai, Backend::sglang_oai_chat, Backend::vllm, Backend::vllm_chat,
                 Backend::llamacpp, Backend::trtllm, Backend::openai, Backend::openai_chat, Backend::sim}) {
    auto parsed = parse_backend(to_string(b));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, b);
  }
  EXPECT_EQ(to_string(Backend::sglang_oai_chat), "sglang-oai-chat");
  EXPECT_FALSE(parse_backend("tgi"));
  EXPECT_EQ(path_of(route_of(Backend::sim)), "/generate");
  EXPECT_EQ(path_of(route_of(Backend::vllm)), "/v1/completions");
  EXPECT_EQ(path_of(route_of(Backend::openai_chat)), "/v1/chat/completions");
}

TEST(GenerationRequest, VllmCompletionsCarriesEverySupportedField) {
  const auto o = body_of(Backend::vllm, ids_request());
  EXPECT_EQ(o.at("model").as_string(), "m");
  EXPECT_EQ(o.at("prompt").as_array(), (boost::json::array{11, 22, 33}));
  EXPECT_EQ(o.at("max_tokens").as_int64(), 128);
  EXPECT_EQ(o.at("min_tokens").as_int64(), 128);
  EXPECT_TRUE(o.at("ignore_eos").as_bool());
  EXPECT_EQ(o.at("temperature").to_number<double>(), 0.0);
  EXPECT_EQ(o.at("seed").as_int64(), 42);
  EXPECT_TRUE(o.at("stream").as_bool());
  EXPECT_TRUE(o.at("stream_options").at("include_usage").as_bool());
  EXPECT_TRUE(o.at("stream_options").at("continuous_usage_stats").as_bool());
  EXPECT_FALSE(o.contains("cache_prompt"));
}

TEST(GenerationRequest, LlamacppGetsCachePromptButNoMinTokens) {
  const auto o = body_of(Backend::llamacpp, ids_request());
  EXPECT_FALSE(o.at("cache_prompt").as_bool());
  EXPECT_FALSE(o.contains("min_tokens"));
  EXPECT_FALSE(o.at("stream_options").as_object().contains("continuous_usage_stats"));
  EXPECT_TRUE(o.at("stream_options").at("include_usage").as_bool());
}

TEST(GenerationRequest, TrtllmAndOpenAiGetOnlyWhatTheyAccept) {
  const auto trt = body_of(Backend::trtllm, ids_request());
  EXPECT_FALSE(trt.contains("cache_prompt"));
  EXPECT_TRUE(trt.contains("min_tokens"));
  const auto oai = body_of(Backend::openai, ids_request());
  EXPECT_FALSE(oai.contains("min_tokens"));
  EXPECT_FALSE(oai.at("stream_options").as_object().contains("continuous_usage_stats"));
}

TEST(GenerationRequest, NonStreamHasNoStreamOptions) {
  auto r = ids_request();
  r.stream = false;
  const auto o = body_of(Backend::vllm, r);
  EXPECT_FALSE(o.at("stream").as_bool());
  EXPECT_FALSE(o.contains("stream_options"));
}

TEST(GenerationRequest, SglangNativeUsesInputIdsAndSamplingParams) {
  auto r = ids_request();
  r.stop = {"\n\n", "END"};
  const auto o = body_of(Backend::sglang, r);
  EXPECT_FALSE(o.contains("model"));
  EXPECT_EQ(o.at("input_ids").as_array(), (boost::json::array{11, 22, 33}));
  const auto& sp = o.at("sampling_params").as_object();
  EXPECT_EQ(sp.at("max_new_tokens").as_int64(), 128);
  EXPECT_EQ(sp.at("min_new_tokens").as_int64(), 128);
  EXPECT_TRUE(sp.at("ignore_eos").as_bool());
  EXPECT_EQ(sp.at("sampling_seed").as_int64(), 42);
  EXPECT_EQ(sp.at("stop").as_array(), (boost::json::array{"\n\n", "END"}));
  EXPECT_TRUE(o.at("stream").as_bool());
  r.prompt = std::string("hello");
  EXPECT_EQ(body_of(Backend::sim, r).at("text").as_string(), "hello");
}

TEST(GenerationRequest, ChatRoutesTakeMessagesOrText) {
  GenerationRequest r;
  r.model = "m";
  r.prompt = std::vector<ChatMessage>{{"system", "be brief"}, {"user", "2+2?"}};
  auto o = body_of(Backend::sglang_oai_chat, r);
  ASSERT_EQ(o.at("messages").as_array().size(), 2u);
  EXPECT_EQ(o.at("messages").as_array()[1].at("content").as_string(), "2+2?");
  r.prompt = std::string("hi");
  o = body_of(Backend::vllm_chat, r);
  EXPECT_EQ(o.at("messages").as_array()[0].at("role").as_string(), "user");
}

TEST(GenerationRequest, PromptKindMustFitTheRoute) {
  std::string out;
  GenerationRequest r;
  r.prompt = std::vector<ChatMessage>{{"user", "x"}};
  auto a = build_request_body(Backend::vllm, r, out);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().kind, util::ErrorKind::bad_input);
  EXPECT_FALSE(build_request_body(Backend::sglang, r, out));
  r.prompt = TokenIds{1};
  auto b = build_request_body(Backend::openai_chat, r, out);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("token ids"), std::string::npos);
}

TEST(GenerationRequest, ExtraBodyKeysReplaceOurs) {
  auto r = ids_request();
  r.extra_body = R"({"max_tokens": 7, "top_p": 0.9, "stream_options": {"include_usage": false}})";
  const auto o = body_of(Backend::vllm, r);
  EXPECT_EQ(o.at("max_tokens").as_int64(), 7);
  EXPECT_EQ(o.at("top_p").as_double(), 0.9);
  EXPECT_FALSE(o.at("stream_options").at("include_usage").as_bool());
  EXPECT_EQ(o.size(), 10u);  // no duplicate keys
  std::string out;
  r.extra_body = "[1]";
  EXPECT_FALSE(build_request_body(Backend::vllm, r, out));
  r.extra_body = "{";
  EXPECT_FALSE(build_request_body(Backend::vllm, r, out));
}

TEST(GenerationRequest, BufferIsReplacedNotAppended) {
  std::string out = "old content";
  ASSERT_TRUE(build_request_body(Backend::vllm, ids_request(), out));
  EXPECT_EQ(out.front(), '{');
  EXPECT_NO_THROW(boost::json::parse(out));
}

}  // namespace
}  // namespace servebench::wire
