// protocol.repeats: the reader's range, the matrix (each repeat its own point, consecutive), the
// ledger identity, and fresh random-id prompts per repeat.
#include <gtest/gtest.h>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/prompt_source.hpp"
#include "servebench/campaign/spec.hpp"

namespace servebench::campaign {
namespace {

util::Result<CampaignSpec> with_repeats(const std::string& repeats) {
  const std::string yaml = "name: r\nprotocol: {num_prompts: \"2\"" + repeats +
                           "}\n"
                           "arms:\n  - {name: a, engine: sim, base_url: \"http://127.0.0.1:1\"}\n"
                           "scenarios:\n  - {name: s, isl: 10, osl: 4, concurrency: [1, 4]}\n";
  return parse_campaign(yaml, "r.yaml", "/tmp");
}

TEST(Repeats, TheReaderAcceptsOneToAHundred) {
  const auto once = with_repeats("");
  ASSERT_TRUE(once) << once.error().message;
  EXPECT_EQ(once->protocol.repeats, 1);
  const auto three = with_repeats(", repeats: 3");
  ASSERT_TRUE(three) << three.error().message;
  EXPECT_EQ(three->protocol.repeats, 3);
  for (const char* bad : {", repeats: 0", ", repeats: 101", ", repeats: two"}) {
    const auto spec = with_repeats(bad);
    ASSERT_FALSE(spec) << bad;
    EXPECT_NE(spec.error().message.find("repeats"), std::string::npos) << spec.error().message;
    EXPECT_NE(spec.error().message.find("r.yaml:2:"), std::string::npos) << spec.error().message;
  }
}

TEST(Repeats, EachRepeatIsItsOwnPointRightAfterTheOneBefore) {
  const auto spec = with_repeats(", repeats: 3");
  ASSERT_TRUE(spec);
  std::vector<std::string> ids;
  for (const auto& p : expand(*spec)) ids.push_back(results::point_id(key_of(*spec, p)));
  EXPECT_EQ(ids, (std::vector<std::string>{"a/s/c1#1", "a/s/c1#2", "a/s/c1#3", "a/s/c4#1", "a/s/c4#2", "a/s/c4#3"}));
  const auto once = with_repeats("");
  ASSERT_TRUE(once);
  const auto points = expand(*once);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_FALSE(points[0].repeat);
  EXPECT_EQ(results::point_id(key_of(*once, points[0])), "a/s/c1");
}

TEST(Repeats, TheResolvedFileKeepsTheCount) {
  const auto spec = with_repeats(", repeats: 4");
  ASSERT_TRUE(spec);
  const auto again = parse_campaign(resolved_yaml(*spec), "again.yaml", "/tmp");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->protocol.repeats, 4);
  EXPECT_EQ(resolved_yaml(*with_repeats("")).find("repeats"), std::string::npos);
}

TEST(Repeats, TheLedgerKeepsRepeatsApartAndPointsThatRanOnceAsBefore) {
  results::PointRecord r;
  r.campaign = "r";
  r.arm = "a";
  r.scenario = "s";
  r.concurrency = 4;
  const auto plain = results::to_json(r);
  EXPECT_FALSE(plain.contains("repeat"));
  r.repeat = 2;
  const auto json = results::to_json(r);
  ASSERT_TRUE(json.contains("repeat"));
  const auto back = results::from_json(json);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->repeat, 2);
  EXPECT_FALSE(back->extra.contains("repeat"));
  results::PointRecord other = *back;
  other.repeat = 3;
  EXPECT_NE(results::key_of(*back), results::key_of(other));
}

// Token ids from the server's vocabulary only: nothing else of the control is used.
class VocabularyOnly final : public load::ServerControl {
 public:
  util::Result<void> check_health() override { return {}; }
  util::Result<std::string> first_model() override { return std::string("m"); }
  util::Result<void> flush_cache() override { return {}; }
  void begin_window() override {}
  load::CounterWindow end_window() override { return {}; }
  boost::json::value server_info() override { return nullptr; }
  boost::json::object facts() override { return {}; }
  std::optional<load::Vocabulary> vocabulary() override { return load::Vocabulary::make(32000, {0, 1, 2}).value(); }
  load::TextCodec* codec() override { return nullptr; }
};

TEST(Repeats, EveryRepeatSendsFreshRandomPrompts) {
  ProtocolSpec protocol;
  VocabularyOnly control;
  auto source = PromptSource::open(protocol, "/nonexistent/ledger.jsonl", control);
  ASSERT_TRUE(source) << source.error().message;
  const auto take = [&](std::optional<std::int64_t> repeat) {
    PromptRequest r{"a", "s", 32, 4, 1, 2, 0, 1, nullptr, repeat};
    auto p = source->take(r, control);
    EXPECT_TRUE(p) << p.error().message;
    return p ? p->measured.front().ids : std::vector<std::int32_t>{};
  };
  const auto once = take(std::nullopt), first = take(1), second = take(2);
  EXPECT_EQ(first.size(), 32u);
  EXPECT_NE(first, second);
  EXPECT_NE(once, first);
  EXPECT_EQ(take(2), second) << "the same repeat gets the same prompts on every arm and across resumes";
}

}  // namespace
}  // namespace servebench::campaign
