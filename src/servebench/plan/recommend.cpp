#include "servebench/plan/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "servebench/load/metrics.hpp"
#include "servebench/plan/error_budget_lookup.hpp"
#include "servebench/plan/recommend_catalog.hpp"
#include "servebench/plan/virtual_load.hpp"
#include "servebench/sim/deployment.hpp"
#include "servebench/sim/hardware_card.hpp"
#include "servebench/stats/summary.hpp"
#include "servebench/sim/model_card.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::plan {
namespace {

using util::ErrorKind;

// Prompt i of a search run: a two-token head no other prompt of the run has.
void make_prompt(std::size_t i, std::int64_t isl, std::int64_t osl, load::Prompt& p) {
  constexpr std::int32_t k_first = 1000, k_span = 29000;
  p.ids.resize(static_cast<std::size_t>(isl));
  for (std::size_t j = 0; j < p.ids.size(); ++j) p.ids[j] = k_first + static_cast<std::int32_t>((i + j) % k_span);
  p.ids[0] = k_first + static_cast<std::int32_t>(i / k_span % k_span);
  if (p.ids.size() > 1) p.ids[1] = k_first + static_cast<std::int32_t>(i % k_span);
  p.input_tokens = isl;
  p.output_tokens = osl;
}

double worst_ratio(const Slo& slo, const LevelResult& l) {
  double worst = 0;
  const std::pair<const std::optional<double>*, double> checks[] = {
      {&slo.ttft_p99_ms, l.ttft_p99}, {&slo.ttft_p50_ms, l.ttft_p50}, {&slo.tpot_p50_ms, l.tpot_p50},
      {&slo.tpot_p99_ms, l.tpot_p99}, {&slo.e2e_p99_ms, l.e2e_p99}};
  for (const auto& [limit, value] : checks) {
    if (*limit) worst = std::max(worst, std::isfinite(value) ? value / **limit : 1e9);
  }
  return worst;
}

// Keeps each request's record and drops its chunks: the SLO keys and throughput come from the
// records alone (TTFT, TPOT, E2E, tokens over the span), so the search never holds or sorts a
// million per-token intervals it does not report.
class RecordsOnly final : public RequestSink {
 public:
  explicit RecordsOnly(std::size_t n) : m_records(n) {}
  void on_request(const load::RequestRecord& r, std::span<const load::ChunkMark>) override { m_records[r.index] = r; }
  std::span<const load::RequestRecord> records() const { return m_records; }

 private:
  std::vector<load::RequestRecord> m_records;
};

class Searcher {
 public:
  Searcher(const RecommendSpec& spec, Recommendation& r) : m_spec(spec), m_r(r) {}

  LevelResult run(const sim::Deployment& d, const Workload& w, std::int64_t c) {
    sim::Engine engine(d);
    VirtualLoad load;
    load.count = static_cast<std::size_t>(std::max<std::int64_t>(8, 2 * c));
    load.generate = [&](std::size_t i, load::Prompt& p) { make_prompt(i, w.isl, w.osl, p); };
    load.max_concurrency = c;
    RecordsOnly sink(load.count);
    auto phase = run_virtual(engine, load, &sink);
    m_r.simulations += 1;
    LevelResult l;
    l.concurrency = c;
    if (!phase) return l;  // a stalled engine never meets an SLO
    m_r.simulated_requests += phase->requests;
    load::MetricOptions o;
    o.gpus = d.gpus();
    const auto m = load::compute_metrics(sink.records(), {}, o);
    const auto pct = [](const stats::Summary& s, double p) { return s.at(p); };
    l.ttft_p50 = m.ttft_ms.median;
    l.ttft_p99 = pct(m.ttft_ms, 99);
    l.tpot_p50 = m.tpot_ms.median;
    l.tpot_p99 = pct(m.tpot_ms, 99);
    l.e2e_p99 = pct(m.e2e_ms, 99);
    l.tok_s_gpu = m.output_throughput_per_gpu.value_or(0);
    l.tok_s_user = m.tpot_ms.mean > 0 ? 1000.0 / m.tpot_ms.mean : 0;
    l.miss = m.failed > 0 ? 1e9 : worst_ratio(m_spec.slo, l);
    l.meets = l.miss <= 1.0;
    return l;
  }

  // The level results, and the highest concurrency meeting the SLO (bisected past the last level met).
  std::pair<std::vector<LevelResult>, std::optional<LevelResult>> search(const sim::Deployment& d, const Workload& w) {
    std::vector<LevelResult> levels;
    std::optional<LevelResult> best;
    std::optional<std::int64_t> fail_at;
    for (const auto c : m_spec.levels) {
      levels.push_back(run(d, w, c));
      if (!levels.back().meets) {
        fail_at = c;
        break;  // a higher load only makes latency worse
      }
      best = levels.back();
    }
    if (best && fail_at) {
      std::int64_t lo = best->concurrency, hi = *fail_at;
      for (int i = 0; i < m_spec.bisect_steps && hi - lo > 1; ++i) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        auto l = run(d, w, mid);
        if (l.meets) {
          lo = mid;
          best = l;
        } else {
          hi = mid;
        }
      }
    }
    return {std::move(levels), best};
  }

