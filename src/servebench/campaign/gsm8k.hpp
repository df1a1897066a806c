#pragma once
// The quality gate's problems from a local file in GSM8K's format (docs/campaign-file.md
// `gate.dataset`): one JSON object per line with `question` (the problem as text) and `answer` (the
// worked solution, ending in `#### N`, N the final number). Nothing is downloaded: the file is
// whatever the user points at; examples/quality/gsm8k-sample.jsonl is a small self-written one.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "servebench/campaign/word_problems.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

// The number after the last "####" of a GSM8K answer ("#### 1,234" → 1234, "#### -5" → -5);
// nullopt when there is none or it is not an integer.
std::optional<std::int64_t> gsm8k_final_answer(std::string_view answer);

// The first `count` problems of the file, in file order (blank lines skipped). Fails (bad_input,
// "file:line: …") on a line that is not an object with string `question` and `answer`, an answer
// without an integer after ####, or a file with fewer than `count` problems.
util::Result<std::vector<WordProblem>> load_gsm8k(const std::filesystem::path& file, std::size_t count);

}  // namespace servebench::campaign
