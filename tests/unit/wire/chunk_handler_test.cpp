#include "servebench/wire/chunk_handler.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <gtest/gtest.h>

namespace servebench::wire::chunk_sax {
namespace {

// Feeds `data` in two pieces (more=true, then the rest), which makes the parser deliver keys and
// strings in parts — the path ChunkParser, which always has the whole event, never takes.
Chunk parse_split(std::string_view data, std::size_t cut, std::string& text) {
  boost::json::basic_parser<Handler> parser{boost::json::parse_options{}};
  Chunk out;
  parser.handler().begin(out);
  boost::json::error_code ec;
  const std::size_t n = parser.write_some(true, data.data(), cut, ec);
  EXPECT_FALSE(ec) << cut;
  parser.write_some(false, data.data() + n, data.size() - n, ec);
  EXPECT_FALSE(ec) << cut;
  EXPECT_TRUE(parser.done()) << cut;
  text = parser.handler().text;
  return out;
}

TEST(ChunkHandler, PartsOfKeysAndStringsGiveTheSameFields) {
  const std::string data =
      R"({"choices":[{"index":0,"delta":{"content":"caf\u00e9 \"q\""},"finish_reason":"length"}],)"
      R"("usage":{"prompt_tokens":12,"completion_tokens":34,"prompt_tokens_details":{"cached_tokens":5}},)"
      R"("meta_info":{"finish_reason":{"type":"stop","matched":7},"spec_verify_ct":3},"sb_emit_ns":99})";
  for (std::size_t cut = 0; cut <= data.size(); ++cut) {
    std::string text;
    const Chunk c = parse_split(data, cut, text);
    ASSERT_EQ(text, "caf\xC3\xA9 \"q\"") << cut;
    ASSERT_EQ(c.finish, FinishReason::length) << cut;
    ASSERT_TRUE(c.usage) << cut;
    ASSERT_EQ(c.usage->prompt_tokens, 12) << cut;
    ASSERT_EQ(c.usage->completion_tokens, 34) << cut;
    ASSERT_EQ(c.usage->cached_tokens, 5) << cut;
    ASSERT_TRUE(c.meta) << cut;
    ASSERT_EQ(c.meta->finish, FinishReason::stop) << cut;
    ASSERT_EQ(c.meta->finish_matched, MatchedStop{std::int64_t{7}}) << cut;
    ASSERT_EQ(c.meta->spec_verify_ct, 3) << cut;
    ASSERT_EQ(c.emit_ns, 99) << cut;
  }
}

TEST(ChunkHandler, MatchedStopStringSurvivesAnySplit) {
  const std::string data =
      R"({"text":"x","meta_info":{"finish_reason":{"type":"stop","matched":"</s\u003e \"end\""},)"
      R"("completion_tokens":1},"matched":"not meta"})";
  for (std::size_t cut = 0; cut <= data.size(); ++cut) {
    std::string text;
    const Chunk c = parse_split(data, cut, text);
    ASSERT_TRUE(c.meta) << cut;
    ASSERT_EQ(c.meta->finish_matched, MatchedStop{std::string("</s> \"end\"")}) << cut;
    ASSERT_EQ(text, "x") << cut;
  }
}

TEST(ChunkHandler, UnknownAndNestedLookalikeKeysAreIgnored) {
  boost::json::basic_parser<Handler> parser{boost::json::parse_options{}};
  Chunk out;
  parser.handler().begin(out);
  boost::json::error_code ec;
  const std::string data =
      R"({"extra":{"usage":{"completion_tokens":9},"text":"no"},"a_very_long_key_name_beyond_buckets":1,)"
      R"("choices":[{"logprobs":{"content":[{"token":"x"}]}}]})";
  parser.write_some(false, data.data(), data.size(), ec);
  ASSERT_FALSE(ec);
  EXPECT_FALSE(out.usage);  // usage only counts at the top level
  EXPECT_TRUE(parser.handler().text.empty());
}

TEST(ChunkHandler, TooDeepDocumentsFail) {
  boost::json::basic_parser<Handler> parser{boost::json::parse_options{}};
  Chunk out;
  parser.handler().begin(out);
  boost::json::error_code ec;
  const std::string data = std::string(30, '[') + std::string(30, ']');
  parser.write_some(false, data.data(), data.size(), ec);
  EXPECT_TRUE(ec);
}

}  // namespace
}  // namespace servebench::wire::chunk_sax
