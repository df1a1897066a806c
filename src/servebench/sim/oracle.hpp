#pragma once
// The simulator's answer mode (--sim-oracle; grammar in docs/sim.md "Oracle"): arithmetic word
// problems written in a fixed sentence grammar are solved, so quality gates (arithmetic accuracy,
// natural stop rate) run end to end against the simulator. Pure and thread-safe.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace servebench::sim {

// The answer to the problem the last question of `text` asks, or nullopt when `text` poses none.
// Sentences outside the grammar are ignored, so few-shot examples and instructions may surround it.
std::optional<std::int64_t> solve_word_problem(std::string_view text);

// The oracle's reply: "The answer is N."
std::string oracle_reply(std::int64_t answer);

}  // namespace servebench::sim
