#pragma once
// The prompts of a run from a dataset choice (sglang's --dataset-name spellings): synthetic token
// ids, corpus windows, or a local file. Warmup prompts are extra prompts of the same kind, never a
// measured prompt (warming with a measured prompt would put it in the prefix cache).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "servebench/load/conversation.hpp"
#include "servebench/load/corpus.hpp"
#include "servebench/load/prompt.hpp"
#include "servebench/load/server_control.hpp"
#include "servebench/load/synthetic_workload.hpp"
#include "servebench/load/trace.hpp"

namespace servebench::load {

enum class DatasetKind { random, random_ids, corpus, custom, sharegpt, generated_shared_prefix, multi_turn, trace };
std::string_view to_string(DatasetKind k);
// sglang spellings; fails (bad_input) naming --dataset-name and the accepted values.
util::Result<DatasetKind> parse_dataset_kind(std::string_view s);

struct WorkloadOptions {
  DatasetKind kind = DatasetKind::random;
  std::filesystem::path path{};  // corpus, custom and sharegpt
  std::int64_t num_prompts = 1000, warmup_prompts = 0;
  std::int64_t input_len = 1024, output_len = 1024;
  double range_ratio = 1.0;
  std::optional<std::int64_t> fixed_output_len{};  // --sharegpt-output-len (files)
  SharedPrefixWorkload shared_prefix{};            // generated-shared-prefix (its seed is replaced)
  ConversationWorkload conversation{};             // multi-turn (its seed is replaced)
  TraceOptions trace{};                            // trace (the file is `path`)
  std::uint64_t seed = 1;
  std::optional<Vocabulary> vocabulary{};  // overrides the server's (synthetic kinds)
  CorpusCursor* cursor = nullptr;          // corpus: where to continue; a fresh cursor when null
};

struct Workload {
  std::vector<Prompt> prompts, warmup;
  bool recycled = false;  // corpus windows came from a second pass
  std::optional<double> expected_hit_rate{};  // shared-prefix kinds: what a prefix cache should reach
  std::vector<util::Nanos> send_offsets{};    // trace: when each prompt is due (RunSpec::send_offsets)
};

// Fails (bad_input) for a missing --dataset-path, unknown vocabulary, or the dataset's own errors.
util::Result<Workload> make_workload(const WorkloadOptions& o, ServerControl& control);

}  // namespace servebench::load
