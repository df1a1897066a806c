#include "servebench/cli/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

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
    // A ledger here is an interrupted (or finished) sweep: its settings must be these (flags first,
    // before any server is needed; the model once the server has named it).
    const auto recorded = recorded_settings();
    if (recorded) check_flags(*recorded);
    unwrap(util::make_dirs(m_options.out));
    util::raise_open_file_limit();
    m_control = unwrap(load::EngineControl::create(m_spec.backend, m_spec.base_url, m_spec.api_key));
    unwrap(m_control->check_health());
    if (m_spec.model.empty()) m_spec.model = unwrap(m_control->first_model());
    m_control->set_model(m_spec.model);
    if (recorded) check_model(*recorded);
    if (!m_spec.metrics.gpus) m_spec.metrics.gpus = load::gpus_from_server_info(m_control->server_info());
    m_spec.metrics.goodput = load::per_request_thresholds(m_options.slo);
    if (recorded) m_recorded = recorded_runs();
    if (!m_recorded.empty()) {
      fmt::print("resuming {}: {} run{} recorded with these settings\n", m_options.out.string(), m_recorded.size(),
                 m_recorded.size() == 1 ? "" : "s");
    }
    write_state(nullptr);  // the settings, before the first new run
    const auto result = unwrap(load::search_boundary(m_options.search, [&](double x) { return evaluate(x); }));
    if (m_replayed < m_recorded.size()) {
      throw CommandError(k_exit_bad_input,
                         fmt::format("{}'s ledger holds {} runs this search never asked for; it was not written by "
                                     "these settings alone — give sweep a new --out directory",
                                     m_options.out.string(), m_recorded.size() - m_replayed));
    }
    write_state(&result);
    print_result(result);
    return result.boundary ? k_exit_ok : k_exit_measured_failure;
  }

 private:
  struct RecordedRun {
    double load = 0;
    bool met = false;  // as the search took it (the SLO met by a healthy client)
  };

  bool by_concurrency() const { return m_options.search.kind == load::SearchKind::concurrency; }
  std::string load_text(double x) const {
    return by_concurrency() ? fmt::format("concurrency {}", std::llround(x)) : fmt::format("rate {:.4g} req/s", x);
  }
  [[noreturn]] void refuse(const std::string& why) const {
    throw CommandError(k_exit_bad_input, fmt::format("{} {}\nrerun with the settings it was run with to resume, or "
                                                     "give sweep a new --out directory",
                                                     m_options.out.string(), why));
  }

  // What decides the runs: every flag as given (where the server is excluded) and the model.
  json::object settings_json() const {
    json::object flags;
    for (const auto& [name, value] : m_options.settings) flags[name] = value;
    return {{"flags", std::move(flags)}, {"model", m_spec.model}};
  }

  // The settings of the sweep that wrote --out's ledger; nullopt when there is no ledger yet.
  std::optional<json::object> recorded_settings() const {
    if (!std::filesystem::exists(m_layout.ledger())) return std::nullopt;
    json::value v;
    if (const auto text = util::read_file(m_layout.search_result())) {
      if (auto parsed = util::parse_json(*text, m_layout.search_result().string())) v = std::move(*parsed);
    }
    const auto* settings = v.is_object() ? v.get_object().if_contains("settings") : nullptr;
    if (settings == nullptr || !settings->is_object() || !settings->get_object().contains("flags")) {
      throw CommandError(k_exit_bad_input,
                         fmt::format("{} holds a ledger but no sweep settings in {} (not a sweep's run directory, or "
                                     "one of an older servebench); give sweep a new --out directory",
                                     m_options.out.string(), m_layout.search_result().filename().string()));
    }
    return settings->get_object();
  }

  void check_flags(const json::object& recorded) const {
    std::map<std::string, std::pair<std::string, std::string>> values;  // flag → (recorded, now)
    if (const auto* flags = recorded.if_contains("flags"); flags != nullptr && flags->is_object()) {
      for (const auto& kv : flags->get_object()) {
        values[std::string(kv.key())].first = kv.value().is_string() ? std::string(kv.value().get_string()) : "?";
      }
    }
    for (const auto& [name, value] : m_options.settings) values[name].second = value;
    std::string differ;
    for (const auto& [name, v] : values) {
      if (v.first == v.second) continue;
      const auto shown = [](const std::string& x) { return x.empty() ? std::string("(not given)") : x; };
      differ += fmt::format("\n  {}: recorded {} → now {}", name, shown(v.first), shown(v.second));
    }
    if (!differ.empty()) refuse("holds the runs of a sweep with other settings; resuming would mix them:" + differ);
  }

  void check_model(const json::object& recorded) const {
    const auto model = util::json_string(recorded, "model").value_or("");
    if (model != m_spec.model) {
      refuse(fmt::format("was measured against model {}, the server now serves {}", model, m_spec.model));
    }
  }

  // The runs the ledger holds, by run number. A record that is not a run of this search is refused.
  std::map<std::int64_t, RecordedRun> recorded_runs() const {
    const auto ledger = unwrap(results::read_ledger(m_layout.ledger()));
    for (const auto& issue : ledger.issues) {
      fmt::print("note: {}: {}; the run it held is measured again\n", m_layout.ledger().string(), issue.message);
    }
    std::map<std::int64_t, RecordedRun> runs;
    for (const auto& r : ledger.records) {
      const auto* search = r.extra.if_contains("search");
      const auto run = search != nullptr && search->is_object() ? util::json_int(search->get_object(), "run") : std::nullopt;
      const auto met = search != nullptr && search->is_object() ? util::json_bool(search->get_object(), "met") : std::nullopt;
      const std::optional<double> load =
          by_concurrency() ? std::optional<double>(static_cast<double>(r.concurrency)) : r.request_rate;
      if (r.arm != m_options.arm || r.scenario != m_options.scenario || !run || !met || !load) {
        refuse(fmt::format("holds a ledger record that is no run of this search ({})",
                           results::point_id(results::key_of(r))));
      }
      if (!runs.emplace(*run, RecordedRun{*load, *met}).second) refuse(fmt::format("records run {} twice", *run));
    }
    return runs;
  }

  // A run the ledger already holds: the search asks for it again in the same order, so its load must
  // be the one recorded.
  util::Result<bool> replay(const RecordedRun& r, double x) {
    const bool same = by_concurrency() ? std::llround(x) == std::llround(r.load)
                                       : std::abs(x - r.load) <= 1e-9 * std::max(std::abs(x), 1.0);
    if (!same) {
      return util::failf(util::ErrorKind::bad_input,
                         "{}: run {} of the ledger was at {}, the search now asks for {}; the ledger was not written "
                         "by these settings — give sweep a new --out directory",
                         m_options.out.string(), m_run, load_text(r.load), load_text(x));
    }
    ++m_replayed;
    fmt::print("[{}] {}: SLO {} (recorded)\n", m_run, load_text(x), r.met ? "met" : "missed");
    std::fflush(stdout);
    return r.met;
  }

  util::Result<bool> evaluate(double x) {
    ++m_run;
    if (const auto it = m_recorded.find(m_run); it != m_recorded.end()) return replay(it->second, x);
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
    // The per-request records first, the ledger record last: a run is recorded (and a resume reuses
    // it) only once both are on disk.
    const auto log = m_layout.search_requests(m_options.arm, m_options.scenario, m_run);
    if (auto ok = util::make_dirs(log.parent_path()); !ok) return std::unexpected(ok.error());
    if (auto ok = load::write_request_log(log, *result); !ok) return std::unexpected(ok.error());
    if (auto ok = results::append_point(m_layout.ledger(), r); !ok) return std::unexpected(ok.error());
    const std::string what = load_text(x);
    const double goodput = result->metrics.goodput ? result->metrics.goodput->request_goodput : 0.0;
    fmt::print("[{}] {}: SLO {} ({}){}; goodput {:.3g} req/s\n", m_run, what, met ? "met" : "missed", verdict.summary,
               result->client.healthy ? "" : "; client unhealthy: " + result->client.reason, goodput);
    std::fflush(stdout);
    return met;
  }

  // slo_search.json: the settings and "running" before the search, its outcome and "done" after.
  void write_state(const load::SearchResult* done) const {
    const load::SearchResult empty;
    const load::SearchResult& s = done != nullptr ? *done : empty;
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
                         {"stop", done != nullptr ? s.stop : std::string("running")},
                         {"state", done != nullptr ? "done" : "running"},
                         {"settings", settings_json()}};
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
  std::map<std::int64_t, RecordedRun> m_recorded;  // runs a previous sweep of these settings recorded
  std::size_t m_replayed = 0;                      // of those, the ones the search has asked for again
};

}  // namespace

int run_sweep(load::RunSpec spec, load::WorkloadOptions workload, const SweepOptions& options) {
  return Sweep(std::move(spec), std::move(workload), options).run();
}

}  // namespace servebench::cli
