#include "servebench/plan/planner.hpp"

#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/prompt_source.hpp"
#include "servebench/campaign/run_directory.hpp"
#include "servebench/campaign/server_facts.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/plan/error_budget_lookup.hpp"
#include "servebench/plan/point_result.hpp"
#include "servebench/plan/sim_exchange.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/util/exit_code.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::plan {
namespace {

using util::ErrorKind;
namespace json = boost::json;

// What the prompt source asks of a server: only the vocabulary, read through the adapter.
class VirtualControl final : public load::ServerControl {
 public:
  VirtualControl(engines::EngineAdapter& adapter, http::Exchange& ex) : m_adapter(adapter), m_ex(ex) {}
  util::Result<void> check_health() override { return {}; }
  util::Result<std::string> first_model() override { return m_adapter.models(m_ex); }
  util::Result<void> flush_cache() override { return {}; }
  void begin_window() override {}
  load::CounterWindow end_window() override { return {}; }
  boost::json::value server_info() override { return nullptr; }
  boost::json::object facts() override { return {}; }
  std::optional<load::Vocabulary> vocabulary() override {
    auto size = m_adapter.vocab_size(m_ex);
    return load::safe_vocabulary(size ? *size : std::nullopt);
  }
  load::TextCodec* codec() override { return nullptr; }

 private:
  engines::EngineAdapter& m_adapter;
  http::Exchange& m_ex;
};

// The card files a deployment was built from, with their hashes, the override file applied and the
// error budget that labels it: the provenance of every prediction.
json::object provenance(const sim::Deployment& d, const std::optional<results::FileHash>& overrides,
                        const results::BudgetVerdict& budget) {
  json::object o{{"by", "servebench plan"}, {"time", "virtual"}};
  const auto cards = card_hashes(d.config.model);
  o["model_card"] = json::object{{"file", cards[0].file}, {"sha256", cards[0].sha256}};
  o["hardware_card"] = json::object{{"file", cards[1].file}, {"sha256", cards[1].sha256}};
  o["hardware"] = d.config.hardware;
  o["model"] = d.config.model;
  o["overrides"] = overrides ? json::value(json::object{{"file", overrides->file}, {"sha256", overrides->sha256}})
                             : json::value(nullptr);
  o["error_budget"] = results::to_json(budget);
  return o;
}

// What labels an arm's predictions: its cards and override file against the budget found for them.
util::Result<std::pair<std::optional<results::FileHash>, results::BudgetVerdict>> labels(
    const sim::Deployment& d, const std::string& overrides_file, const PlanOptions& o) {
  auto overrides = file_hash(overrides_file);
  if (!overrides) return std::unexpected(overrides.error());
  auto budget = find_budget(o.error_budget, d.config.model, d.config.hardware);
  if (!budget) return std::unexpected(budget.error());
  return std::pair{*overrides, results::judge_budget(*budget, d.config.model, d.config.hardware,
                                                     card_hashes(d.config.model), *overrides)};
}

struct ArmState {
  const campaign::ArmSpec* arm = nullptr;
  std::vector<std::unique_ptr<sim::Engine>> replicas;  // the arm's deployment, once per replica
  std::vector<sim::Engine*> engines;
  std::unique_ptr<SimExchange> exchange;
  std::unique_ptr<engines::EngineAdapter> adapter;
  campaign::ArmLimits limits;
  json::object provenance;
  results::ServerRef server_ref;
  std::string budget_line;
};

// An arm the simulator represents: the deployment serve-sim would serve and the override file it applies.
struct ArmLaunch {
  const campaign::ArmSpec* arm = nullptr;
  SimLaunch launch;
  std::string overrides_file;  // "" for none
};

util::Result<ArmState> open_arm(const campaign::ArmSpec& arm, SimLaunch launch, const std::string& overrides_file,
                                const PlanOptions& o, const results::RunLayout& layout) {
  ArmState s;
  s.arm = &arm;
  auto label = labels(launch.deployment, overrides_file, o);
  if (!label) return std::unexpected(label.error());
  s.budget_line = results::budget_line(label->second);
  s.provenance = provenance(launch.deployment, label->first, label->second);
  if (o.replicas > 1) {
    s.provenance["fleet"] = json::object{{"replicas", o.replicas}, {"router", to_string(o.router)}};
  }
  launch.front.time_scale = 1;  // virtual time is the simulated deployment's own time
  for (int r = 1; r < o.replicas; ++r) s.replicas.push_back(std::make_unique<sim::Engine>(launch.deployment));
  s.replicas.insert(s.replicas.begin(), std::make_unique<sim::Engine>(std::move(launch.deployment)));
  for (const auto& e : s.replicas) s.engines.push_back(e.get());
  s.exchange = std::make_unique<SimExchange>(*s.engines[0], std::move(launch.front));
  s.adapter = engines::make_adapter(engines::Engine::sim);
  results::ServerFactsFile f;
  f.arm = arm.name;
  f.engine = std::string(engines::to_string(arm.engine));
  f.gpus = arm.gpus;
  f.launch = arm.launch.value_or("");
  f.launched = "servebench plan (virtual time, no process)";
  for (const auto& e : arm.env) f.env.emplace_back(e.name, e.value);
  f.fingerprint = campaign::arm_fingerprint(arm).value_or("");
  f.captured_at = util::format_utc(o.wall->now());
  if (arm.recipe) f.recipe = results::RecipeOrigin{arm.recipe->catalog, arm.recipe->select};
  auto facts = s.adapter->facts(*s.exchange);
  if (!facts) return std::unexpected(facts.error());
  // A fleet holds the requests and the KV of every replica (each request still needs its context on one).
  const auto times = [&](std::optional<std::int64_t> v) { return v ? std::optional(*v * o.replicas) : v; };
  s.limits = {facts->context_length, times(facts->kv_pool_tokens), times(facts->max_running_requests)};
  auto raw = util::parse_json(facts->raw_json.empty() ? "{}" : facts->raw_json, "server facts");
  json::object raw_object = raw && raw->is_object() ? raw->get_object() : json::object{};
  raw_object["plan"] = s.provenance;
  f.raw = std::move(raw_object);
  f.facts = std::move(*facts);
  if (auto ok = results::write_server_facts(layout.server_facts(arm.name), f); !ok) return std::unexpected(ok.error());
  s.server_ref = {f.engine, f.fingerprint, results::RunLayout::server_facts_ref(arm.name)};
  return s;
}

void say(const PlanOptions& o, const std::string& line) {
  if (o.console == nullptr) return;
  fmt::print(o.console, "{}\n", line);
  std::fflush(o.console);
}

std::string point_line(const results::PointRecord& r) {
  const std::string id = results::point_id(results::key_of(r));
  if (r.status != results::PointStatus::ok) return fmt::format("  {} {}: {}", id, results::to_string(r.status), r.reason);
  return fmt::format("  {} predicted: TTFT {:.1f} ms, TPOT {:.2f} ms, {:.0f} output tok/s ({} requests)", id,
                     r.ttft_ms.mean, r.tpot_ms.mean, r.throughput.output_tok_per_s, r.completed);
}

}  // namespace

