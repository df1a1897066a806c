#pragma once
// Prompts from local files: `custom` (JSONL, one prompt or conversation per line) and `sharegpt`
// (the ShareGPT JSON array). Lengths come from the server's tokenizer when a codec is given.
//
// custom JSONL lines (one of):
//   {"prompt": "text" | [token ids], "output_len": 128}
//   {"messages" | "conversations": [{"role"|"from": "user"|"human"|…, "content"|"value": "…"}, …],
//    "output_len": 128}
// A trailing assistant turn is the reference reply: it is not sent, and when output_len is absent
// its token count is the requested output length.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "servebench/load/prompt.hpp"
#include "servebench/load/text_codec.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

struct FileDatasetOptions {
  std::int64_t num_prompts = 0;
  std::optional<std::int64_t> output_len{};  // overrides every line's own output length
  std::int64_t default_output_len = 256;   // when a line gives none and no codec can count the reply
  std::uint64_t seed = 0;                  // sharegpt order (shuffled, as sglang does)
};

// The first num_prompts lines of a custom JSONL file. Fails (bad_input) naming file:line on an
// unreadable line, or when the file has fewer usable lines than num_prompts.
util::Result<std::vector<Prompt>> load_custom_jsonl(const std::filesystem::path& path, const FileDatasetOptions& opts,
                                                    TextCodec* codec);
// num_prompts conversations of a ShareGPT file (first human turn → prompt, next gpt turn → reply),
// shuffled with opts.seed. Fails (bad_input) when the file is not a ShareGPT array or has too few.
util::Result<std::vector<Prompt>> load_sharegpt(const std::filesystem::path& path, const FileDatasetOptions& opts,
                                                TextCodec* codec);

}  // namespace servebench::load
