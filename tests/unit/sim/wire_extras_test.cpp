#include "servebench/sim/wire_extras.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

using namespace servebench;
using namespace servebench::sim;

namespace {

const api::ResponseHeader k_header{"chatcmpl-1", "m", 1700000000};

boost::json::object parsed(const std::string& s) { return boost::json::parse(s).as_object(); }

}  // namespace

TEST(WireExtras, SetChoiceIndexRewritesTheFirstChoice) {
  std::string chunk;
  api::encode_completion_chunk(chunk, k_header, api::ChunkBody{"x", api::FinishReason::none, nullptr, std::nullopt});
  wire::set_choice_index(chunk, 3);
  EXPECT_EQ(parsed(chunk).at("choices").as_array()[0].at("index"), 3);
}

TEST(WireExtras, GenerateIndexIsAdded) {
  std::string out;
  api::GenerateOutput g;
  g.id = "r";
  g.text = "t";
  api::encode_generate(out, g);
  wire::add_generate_index(out, 2);
  const auto o = parsed(out);
  EXPECT_EQ(o.at("index"), 2);
  EXPECT_EQ(o.at("text"), "t");
}

TEST(WireExtras, JoinChoicesKeepsOrderAndSumsUsage) {
  std::vector<std::string> bodies(3);
  for (int i = 0; i < 3; ++i) {
    const api::Usage usage{10, i + 1, i};
    api::encode_completion_response(bodies[static_cast<std::size_t>(i)], api::ResponseKind::completion, k_header,
                                    "t" + std::to_string(i), api::FinishReason::length, usage);
  }
  const auto joined = parsed(wire::join_choices(bodies));
  const auto& choices = joined.at("choices").as_array();
  ASSERT_EQ(choices.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(choices[static_cast<std::size_t>(i)].at("index"), i);
    EXPECT_EQ(choices[static_cast<std::size_t>(i)].at("text").as_string(), "t" + std::to_string(i));
  }
  EXPECT_EQ(joined.at("usage").at("prompt_tokens"), 30);
  EXPECT_EQ(joined.at("usage").at("completion_tokens"), 6);
  EXPECT_EQ(joined.at("usage").at("total_tokens"), 36);
  EXPECT_EQ(joined.at("usage").at("prompt_tokens_details").at("cached_tokens"), 3);
}

TEST(WireExtras, FirstToolNameReadsTheFunction) {
  EXPECT_EQ(
      wire::first_tool_name(R"({"tools":[{"type":"function","function":{"name":"f1"}},{"function":{"name":"f2"}}]})"),
      "f1");
  EXPECT_EQ(wire::first_tool_name(R"({"messages":[]})"), std::nullopt);
  EXPECT_EQ(wire::first_tool_name(R"({"tools":[]})"), std::nullopt);
  EXPECT_EQ(wire::first_tool_name(R"({"tools":[{"type":"function"}]})"), std::nullopt);
  EXPECT_EQ(wire::first_tool_name("not json"), std::nullopt);
}

TEST(WireExtras, ToolCallChunkAndResponseUseOpenAiShapes) {
  std::string chunk, response;
  wire::encode_tool_call_chunk(chunk, k_header, {"call_1", "get_weather", "{}"}, 42);
  const auto c = parsed(chunk);
  EXPECT_EQ(c.at("object"), "chat.completion.chunk");
  EXPECT_EQ(c.at("sb_emit_ns"), 42);
  const auto& delta_call = c.at("choices").as_array()[0].at("delta").at("tool_calls").as_array()[0];
  EXPECT_EQ(delta_call.at("id"), "call_1");
  EXPECT_EQ(delta_call.at("type"), "function");
  wire::encode_tool_call_response(response, k_header, {"call_1", "get_weather", "{}"}, {5, 7, 0});
  const auto r = parsed(response);
  const auto& choice = r.at("choices").as_array()[0].as_object();
  EXPECT_EQ(choice.at("finish_reason"), "tool_calls");
  EXPECT_TRUE(choice.at("message").at("content").is_null());
  EXPECT_EQ(choice.at("message").at("tool_calls").as_array()[0].at("function").at("name"), "get_weather");
  EXPECT_EQ(r.at("usage").at("total_tokens"), 12);
}

TEST(WireExtras, BatchTokenizeAndDetokenize) {
  const std::vector<std::vector<std::int32_t>> tokens{{1, 2}, {3}};
  std::string out;
  wire::encode_batch_tokenize(out, tokens, 100);
  EXPECT_EQ(out, R"({"tokens":[[1,2],[3]],"count":[2,1],"max_model_len":100})");
  out.clear();
  const std::vector<std::string> texts{"a", "b\"c"};
  wire::encode_batch_detokenize(out, texts);
  EXPECT_EQ(out, R"({"text":["a","b\"c"]})");
}
