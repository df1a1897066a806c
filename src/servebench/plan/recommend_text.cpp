// `recommend`'s outputs: the terminal text and the catalog fragment of the top deployments.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "servebench/plan/recommend.hpp"
#include "servebench/plan/recommend_catalog.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::plan {
namespace {

std::string slo_text(const Slo& s) {
  std::vector<std::string> parts;
  const std::pair<const char*, const std::optional<double>*> keys[] = {
      {"ttft_p99_ms", &s.ttft_p99_ms}, {"ttft_p50_ms", &s.ttft_p50_ms}, {"tpot_p50_ms", &s.tpot_p50_ms},
      {"tpot_p99_ms", &s.tpot_p99_ms}, {"e2e_p99_ms", &s.e2e_p99_ms}};
  for (const auto& [name, v] : keys) {
    if (*v) parts.push_back(fmt::format("{} ≤ {:g}", name, **v));
  }
  return util::join(parts, ", ");
}

std::string per_workload(const Evaluation& e, auto field) {
  std::vector<std::string> parts;
  for (const auto& b : e.best) parts.push_back(b ? field(*b) : std::string("—"));
  return util::join(parts, " / ");
}

std::size_t top_count(const RecommendSpec& spec, const Recommendation& r) {
  return std::min<std::size_t>(static_cast<std::size_t>(std::max(spec.top, 1)), r.evaluations.size());
}

}  // namespace

std::string recommendation_text(const RecommendSpec& spec, const Recommendation& r) {
  std::string out = fmt::format(
      "PREDICTED: every number below is the simulator's prediction from its cards (models/{}.yaml, hardware.yaml), "
      "not a measurement; verify with the campaign file recommend writes.\npredicted; {}\n",
      spec.model, r.budget_line);
  std::vector<std::string> workloads;
  for (const auto& w : spec.workloads) workloads.push_back(fmt::format("{}:{} (weight {:g})", w.isl, w.osl, w.weight));
  out += fmt::format("{} on {} x {}; workloads {}; SLO {}\n", spec.model, spec.gpus, spec.hardware,
                     util::join(workloads, ", "), slo_text(spec.slo));
  int pruned = 0;
  std::vector<std::string> rules;
  for (const auto& p : r.pruned) {
    pruned += p.count;
    rules.push_back(fmt::format("{} {}", p.rule, p.count));
  }
  out += fmt::format("enumerated {} deployments; pruned {}{}; searched {} ({} simulations, {} simulated requests)\n",
                     r.candidates.size(), pruned, rules.empty() ? "" : " (" + util::join(rules, ", ") + ")",
                     r.evaluations.size(), r.simulations, r.simulated_requests);
  const bool any = !r.evaluations.empty() && r.evaluations.front().meets();
  if (!any) {
    out += "No deployment meets the SLO at any concurrency simulated. Closest:\n";
  } else {
    out += "\nrank | tok/s/GPU | C | TTFT p99 ms | TPOT p50 ms | tok/s/user | flags\n";
  }
  const std::size_t n = any ? top_count(spec, r) : std::min<std::size_t>(5, r.evaluations.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& e = r.evaluations[i];
    if (any && !e.meets()) break;
    const auto& flags = r.candidates[e.candidate].label;
    if (!any) {
      out += fmt::format("  misses by {:.1f}% at its best: {}\n", (e.closest_miss - 1) * 100, flags);
      continue;
    }
    out += fmt::format("{} | {:.0f} | {} | {} | {} | {} | {}\n", i + 1, e.score,
                       per_workload(e, [](auto& b) { return std::to_string(b.concurrency); }),
                       per_workload(e, [](auto& b) { return fmt::format("{:.0f}", b.ttft_p99); }),
                       per_workload(e, [](auto& b) { return fmt::format("{:.1f}", b.tpot_p50); }),
                       per_workload(e, [](auto& b) { return fmt::format("{:.1f}", b.tok_s_user); }), flags);
  }
  out += "\nPareto front, tok/s/user vs tok/s/GPU (workload-weighted, every level simulated):\n";
  for (const auto& p : r.pareto) {
    out += fmt::format("  {:.1f} tok/s/user  {:.0f} tok/s/GPU  C={}  {}\n", p.tok_s_user, p.tok_s_gpu, p.concurrency,
                       r.candidates[r.evaluations[p.evaluation].candidate].label);
  }
  return out;
}

std::string catalog_yaml(const RecommendSpec& spec, const Recommendation& r) {
  std::vector<std::size_t> listed;
  std::set<std::int64_t> levels;
  for (std::size_t i = 0; i < top_count(spec, r); ++i) {
    const auto& e = r.evaluations[i];
    listed.push_back(e.candidate);
    for (const auto& b : e.best) {
      if (b) levels.insert(b->concurrency);
    }
  }
  for (const auto c : spec.levels) {
    if (levels.empty() || c <= *levels.rbegin()) levels.insert(c);
  }
  return candidates_catalog(spec, r.candidates, listed, std::vector<std::int64_t>(levels.begin(), levels.end()));
}

}  // namespace servebench::plan
