#include "servebench/campaign/prompt_source.hpp"

#include <gtest/gtest.h>

#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {
namespace {

// One token per byte; a fixed vocabulary for token-id prompts.
class ByteControl final : public load::ServerControl, public load::TextCodec {
 public:
  util::Result<void> check_health() override { return {}; }
  util::Result<std::string> first_model() override { return std::string("m"); }
  util::Result<void> flush_cache() override { return {}; }
  void begin_window() override {}
  load::CounterWindow end_window() override { return {}; }
  boost::json::value server_info() override { return nullptr; }
  boost::json::object facts() override { return {}; }
  std::optional<load::Vocabulary> vocabulary() override { return load::Vocabulary::make(32000, {0, 1, 2}).value(); }
  load::TextCodec* codec() override { return this; }
  util::Result<std::vector<std::int32_t>> tokenize(std::string_view text, load::Specials) override {
    std::vector<std::int32_t> ids;
    for (const unsigned char c : text) ids.push_back(1000 + c);
    return ids;
  }
  util::Result<std::string> detokenize(std::span<const std::int32_t> ids) override { return std::string(ids.size(), 'x'); }
  std::string identity() const override { return "bytes/1"; }
};

struct CorpusFixture {
  explicit CorpusFixture(const std::string& name, std::size_t corpus_bytes = 1000) {
    dir = std::filesystem::path(::testing::TempDir()) / ("campaign_prompts_" + std::to_string(getpid())) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::string text;
    for (std::size_t i = 0; i < corpus_bytes; ++i) text += static_cast<char>('a' + i % 26);
    EXPECT_TRUE(util::write_file_atomic(dir / "corpus.txt", text));
    protocol.prompts = {PromptSourceKind::corpus, dir / "corpus.txt"};
    protocol.num_prompts = *NumPromptsExpr::parse("4");
  }
  std::filesystem::path ledger() const { return dir / "ledger.jsonl"; }
  std::vector<boost::json::object> cursors() const {
    auto read = results::read_ledger(ledger());
    return read ? read->others : std::vector<boost::json::object>{};
  }
  std::filesystem::path dir;
  ProtocolSpec protocol;
  ByteControl control;
};

PromptRequest request(std::int64_t c, int attempt = 1, std::string arm = "a") {
  return {std::move(arm), "s", 100, 8, c, 3, 1, attempt, nullptr, std::nullopt};
}

TEST(PromptSource, CorpusWindowsAreReservedInTheLedgerBeforeUse) {
  CorpusFixture f("reserve");
  auto source = PromptSource::open(f.protocol, f.ledger(), f.control);
  ASSERT_TRUE(source) << source.error().message;
  auto first = source->take(request(1), f.control);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->measured.size(), 3u);
  EXPECT_EQ(first->warmup.size(), 1u);
  EXPECT_EQ(first->measured[0].ids.size(), 100u);
  EXPECT_FALSE(first->recycled);
  auto records = f.cursors();
  ASSERT_EQ(records.size(), 1u) << "reserved before take() returned";
  EXPECT_EQ(util::json_string(records[0], "schema"), "servebench.cursor/1");
  EXPECT_EQ(util::json_int(records[0], "from_offset"), 0);
  EXPECT_EQ(util::json_int(records[0], "offset"), 400);
  EXPECT_EQ(util::json_int(records[0], "concurrency"), 1);
  ASSERT_TRUE(source->take(request(2), f.control));
  EXPECT_EQ(util::json_int(f.cursors().back(), "from_offset"), 400);
  EXPECT_EQ(source->cursor()->offset, 800);
}

TEST(PromptSource, ASecondSourceContinuesWhereTheLedgerEnds) {
  CorpusFixture f("resume");
  {
    auto source = PromptSource::open(f.protocol, f.ledger(), f.control);
    ASSERT_TRUE(source->take(request(1), f.control));
  }
  auto again = PromptSource::open(f.protocol, f.ledger(), f.control);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->cursor()->offset, 400);
  auto next = again->take(request(2), f.control);
  ASSERT_TRUE(next);
  EXPECT_EQ(util::json_int(f.cursors().back(), "from_offset"), 400);
}

TEST(PromptSource, AUsedUpCorpusIsRecycledOnlyUnderVerification) {
  CorpusFixture f("recycle");
  auto source = PromptSource::open(f.protocol, f.ledger(), f.control);
  ASSERT_TRUE(source->take(request(1), f.control));
  ASSERT_TRUE(source->take(request(2), f.control));
  auto recycled = source->take(request(3), f.control);  // 800 + 400 > 1000 tokens
  ASSERT_TRUE(recycled) << recycled.error().message;
  EXPECT_TRUE(recycled->recycled);
  EXPECT_EQ(util::json_int(f.cursors().back(), "passes"), 1);

  CorpusFixture g("exhausted");
  g.protocol.max_cache_hit_rate.reset();
  auto strict = PromptSource::open(g.protocol, g.ledger(), g.control);
  ASSERT_TRUE(strict->take(request(1), g.control));
  ASSERT_TRUE(strict->take(request(2), g.control));
  auto refused = strict->take(request(3), g.control);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(refused.error().message.find("is used up (1000 tokens"), std::string::npos) << refused.error().message;
  EXPECT_EQ(g.cursors().size(), 2u) << "nothing reserved for the refused point";
}

TEST(PromptSource, RandomIdsDifferPerPointAndAttemptButNotPerArm) {
  CorpusFixture f("random");
  f.protocol.prompts = {};
  auto source = PromptSource::open(f.protocol, f.ledger(), f.control);
  ASSERT_TRUE(source);
  const auto a1 = source->take(request(1, 1, "a"), f.control);
  const auto b1 = source->take(request(1, 1, "b"), f.control);
  const auto a1_retry = source->take(request(1, 2, "a"), f.control);
  const auto a2 = source->take(request(2, 1, "a"), f.control);
  ASSERT_TRUE(a1 && b1 && a1_retry && a2);
  EXPECT_EQ(a1->measured[0].ids, b1->measured[0].ids) << "arms see the same prompts";
  EXPECT_NE(a1->measured[0].ids, a1_retry->measured[0].ids) << "a retry sends fresh prompts";
  EXPECT_NE(a1->measured[0].ids, a2->measured[0].ids);
  EXPECT_NE(a1->warmup[0].ids, a1->measured[0].ids);
  EXPECT_EQ(a1->measured[0].ids.size(), 100u);
  EXPECT_EQ(a1->measured[0].output_tokens, 8);
  EXPECT_FALSE(std::filesystem::exists(f.ledger())) << "random ids reserve nothing";
}

TEST(PromptSource, LastCursorIgnoresOtherCorpora) {
  const std::vector<boost::json::object> others = {
      {{"schema", "servebench.cursor/1"}, {"corpus", "x"}, {"offset", 10}, {"passes", 0}},
      {{"schema", "servebench.cursor/1"}, {"corpus", "y"}, {"offset", 99}, {"passes", 2}},
      {{"schema", "servebench.cursor/1"}, {"corpus", "x"}, {"offset", 20}, {"passes", 1}},
      {{"schema", "something.else/1"}}};
  const auto x = last_cursor(others, "x");
  EXPECT_EQ(x.offset, 20);
  EXPECT_EQ(x.passes, 1);
  EXPECT_EQ(last_cursor(others, "z").offset, 0);
}

}  // namespace
}  // namespace servebench::campaign