 private:
  const RecommendSpec& m_spec;
  Recommendation& m_r;
};

void count(std::vector<PruneCount>& pruned, const std::string& rule) {
  auto it = std::find_if(pruned.begin(), pruned.end(), [&](auto& p) { return p.rule == rule; });
  if (it == pruned.end()) pruned.push_back({rule, 1});
  else it->count += 1;
}

// The reason class of a deployment the simulator refuses: "memory" when the weights or the KV pool
// do not fit, else the message up to its first number-bearing part.
std::string memory_rule(const std::string& message) {
  for (const char* word : {"weights need", "KV pool", "fit", "memory"}) {
    if (message.find(word) != std::string::npos) return "memory";
  }
  std::string rule = message.substr(0, message.find_first_of("0123456789'"));
  while (!rule.empty() && (rule.back() == ' ' || rule.back() == '>' || rule.back() == '=')) rule.pop_back();
  return "deployment: " + rule;
}

void rank(Recommendation& r) {
  std::stable_sort(r.evaluations.begin(), r.evaluations.end(), [](const Evaluation& a, const Evaluation& b) {
    if (a.meets() != b.meets()) return a.meets();
    if (a.meets()) return a.score > b.score;
    return a.closest_miss < b.closest_miss;
  });
}

void pareto(Recommendation& r, const RecommendSpec& spec) {
  double total = 0;
  for (const auto& w : spec.workloads) total += w.weight;
  std::vector<ParetoPoint> points;
  for (std::size_t e = 0; e < r.evaluations.size(); ++e) {
    const auto& ev = r.evaluations[e];
    const std::size_t n = ev.per_workload.empty() ? 0 : ev.per_workload[0].size();
    for (std::size_t j = 0; j < n; ++j) {
      ParetoPoint p{e, ev.per_workload[0][j].concurrency, 0, 0};
      bool complete = true;
      for (std::size_t w = 0; w < ev.per_workload.size(); ++w) {
        if (j >= ev.per_workload[w].size()) complete = false;
        if (!complete) break;
        p.tok_s_gpu += spec.workloads[w].weight / total * ev.per_workload[w][j].tok_s_gpu;
        p.tok_s_user += spec.workloads[w].weight / total * ev.per_workload[w][j].tok_s_user;
      }
      if (complete) points.push_back(p);
    }
  }
  for (const auto& p : points) {
    const bool dominated = std::any_of(points.begin(), points.end(), [&](const ParetoPoint& q) {
      return q.tok_s_gpu >= p.tok_s_gpu && q.tok_s_user >= p.tok_s_user &&
             (q.tok_s_gpu > p.tok_s_gpu || q.tok_s_user > p.tok_s_user);
    });
    const bool seen = std::any_of(r.pareto.begin(), r.pareto.end(), [&](const ParetoPoint& q) {
      return q.tok_s_gpu == p.tok_s_gpu && q.tok_s_user == p.tok_s_user;  // ties: the best-ranked one stands for all
    });
    if (!dominated && !seen) r.pareto.push_back(p);
  }
  std::sort(r.pareto.begin(), r.pareto.end(), [](auto& a, auto& b) { return a.tok_s_user < b.tok_s_user; });
}

}  // namespace

bool Evaluation::meets() const {
  return !best.empty() && std::all_of(best.begin(), best.end(), [](const auto& b) { return b.has_value(); });
}

util::Result<Workload> parse_workload(std::string_view text) {
  const auto parts = util::split(text, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    return util::failf(ErrorKind::bad_input, "--workload '{}': expected ISL:OSL or ISL:OSL:WEIGHT", text);
  }
  Workload w;
  auto isl = util::parse_int(util::trim(parts[0]), "--workload ISL");
  auto osl = util::parse_int(util::trim(parts[1]), "--workload OSL");
  if (!isl) return std::unexpected(isl.error());
  if (!osl) return std::unexpected(osl.error());
  w.isl = *isl;
  w.osl = *osl;
  if (parts.size() == 3) {
    auto weight = util::parse_double(util::trim(parts[2]), "--workload WEIGHT");
    if (!weight) return std::unexpected(weight.error());
    w.weight = *weight;
  }
  if (w.isl <= 0 || w.osl <= 0 || !(w.weight > 0)) {
    return util::failf(ErrorKind::bad_input, "--workload '{}': ISL, OSL and weight must be positive", text);
  }
  return w;
}

