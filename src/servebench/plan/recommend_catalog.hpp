#pragma once
// Internal to `recommend`: the candidate deployments, and the recipe catalog that carries them —
// used once to run the recipe lint rules over every candidate, and once to write the top ones.
#include <map>
#include <string>
#include <vector>

#include "servebench/plan/recommend.hpp"
#include "servebench/sim/model_card.hpp"

namespace servebench::plan {

// Every combination of TP×PP = gpus, EP (MoE), max running requests, chunked prefill, CUDA-graph
// batch, KV dtype and speculative steps (when the card has a draft model).
std::vector<Candidate> enumerate_candidates(const RecommendSpec& spec, const sim::ModelCard& card);

// A catalog whose `rank` dimension has one option per listed candidate (ids c<index>).
std::string candidates_catalog(const RecommendSpec& spec, const std::vector<Candidate>& candidates,
                               const std::vector<std::size_t>& listed, const std::vector<std::int64_t>& concurrency);

// Lint errors by candidate index (the first rule that fires), from the recipe lint of that catalog.
util::Result<std::map<std::size_t, std::string>> lint_candidates(const RecommendSpec& spec,
                                                                 const std::vector<Candidate>& candidates,
                                                                 const std::vector<std::size_t>& listed);

}  // namespace servebench::plan
