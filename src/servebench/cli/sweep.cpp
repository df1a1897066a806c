#include "servebench/cli/sweep.hpp"

#include <algorithm>
#include <cmath>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/load/option_parsing.hpp"
#include "servebench/load/point_mapping.hpp"
#include "servebench/load/request_log.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/process_limits.hpp"

namespace servebench::cli {
namespace {

namespace json = boost::json;

json::object slo_json(const load::Slo& slo, const load::SloVerdict& v) {
  json::object keys;
  for (const auto& k : slo.keys) keys[k.name] = k.limit_ms;
  json::array checks;
  for (std::size_t i = 0; i < v.checks.size(); ++i) {  // one check per key, in the keys' order
    const auto& c = v.checks[i];
    const auto& k = slo.keys.at(i);
    checks.push_back({{"key", c.key},
                      {"metric", load::to_string(k.metric)},
                      {"percentile", static_cast<std::int64_t>(k.percentile)},  // 50, 90, 95 or 99
                      {"value", util::json_double_or_null(c.value)},
                      {"limit", c.limit},
                      {"met", c.met}});
  }
  return {{"keys", std::move(keys)}, {"met", v.met}, {"checks", std::move(checks)}, {"summary", v.summary}};
}

class Sweep {
 public:
  Sweep(load::RunSpec spec, load::WorkloadOptions workload, const SweepOptions& options)
      : m_spec(std::move(spec)), m_workload(std::move(workload)), m_options(options), m_layout(options.out) {}

  int run() {
    if (std::filesystem::exists(m_layout.ledger())) {
      throw CommandError(k_exit_bad_input, fmt::format("{} already holds a ledger; give sweep a new --out directory",
                                                       m_options.out.string()));
    }
    unwrap(util::make_dirs(m_options.out));
    util::raise_open_file_limit();
    m_control = unwrap(load::EngineControl::create(m_spec.backend, m_spec.base_url, m_spec.api_key));
    unwrap(m_control->check_health());
    if (m_spec.model.empty()) m_spec.model = unwrap(m_control->first_model());
    m_control->set_model(m_spec.model);
    if (!m_spec.metrics.gpus) m_spec.metrics.gpus = load::gpus_from_server_info(m_control->server_info());
    m_spec.metrics.goodput = load::per_request_thresholds(m_options.slo);
    const auto result = unwrap(load::search_boundary(m_options.search, [&](double x) { return evaluate(x); }));
    write_result(result);
    print_result(result);
    return result.boundary ? k_exit_ok : k_exit_measured_failure;
  }

 private:
  bool by_concurrency() const { return m_options.search.kind == load::SearchKind::concurrency; }

  util::Result<bool> evaluate(double x) {
    ++m_run;
    load::RunSpec spec = m_spec;
    load::WorkloadOptions w = m_workload;
    const auto c = static_cast<std::int64_t>(std::llround(x));
    if (by_concurrency()) {
      spec.max_concurrency = c;
      spec.request_rate.reset();
      w.num_prompts = std::max(w.num_prompts, 2 * c);
    } else {
      spec.request_rate = x;
    }
    w.seed = m_workload.seed + static_cast<std::uint64_t>(m_run);  // fresh prompts every run
    auto prompts = load::make_workload(w, *m_control);
    if (!prompts) return std::unexpected(prompts.error());
    spec.prompts = std::move(prompts->prompts);
    spec.warmup_prompts = std::move(prompts->warmup);
    auto result = load::run(spec, *m_control);
    if (!result) return std::unexpected(result.error());
    const load::SloVerdict verdict = load::check_slo(m_options.slo, result->metrics);
    const bool met = verdict.met && result->client.healthy;
    results::PointRecord r = load::to_point_record(
        *result, {"sweep", m_options.arm, m_options.scenario, w.input_len, w.output_len, spec.max_concurrency.value_or(0)});
    r.effective_concurrency = r.concurrency;
    r.request_rate = spec.request_rate;
    r.gpus = spec.metrics.gpus.value_or(1);
    r.prompts.source = std::string(load::to_string(w.kind));
    r.cache.flushed = spec.flush_cache;
    r.cache.hit_rate = result->cache.hit_rate;
    r.extra["slo"] = slo_json(m_options.slo, verdict);
    r.extra["search"] = json::object{{"kind", by_concurrency() ? "concurrency" : "rate"}, {"run", m_run}, {"met", met}};
    if (result->metrics.goodput) {
      const auto& g = *result->metrics.goodput;
      r.extra["goodput"] = json::object{{"good_requests", g.good_requests}, {"request_goodput", g.request_goodput},
                                        {"output_token_goodput", g.output_token_goodput}, {"fraction", g.fraction}};
    }
    if (auto ok = results::append_point(m_layout.ledger(), r); !ok) return std::unexpected(ok.error());
    const auto log = m_layout.search_requests(m_options.arm, m_options.scenario, m_run);
    if (auto ok = util::make_dirs(log.parent_path()); !ok) return std::unexpected(ok.error());
    if (auto ok = load::write_request_log(log, *result); !ok) return std::unexpected(ok.error());
    const std::string what = by_concurrency() ? fmt::format("concurrency {}", c) : fmt::format("rate {:.4g} req/s", x);
    const double goodput = result->metrics.goodput ? result->metrics.goodput->request_goodput : 0.0;
    fmt::print("[{}] {}: SLO {} ({}){}; goodput {:.3g} req/s\n", m_run, what, met ? "met" : "missed", verdict.summary,
               result->client.healthy ? "" : "; client unhealthy: " + result->client.reason, goodput);
    std::fflush(stdout);
    return met;
  }

  void write_result(const load::SearchResult& s) const {
    json::array runs;
    for (const auto& r : s.runs) runs.push_back({{"load", r.load}, {"met", r.met}});
    json::object keys;
    for (const auto& k : m_options.slo.keys) keys[k.name] = k.limit_ms;
    const auto optional = [](const std::optional<double>& v) { return v ? json::value(*v) : json::value(nullptr); };
    const json::object o{{"schema", "servebench.slo_search/1"},
                         {"search", by_concurrency() ? "concurrency" : "rate"},
                         {"slo", std::move(keys)},
                         {"low", m_options.search.low},
                         {"high", m_options.search.high},
                         {"max_runs", m_options.search.max_runs},
                         {"arm", m_options.arm},
                         {"scenario", m_options.scenario},
                         {"runs", std::move(runs)},
                         {"boundary", optional(s.boundary)},
                         {"first_miss", optional(s.first_miss)},
                         {"step", s.step},
                         {"converged", s.converged},
                         {"stop", s.stop}};
    unwrap(util::write_file_atomic(m_layout.search_result(), util::to_json_text(o) + "\n"));
  }

  void print_result(const load::SearchResult& s) const {
    if (s.boundary) {
      const std::string load = by_concurrency() ? fmt::format("concurrency {}", *s.boundary)
                                                : fmt::format("{:.4g} req/s", *s.boundary);
      fmt::print("SLO boundary: {} ({} runs; {})\n", load, s.runs.size(), s.stop);
    } else {
      fmt::print("SLO boundary: none ({})\n", s.stop);
    }
  }

  load::RunSpec m_spec;
  load::WorkloadOptions m_workload;
  const SweepOptions& m_options;
  results::RunLayout m_layout;
  std::unique_ptr<load::EngineControl> m_control;
  std::int64_t m_run = 0;
};

}  // namespace

int run_sweep(load::RunSpec spec, load::WorkloadOptions workload, const SweepOptions& options) {
  return Sweep(std::move(spec), std::move(workload), options).run();
}

}  // namespace servebench::cli