util::Result<Slo> parse_slo(std::string_view text) {
  Slo slo;
  const std::map<std::string, std::optional<double> Slo::*> keys{
      {"ttft_p99_ms", &Slo::ttft_p99_ms}, {"ttft_p50_ms", &Slo::ttft_p50_ms}, {"tpot_p50_ms", &Slo::tpot_p50_ms},
      {"tpot_p99_ms", &Slo::tpot_p99_ms}, {"e2e_p99_ms", &Slo::e2e_p99_ms}};
  for (const auto item : util::split(text, ',')) {
    const auto eq = item.find('=');
    const std::string key(util::trim(item.substr(0, eq)));
    const auto it = keys.find(key);
    if (eq == std::string_view::npos || it == keys.end()) {
      return util::failf(ErrorKind::bad_input, "--slo '{}': expected KEY=VALUE with KEY one of ttft_p99_ms, "
                                               "ttft_p50_ms, tpot_p50_ms, tpot_p99_ms, e2e_p99_ms", item);
    }
    auto v = util::parse_double(util::trim(item.substr(eq + 1)), "--slo " + key);
    if (!v) return std::unexpected(v.error());
    if (!(*v > 0)) return util::failf(ErrorKind::bad_input, "--slo {} must be positive", key);
    slo.*(it->second) = *v;
  }
  return slo;
}

util::Result<Recommendation> recommend(const RecommendSpec& spec) {
  if (spec.workloads.empty()) return util::fail(ErrorKind::bad_input, "recommend needs at least one --workload");
  const Slo& s = spec.slo;
  if (!s.ttft_p99_ms && !s.ttft_p50_ms && !s.tpot_p50_ms && !s.tpot_p99_ms && !s.e2e_p99_ms) {
    return util::fail(ErrorKind::bad_input, "recommend needs an --slo");
  }
  auto card = sim::load_model_card(spec.model);
  if (!card) return std::unexpected(card.error());
  Recommendation r;
  auto budget = find_budget(spec.error_budget, spec.model, spec.hardware);
  if (!budget) return std::unexpected(budget.error());
  r.budget_line = results::budget_line(
      results::judge_budget(*budget, spec.model, spec.hardware, card_hashes(spec.model), std::nullopt));
  r.candidates = enumerate_candidates(spec, *card);
  std::vector<std::size_t> fit;
  std::vector<sim::Deployment> deployments;
  auto hardware = sim::load_hardware_card(spec.hardware);
  if (!hardware) return std::unexpected(hardware.error());
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    auto d = sim::make_deployment(r.candidates[i].config, *card, *hardware);  // the cards are read once
    if (!d) {
      count(r.pruned, memory_rule(d.error().message));
      continue;
    }
    fit.push_back(i);
    deployments.push_back(std::move(*d));
  }
  auto lint_errors = lint_candidates(spec, r.candidates, fit);
  if (!lint_errors) return std::unexpected(lint_errors.error());
  std::vector<std::pair<std::size_t, const sim::Deployment*>> survivors;
  for (std::size_t k = 0; k < fit.size(); ++k) {
    const auto it = lint_errors->find(fit[k]);
    if (it != lint_errors->end()) {
      count(r.pruned, "lint " + it->second);
      continue;
    }
    survivors.emplace_back(fit[k], &deployments[k]);
  }
  if (survivors.empty()) {
    std::vector<std::string> rules;
    for (const auto& p : r.pruned) rules.push_back(fmt::format("{} {}", p.rule, p.count));
    return util::failf(ErrorKind::bad_input, "recommend: every one of the {} deployments was pruned ({})",
                       r.candidates.size(), util::join(rules, ", "));
  }
  Searcher searcher(spec, r);
  double total = 0;
  for (const auto& w : spec.workloads) total += w.weight;
  for (std::size_t k = 0; k < survivors.size(); ++k) {
    Evaluation ev;
    ev.candidate = survivors[k].first;
    for (const auto& w : spec.workloads) {
      auto [levels, best] = searcher.search(*survivors[k].second, w);
      double miss = 1e18;
      for (const auto& l : levels) miss = std::min(miss, l.miss);
      ev.closest_miss = std::max(ev.closest_miss, miss);
      if (best) ev.score += w.weight / total * best->tok_s_gpu;
      ev.per_workload.push_back(std::move(levels));
      ev.best.push_back(best);
    }
    if (!ev.meets()) ev.score = 0;
    r.evaluations.push_back(std::move(ev));
    if (spec.progress && (k + 1) % std::max<std::size_t>(1, survivors.size() / 10) == 0) {
      fmt::print(spec.progress, "recommend: {}/{} deployments searched ({} simulations)\n", k + 1, survivors.size(),
                 r.simulations);
      std::fflush(spec.progress);
    }
  }
  rank(r);
  pareto(r, spec);
  return r;
}

}  // namespace servebench::plan
