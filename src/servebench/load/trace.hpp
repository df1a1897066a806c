#pragma once
// Trace replay (docs/metrics.md "Trace replay"): a Mooncake / AIPerf JSONL trace, one request per
// line — {"timestamp": ms since the trace's start, "input_length": tokens, "output_length": tokens,
// "hash_ids": [block ids]}. Block i of a prompt is `block_size` tokens (512, as Mooncake's traces)
// whose content is a function of the hash id alone, so two requests naming the same id send the
// same tokens there and a server's prefix cache sees exactly the trace's sharing. The prompt is
// the first input_length tokens of its blocks, extended with tokens of its own when the blocks are
// shorter. Requests are sent at their timestamps (open loop), scaled by `time_scale`.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "servebench/load/prompt.hpp"
#include "servebench/load/vocabulary.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

inline constexpr std::int64_t k_trace_block_size = 512;

struct TraceOptions {
  std::int64_t block_size = k_trace_block_size;  // tokens per hash id
  double time_scale = 1.0;                       // send offset = timestamp × time_scale (0.5: twice as fast)
  std::optional<std::int64_t> max_requests{};    // the first N lines only
  std::optional<double> max_duration_s{};        // only lines with timestamp ≤ this (before scaling)
  std::optional<std::int64_t> max_input_len{}, max_output_len{};  // lengths clamped to these
};

struct TraceRequest {
  double timestamp_ms = 0;
  std::int64_t input_length = 0, output_length = 0;
  std::vector<std::int64_t> hash_ids;
};

// Reads the trace (blank lines skipped), applying the truncation options. Fails (bad_input,
// "file:line: …") on a line without the four keys, negative lengths, or timestamps that go back.
util::Result<std::vector<TraceRequest>> read_trace(const std::filesystem::path& file, const TraceOptions& o);

struct TracePrompts {
  std::vector<Prompt> prompts;
  std::vector<util::Nanos> offsets;  // send time of each prompt from the run's start
  double expected_hit_rate = 0;      // trace_sharing: what a prefix cache that never evicts would give
};

// The trace's own sharing: cached ÷ prompt tokens over its requests in order, a block counting as
// cached when an earlier request had the same hash id at the same position after the same blocks
// (prefix sharing, as a radix cache sees it; a shorter earlier copy of a block caches that many).
double trace_sharing(const std::vector<TraceRequest>& trace, const TraceOptions& o);

// The prompts of a trace: token ids from the blocks (seeded by `seed` and the hash id), the send
// offsets, and the theoretical hit rate (a block counts as cached when an earlier request had the
// same hash id at the same position after the same blocks: prefix sharing, as a radix cache sees it).
util::Result<TracePrompts> trace_prompts(const std::vector<TraceRequest>& trace, const TraceOptions& o,
                                         const Vocabulary& vocab, std::uint64_t seed);

}  // namespace servebench::load
