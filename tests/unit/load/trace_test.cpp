// Trace replay: reading Mooncake-format lines with truncation, exact prompt lengths, identical
// tokens for identical hash ids at the same place, send times, and the theoretical sharing worked
// out by hand.
#include "servebench/load/trace.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

namespace servebench::load {
namespace {

std::filesystem::path write_trace(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("trace_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / name;
  EXPECT_TRUE(util::write_file_atomic(file, text));
  return file;
}

// Block size 4: A = [1, 2] (8 tokens), B = [1, 2, 3] cut to 10 tokens (2 of block 3), C = [1, 9]
// cut to 6, D = [5] with 7 tokens (3 beyond its one block).
constexpr std::string_view k_trace =
    "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 3, \"hash_ids\": [1, 2]}\n"
    "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}\n"
    "\n"
    "{\"timestamp\": 250.5, \"input_length\": 6, \"output_length\": 2, \"hash_ids\": [1, 9]}\n"
    "{\"timestamp\": 400, \"input_length\": 7, \"output_length\": 4, \"hash_ids\": [5]}\n";

TEST(Trace, ReadsLinesAndTruncates) {
  const auto file = write_trace("t.jsonl", std::string(k_trace));
  TraceOptions o;
  o.block_size = 4;
  const auto all = read_trace(file, o);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[2].timestamp_ms, 250.5);
  EXPECT_EQ((*all)[1].hash_ids, (std::vector<std::int64_t>{1, 2, 3}));
  o.max_requests = 2;
  EXPECT_EQ(read_trace(file, o)->size(), 2u);
  o.max_requests.reset();
  o.max_duration_s = 0.25;  // 250 ms: the line at 250.5 ms is past it
  EXPECT_EQ(read_trace(file, o)->size(), 2u);
}

TEST(Trace, BadLinesNameTheLine) {
  TraceOptions o;
  const auto missing = read_trace(write_trace("m.jsonl", "{\"timestamp\": 0, \"input_length\": 3}\n"), o);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("m.jsonl:1:"), std::string::npos) << missing.error().message;
  const auto back = read_trace(write_trace("b.jsonl", std::string(k_trace.substr(0, k_trace.find("\n\n") + 1)) +
                                                          "{\"timestamp\": 50, \"input_length\": 3, \"output_length\": 1, "
                                                          "\"hash_ids\": []}\n"),
                               o);
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("b.jsonl:3: timestamps must not go back"), std::string::npos) << back.error().message;
}

TEST(Trace, PromptsHaveExactLengthsAndShareExactlyTheTracesBlocks) {
  TraceOptions o;
  o.block_size = 4;
  o.time_scale = 0.5;
  const auto trace = read_trace(write_trace("t.jsonl", std::string(k_trace)), o);
  ASSERT_TRUE(trace);
  const auto vocab = Vocabulary::make(32000, {0, 1, 2}).value();
  const auto built = trace_prompts(*trace, o, vocab, 42);
  ASSERT_TRUE(built) << built.error().message;
  const auto& p = built->prompts;
  ASSERT_EQ(p.size(), 4u);
  const std::vector<std::size_t> lengths{8, 10, 6, 7};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p[i].ids.size(), lengths[i]);
    EXPECT_EQ(p[i].input_tokens, static_cast<std::int64_t>(lengths[i]));
  }
  EXPECT_EQ(p[1].output_tokens, 5);
  const auto common = [](const Prompt& a, const Prompt& b) {
    std::size_t n = 0;
    while (n < a.ids.size() && n < b.ids.size() && a.ids[n] == b.ids[n]) ++n;
    return n;
  };
  EXPECT_EQ(common(p[0], p[1]), 8u);  // blocks 1, 2
  EXPECT_EQ(common(p[0], p[2]), 4u);  // block 1, then 2 vs 9
  EXPECT_EQ(common(p[0], p[3]), 0u);
  // Send times: timestamps × 0.5.
  EXPECT_EQ(built->offsets[2], std::chrono::microseconds(125250));
  // Theoretical: A 0 of 8; B 8 of 10 (block 3 new); C 4 of 6 (block 9 new); D 0 of 7 → 12 / 31.
  EXPECT_NEAR(built->expected_hit_rate, 12.0 / 31.0, 1e-12);
  EXPECT_NEAR(trace_sharing(*trace, o), 12.0 / 31.0, 1e-12);
  // The same hash id gives the same tokens whatever the seed of the rest; another seed, other tokens.
  const auto again = trace_prompts(*trace, o, vocab, 42);
  EXPECT_EQ(again->prompts[3].ids, p[3].ids);
  const auto other = trace_prompts(*trace, o, vocab, 43);
  EXPECT_NE(other->prompts[0].ids, p[0].ids);
}

TEST(Trace, APartialBlockCachesOnlyWhatAnEarlierCopySent) {
  // Block size 4: the first request sends 2 tokens of block 7, the second all 4: 2 of its 4 hit.
  const auto file = write_trace("p.jsonl",
                                "{\"timestamp\": 0, \"input_length\": 2, \"output_length\": 1, \"hash_ids\": [7]}\n"
                                "{\"timestamp\": 1, \"input_length\": 4, \"output_length\": 1, \"hash_ids\": [7]}\n");
  TraceOptions o;
  o.block_size = 4;
  const auto trace = read_trace(file, o);
  ASSERT_TRUE(trace);
  EXPECT_NEAR(trace_sharing(*trace, o), 2.0 / 6.0, 1e-12);
}

TEST(Trace, TheShippedSampleIsWhatItsGeneratorWrites) {
  TraceOptions o;
  const auto trace = read_trace(std::filesystem::path(SERVEBENCH_SOURCE_DIR) / "data/traces/small-mooncake.jsonl", o);
  ASSERT_TRUE(trace) << trace.error().message;
  EXPECT_EQ(trace->size(), 24u);
  // Four conversations of six rounds: round r of a conversation repeats its 2 system blocks and r
  // history blocks, so the trace shares a lot but not everything.
  const double sharing = trace_sharing(*trace, o);
  EXPECT_GT(sharing, 0.3);
  EXPECT_LT(sharing, 0.9);
}

}  // namespace
}  // namespace servebench::load
