#include "servebench/plan/recommend_catalog.hpp"

#include <fmt/format.h>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/recipe/campaign_writer.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/lint.hpp"
#include "servebench/recipe/lint_facts.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::plan {
namespace {

std::string quoted(const std::string& s) { return "\"" + util::replace_all(s, "\"", "\\\"") + "\""; }

}  // namespace

std::string candidates_catalog(const RecommendSpec& spec, const std::vector<Candidate>& candidates,
                               const std::vector<std::size_t>& listed, const std::vector<std::int64_t>& concurrency) {
  std::string out = fmt::format(
      "# Written by `servebench recommend` from predictions of the simulator's cards, not measurements.\n"
      "# Verify on hardware: servebench recipe campaign THIS.yaml --select hw={},rank=r1 --target engine -o c.yaml\n"
      "schema: servebench.catalog/1\n"
      "name: recommend-{}-{}x{}\n"
      "title: {}\n"
      "engine: sglang\n"
      "model:\n  card: {}\n  names: {{default: {}}}\n"
      "hardware:\n  - {{name: {}, gpus_per_node: {}}}\n"
      "match_dims:\n  - id: rank\n    title: Recommended deployment\n    options:\n",
      spec.hardware, spec.model, spec.gpus, spec.hardware,
      quoted(fmt::format("{} on {} x {} (servebench recommend)", spec.model, spec.gpus, spec.hardware)), spec.model,
      spec.model, spec.hardware, std::max(spec.gpus, 8));
  for (std::size_t k = 0; k < listed.size(); ++k) {
    out += fmt::format("      - {{id: r{}, label: {}}}\n", k + 1, quoted(fmt::format("#{}", k + 1)));
  }
  out += "cells:\n";
  for (std::size_t k = 0; k < listed.size(); ++k) {
    out += fmt::format("  - match: {{hw: {}, rank: r{}}}\n    flags: [\"--model-path {{{{MODEL_NAME}}}}\"", spec.hardware,
                       k + 1);
    for (const auto& f : candidates[listed[k]].flags) out += ", " + quoted(f);
    out += ", \"--host 0.0.0.0\", \"--port 30000\"]\n";
  }
  std::vector<std::string> levels;
  for (const auto c : concurrency) levels.push_back(std::to_string(c));
  out += "benchmark:\n  dataset: random\n  num_prompts: \"max(8, 2*c)\"\n  scenarios:\n";
  for (const auto& w : spec.workloads) {
    out += fmt::format("    - {{name: w{}x{}, isl: {}, osl: {}, concurrency: [{}]}}\n", w.isl, w.osl, w.isl, w.osl,
                       util::join(levels, ", "));
  }
  return out;
}

util::Result<std::map<std::size_t, std::string>> lint_candidates(const RecommendSpec& spec,
                                                                 const std::vector<Candidate>& candidates,
                                                                 const std::vector<std::size_t>& listed) {
  std::map<std::size_t, std::string> out;
  if (listed.empty()) return out;
  auto data = recipe::load_catalog_data();
  if (!data) return std::unexpected(data.error());
  auto catalog = recipe::parse_catalog(candidates_catalog(spec, candidates, listed, {1}), "recommend-candidates", *data);
  if (!catalog) return std::unexpected(catalog.error());
  auto facts = recipe::load_lint_facts();
  if (!facts) return std::unexpected(facts.error());
  auto report = recipe::lint(*catalog, *facts);
  if (!report) return std::unexpected(report.error());
  const std::string prefix = fmt::format("hw={},rank=r", spec.hardware);
  for (const auto& f : report->findings) {
    if (f.severity != recipe::Severity::error) continue;
    for (const auto& s : f.selections) {
      if (!s.starts_with(prefix)) continue;
      const auto rank = util::parse_int(std::string_view(s).substr(prefix.size()), "rank");
      if (rank && *rank >= 1 && static_cast<std::size_t>(*rank) <= listed.size()) {
        out.emplace(listed[static_cast<std::size_t>(*rank - 1)], f.rule);
      }
    }
  }
  return out;
}

util::Result<std::string> verify_campaign_yaml(const RecommendSpec& spec, const std::string& catalog_text) {
  auto data = recipe::load_catalog_data();
  if (!data) return std::unexpected(data.error());
  auto catalog = recipe::parse_catalog(catalog_text, "recommend-catalog", *data);
  if (!catalog) return std::unexpected(catalog.error());
  auto facts = recipe::load_lint_facts();
  if (!facts) return std::unexpected(facts.error());
  recipe::CampaignRequest request;
  request.target = recipe::Target::engine;
  const auto rank = catalog->dim_index("rank");
  SB_CHECK(rank.has_value());
  for (const auto& option : catalog->dims[*rank].options) {
    auto s = recipe::parse_selection(*catalog, fmt::format("hw={},rank={}", spec.hardware, option.id));
    if (!s) return std::unexpected(s.error());
    request.selections.push_back(std::move(*s));
  }
  const auto* engine = facts->engine(flags::Dialect::sglang);
  return recipe::campaign_yaml(*catalog, request, engine ? engine->parallelism : recipe::ParallelismFlags{});
}

}  // namespace servebench::plan
