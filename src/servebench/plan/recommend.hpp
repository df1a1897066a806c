#pragma once
// `servebench recommend`: the deployments of one model on N GPUs of one kind that the simulator can
// serve, pruned by memory and by the recipe lint rules, each searched (in virtual time) for the
// highest concurrency that meets an SLO on every workload; ranked by workload-weighted output
// tok/s per GPU, with the Pareto front of tok/s per GPU against tok/s per user. Every number is a
// prediction of the simulator's cards (docs/plan.md).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/results/error_budget.hpp"
#include "servebench/sim/sim_config.hpp"
#include "servebench/util/result.hpp"

namespace servebench::plan {

struct Workload {
  std::int64_t isl = 0, osl = 0;
  double weight = 1;
};
// "1024:256" or "1024:256:0.7"; fails (bad_input) naming --workload.
util::Result<Workload> parse_workload(std::string_view text);

struct Slo {
  std::optional<double> ttft_p99_ms, ttft_p50_ms, tpot_p50_ms, tpot_p99_ms, e2e_p99_ms;
};
// "ttft_p99_ms=2000,tpot_p50_ms=50"; fails (bad_input) on an unknown key or a non-positive value.
util::Result<Slo> parse_slo(std::string_view text);

struct RecommendSpec {
  std::string model, hardware;
  int gpus = 1;
  std::vector<Workload> workloads;
  Slo slo;
  std::vector<std::int64_t> levels{1, 8, 32, 64, 128, 256};  // concurrency levels, ascending
  int bisect_steps = 3;   // between the last level that meets the SLO and the first that does not
  int top = 5;            // commands in the catalog fragment and the verifying campaign
  std::FILE* progress = nullptr;
  std::optional<results::ErrorBudget> error_budget;  // else the one shipped for the model and hardware
};

// One deployment: the serve-sim configuration and the SGLang flags that launch it.
struct Candidate {
  sim::SimConfig config;
  std::vector<std::string> flags;  // e.g. {"--tp-size 2", "--max-running-requests 64", ...}
  std::string label;               // the flags in one line
};

struct LevelResult {
  std::int64_t concurrency = 0;
  double ttft_p50 = 0, ttft_p99 = 0, tpot_p50 = 0, tpot_p99 = 0, e2e_p99 = 0;  // ms
  double tok_s_gpu = 0, tok_s_user = 0;  // output tokens/s per GPU; 1000 / mean TPOT
  bool meets = false;
  double miss = 0;  // worst ratio value/limit over the SLO's keys (≤ 1 when met)
};

struct Evaluation {
  std::size_t candidate = 0;
  std::vector<std::vector<LevelResult>> per_workload;  // every level simulated, per workload
  std::vector<std::optional<LevelResult>> best;        // highest concurrency meeting the SLO, per workload
  double score = 0;        // Σ weight × best tok/s per GPU (0 when a workload has no best)
  double closest_miss = 0; // the smallest `miss` over levels, worst over workloads (for "closest")
  bool meets() const;
};

struct PruneCount {
  std::string rule;  // "memory: ..." or a lint rule id
  int count = 0;
};

struct ParetoPoint {
  std::size_t evaluation = 0;  // index into Recommendation::evaluations
  std::int64_t concurrency = 0;
  double tok_s_gpu = 0, tok_s_user = 0;  // workload-weighted
};

struct Recommendation {
  std::vector<Candidate> candidates;       // every enumerated candidate
  std::vector<PruneCount> pruned;          // per rule, in first-seen order
  std::vector<Evaluation> evaluations;     // the candidates that survived pruning, ranked (meeting ones first)
  std::vector<ParetoPoint> pareto;         // the front of tok/s/GPU vs tok/s/user over every level simulated
  std::int64_t simulations = 0, simulated_requests = 0;
  std::string budget_line;  // the error budget of the cards (results::budget_line)
};

// Enumerates, prunes, searches and ranks. Fails (bad_input) for an unknown model or hardware card,
// no workload, an empty SLO, or when nothing survives pruning.
util::Result<Recommendation> recommend(const RecommendSpec& spec);

// The terminal text: pruning counts, the ranked table (or the closest misses), the Pareto front.
std::string recommendation_text(const RecommendSpec& spec, const Recommendation& r);
// A recipe catalog (servebench.catalog/1) with the top commands as cells of a `rank` dimension and a
// benchmark section that verifies them; `recipe campaign … --target engine` turns it into the campaign.
std::string catalog_yaml(const RecommendSpec& spec, const Recommendation& r);
// The campaign that measures every command of that catalog on the real engine (recipe campaign).
util::Result<std::string> verify_campaign_yaml(const RecommendSpec& spec, const std::string& catalog_text);

}  // namespace servebench::plan