util::Result<PlanSummary> run_plan(const campaign::CampaignSpec& spec, const PlanOptions& o) {
  if (spec.protocol.prompts.kind != campaign::PromptSourceKind::random_ids) {
    return util::fail(ErrorKind::bad_input, "plan runs prompts.source random-ids only (a corpus needs the server's "
                                            "tokenizer; run the campaign for it)");
  }
  SB_CHECK(o.parse_launch);
  PlanSummary summary;
  std::vector<ArmLaunch> arms;
  for (const auto& arm : spec.arms) {
    auto args = serve_sim_args(arm);
    std::string overrides = args ? overrides_in(*args) : std::string();
    if (args && overrides.empty() && !o.sim_overrides.empty()) {
      args->insert(args->end(), {"--sim-overrides", o.sim_overrides});
      overrides = o.sim_overrides;
    }
    auto launch = args ? o.parse_launch(*args) : util::Result<SimLaunch>(std::unexpected(args.error()));
    if (!launch) {
      summary.unsupported.emplace_back(arm.name, launch.error().message);
      continue;
    }
    arms.push_back({&arm, std::move(*launch), overrides});
  }
  for (const auto& [arm, reason] : summary.unsupported) say(o, fmt::format("arm {}: not simulated: {}", arm, reason));
  if (arms.empty()) return util::fail(ErrorKind::bad_input, "plan: no arm of the campaign can be simulated");
  auto dir = campaign::RunDirectory::claim(o.out, spec);
  if (!dir) return std::unexpected(dir.error());
  const auto points = campaign::expand(spec, o.only);
  for (auto& [arm, launch, overrides] : arms) {
    auto state = open_arm(*arm, std::move(launch), overrides, o, dir->layout());
    if (!state) return std::unexpected(state.error());
    VirtualControl control(*state->adapter, *state->exchange);
    auto prompts = campaign::PromptSource::open(spec.protocol, dir->ledger(), control);
    if (!prompts) return std::unexpected(prompts.error());
    const auto& d = state->engines[0]->deployment();
    say(o, o.replicas > 1 ? fmt::format("arm {}: simulating {} replicas of {} on {} behind a {} router (virtual time)",
                                        arm->name, o.replicas, d.model.name, d.hardware.name, to_string(o.router))
                          : fmt::format("arm {}: simulating {} on {} (virtual time)", arm->name, d.model.name,
                                        d.hardware.name));
    say(o, fmt::format("arm {}: predicted; {}", arm->name, state->budget_line));
    summary.budgets.emplace_back(arm->name, state->budget_line);
    for (const auto& p : points) {
      if (spec.arms[p.arm].name != arm->name) continue;
      const PointEnv env{&spec, arm, state->engines, o.router, &*prompts, &control, state->server_ref,
                         state->provenance, o.tool, o.wall, dir->path()};
      auto record = run_virtual_point(env, p, state->limits);
      if (!record) return std::unexpected(record.error());
      if (auto ok = results::append_point(dir->ledger(), record->record); !ok) return std::unexpected(ok.error());
      say(o, point_line(record->record));
      summary.points += 1;
      summary.simulated_requests += record->requests;
      summary.engine_steps += record->steps;
      const auto status = record->record.status;
      (status == results::PointStatus::ok ? summary.ok
       : status == results::PointStatus::skipped ? summary.skipped
                                                 : summary.not_ok) += 1;
    }
  }
  return summary;
}

int exit_code_of(const PlanSummary& s) { return s.not_ok == 0 ? util::k_exit_ok : util::k_exit_measured_failure; }

}  // namespace servebench::plan
