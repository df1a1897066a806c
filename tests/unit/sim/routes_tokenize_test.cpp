#include <gtest/gtest.h>

#include "front_fixture.hpp"

using namespace servebench;
using namespace servebench::sim;
using sim::test::Front;

namespace {

std::string json_string(std::string_view s) { return boost::json::serialize(boost::json::value(s)); }

}  // namespace

TEST(RoutesTokenize, DetokenizeOfTokenizeRoundTripsPrintableAscii) {
  Front f;
  std::string text;
  for (char c = 32; c < 127; ++c) text.push_back(c);
  text += " The quick brown fox.";
  const auto tokens = Front::json(f.post("/tokenize", R"({"prompt":)" + json_string(text) + "}"));
  EXPECT_EQ(tokens.at("count").as_int64(), static_cast<std::int64_t>(tokens.at("tokens").as_array().size()));
  EXPECT_EQ(tokens.at("max_model_len"), Front::json(f.get("/v1/models")).at("data").at(0).at("max_model_len"));
  const auto back =
      Front::json(f.post("/detokenize", R"({"tokens":)" + boost::json::serialize(tokens.at("tokens")) + "}"));
  EXPECT_EQ(back.at("text").as_string(), text);
}

TEST(RoutesTokenize, DetokenizeOfHalfACharacterIsValidJson) {
  Front f;
  const auto tokens = Front::json(f.post("/tokenize", R"({"prompt":"\u00e9","add_special_tokens":false})"));
  const auto& ids = tokens.at("tokens").as_array();
  ASSERT_EQ(ids.size(), 2u);  // the byte tokens 0xc3 0xa9
  const auto r = f.post("/detokenize", "{\"tokens\":[" + boost::json::serialize(ids.at(0)) + "]}");
  ASSERT_EQ(r.status, 200);
  boost::system::error_code ec;
  const auto body = boost::json::parse(r.body, ec);  // Boost.JSON rejects invalid UTF-8
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(body.at("text").as_string(), "\xef\xbf\xbd");
}

TEST(RoutesTokenize, SpecialTokensFollowTheFlags) {
  Front f;
  const auto with = Front::json(f.post("/v1/tokenize", R"({"prompt":"hi"})")).at("tokens").as_array();
  const auto without =
      Front::json(f.post("/v1/tokenize", R"({"prompt":"hi","add_special_tokens":false})")).at("tokens").as_array();
  ASSERT_EQ(with.size(), without.size() + 1);
  const auto bos = with.front();
  const auto rendered = Front::json(
      f.post("/v1/detokenize", R"({"tokens":[)" + boost::json::serialize(bos) + R"(],"skip_special_tokens":false})"));
  EXPECT_NE(rendered.at("text").as_string(), "");
  const auto skipped = Front::json(f.post("/v1/detokenize", R"({"tokens":[)" + boost::json::serialize(bos) + "]}"));
  EXPECT_EQ(skipped.at("text"), "");
}

TEST(RoutesTokenize, BatchFormsAnswerLists) {
  Front f;
  const auto t = Front::json(f.post("/tokenize", R"({"prompt":["a b","c"],"add_special_tokens":false})"));
  ASSERT_EQ(t.at("tokens").as_array().size(), 2u);
  EXPECT_EQ(t.at("count").as_array().size(), 2u);
  const auto d = Front::json(f.post("/detokenize", R"({"tokens":)" + boost::json::serialize(t.at("tokens")) + "}"));
  EXPECT_EQ(d.at("text"), (boost::json::array{"a b", "c"}));
}

TEST(RoutesTokenize, BadInputIs400) {
  Front f;
  auto r = f.post("/tokenize", R"({"text":"x"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("prompt"), std::string::npos);
  r = f.post("/detokenize", R"({"tokens":[-5]})");
  EXPECT_EQ(r.status, 400);
  r = f.post("/detokenize", R"({"tokens":[999999999]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("vocabulary"), std::string::npos) << r.body;
}
