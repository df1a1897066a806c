// SGLang (and the simulator, which speaks SGLang's control plane). docs/engines.md; sources.
#include <boost/json.hpp>

#include "servebench/engines/basic_adapter.hpp"
#include "servebench/engines/control_call.hpp"
#include "servebench/engines/engine_adapters.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/wire/metric_names.hpp"

namespace servebench::engines {
namespace {

using boost::json::object;
using util::Result;
namespace metric = wire::sglang_metric;

constexpr std::string_view k_sglang_metrics_hint = "start SGLang with --enable-metrics";

// Σ num_running_reqs + num_waiting_reqs over every object of /v1/loads (one per DP rank).
void sum_loads(const boost::json::value& v, double& busy) {
  if (const auto* o = v.if_object()) {
    busy += util::json_number(*o, "num_running_reqs").value_or(0) + util::json_number(*o, "num_waiting_reqs").value_or(0);
    for (const auto& kv : *o) sum_loads(kv.value(), busy);
  } else if (const auto* a = v.if_array()) {
    for (const auto& item : *a) sum_loads(item, busy);
  }
}

const object* first_internal_state(const object& info) {
  const auto* states = info.if_contains("internal_states");
  if (states == nullptr || !states->is_array() || states->get_array().empty()) return nullptr;
  return states->get_array()[0].if_object();
}

void read_server_info(const object& info, wire::ServerFacts& facts) {
  facts.version = util::json_string(info, "version").value_or("");
  if (facts.model.empty()) facts.model = util::json_string(info, "model_path").value_or("");
  if (!facts.context_length) facts.context_length = util::json_int(info, "context_length");
  facts.kv_pool_tokens = util::json_int(info, "max_total_num_tokens");
  facts.max_running_requests = util::json_int(info, "max_running_requests");
  if (const object* state = first_internal_state(info)) {
    if (!facts.max_running_requests) {
      facts.max_running_requests = util::json_int(*state, "effective_max_running_requests_per_dp");
    }
    const auto* memory = state->if_contains("memory_usage");
    if (!facts.kv_pool_tokens && memory && memory->is_object()) {
      facts.kv_pool_tokens = util::json_int(memory->get_object(), "token_capacity");
    }
  }
  if (auto algorithm = util::json_string(info, "speculative_algorithm")) {
    facts.speculative = wire::SpeculativeFacts{*algorithm, util::json_int(info, "speculative_num_steps"),
                                         util::json_int(info, "speculative_eagle_topk"),
                                         util::json_int(info, "speculative_num_draft_tokens")};
  }
  facts.sim = wire::sim_facts_of_server_info(info);
  facts.disaggregation = wire::disaggregation_of_server_info(info);
}

class SglangAdapter final : public BasicAdapter {
 public:
  SglangAdapter(SglangFlavour flavour, const util::Clock& clock, Pacer& pacer)
      : BasicAdapter(flavour == SglangFlavour::sim ? Engine::sim : Engine::sglang, clock, pacer), m_flavour(flavour) {}

  Result<void> flush(http::Exchange& ex, util::TimePoint deadline) override;
  Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) override;
  Result<Counters> snapshot(http::Exchange& ex) override;
  Result<double> hit_rate(const Counters& before, const Counters& after) const override {
    return ratio_of_deltas(delta(before.cached_tokens, after.cached_tokens),
                           delta(before.prompt_tokens, after.prompt_tokens), to_string(engine()),
                           fmt::format("{} and {}", metric::k_cached_tokens_total, metric::k_prompt_tokens_total));
  }
  std::optional<double> accept_length(const Counters& before, const Counters& after) const override;
  std::optional<double> reported_accept_length(http::Exchange& ex) override;
  Result<wire::ServerFacts> facts(http::Exchange& ex) override;
  Result<wire::TokenIds> tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) override;
  Result<std::string> detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) override;
  Result<std::optional<std::int64_t>> vocab_size(http::Exchange& ex) override;

 private:
  Result<bool> idle(http::Exchange& ex);
  SglangFlavour m_flavour;
};

// POST /flush_cache succeeds only when the scheduler is idle (400 otherwise, with a body that
// older builds word as a success), so the status decides and a 400 is retried until the deadline.
Result<void> SglangAdapter::flush(http::Exchange& ex, util::TimePoint deadline) {
  std::optional<http::Response> last;
  auto attempt = [&]() -> Result<bool> {
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(deadline - clock().now());
    const auto wait = std::clamp<std::chrono::seconds>(left, std::chrono::seconds(0), std::chrono::seconds(10));
    const std::string target = fmt::format("/flush_cache?timeout={}", wait.count());
    auto r = call(ex, http::Method::post, target, {}, wait + k_control_timeout);
    if (!r) return std::unexpected(r.error());
    last = *r;
    if (r->status == 200) return true;
    if (r->status == 400) return false;
    const std::string what = describe_status(ex, http::Method::post, target, *r);
    if (r->status == 401 || r->status == 403) {
      return util::failf(util::ErrorKind::failed, "{}; the server needs its --admin-api-key for cache flushes", what);
    }
    return util::fail(what);
  };
  auto done = poll_until(clock(), pacer(), deadline, attempt, fmt::format("flush {}", ex.base_url()));
  if (!done && last && last->status == 400) {
    return util::failf(util::ErrorKind::failed, "{}: the server stayed busy until the deadline",
                       describe_status(ex, http::Method::post, "/flush_cache", *last));
  }
  return done;
}

Result<bool> SglangAdapter::idle(http::Exchange& ex) {
  auto r = call(ex, http::Method::get, "/metrics");
  if (!r) return std::unexpected(r.error());
  if (r->status == 200) {
    const auto samples = wire::parse_prometheus(r->body);
    const auto running = wire::sum_metric(samples, metric::k_num_running_reqs);
    const auto queued = wire::sum_metric(samples, metric::k_num_queue_reqs);
    if (running && queued) return *running + *queued == 0;
  }
  auto loads = get_json(ex, "/v1/loads?include=core");  // newer builds, no --enable-metrics needed
  if (!loads) {
    return util::failf(util::ErrorKind::failed, "cannot tell whether {} is idle: {}; {}", ex.base_url(),
                       loads.error().message, k_sglang_metrics_hint);
  }
  double busy = 0;
  sum_loads(*loads, busy);
  return busy == 0;
}

Result<void> SglangAdapter::wait_idle(http::Exchange& ex, util::TimePoint deadline) {
  return poll_until(clock(), pacer(), deadline, [&] { return idle(ex); }, fmt::format("wait for {} to idle", ex.base_url()));
}

Result<Counters> SglangAdapter::snapshot(http::Exchange& ex) {
  auto samples = scrape_metrics(ex, k_sglang_metrics_hint);
  if (!samples) return std::unexpected(samples.error());
  Counters c;
  c.prompt_tokens = wire::sum_metric(*samples, metric::k_prompt_tokens_total);
  c.cached_tokens = wire::sum_metric(*samples, metric::k_cached_tokens_total);
  c.generation_tokens = wire::sum_metric(*samples, metric::k_generation_tokens_total);
  c.running = wire::sum_metric(*samples, metric::k_num_running_reqs);
  c.queued = wire::sum_metric(*samples, metric::k_num_queue_reqs);
  if (m_flavour == SglangFlavour::sim) {
    c.spec_drafts = wire::sum_metric(*samples, metric::k_spec_verify_ct_total);
    c.spec_accepted_tokens = wire::sum_metric(*samples, metric::k_spec_accepted_tokens_total);
  }
  c.sim_step_lateness = wire::histogram_buckets((*samples), wire::sglang_metric::k_sim_step_lateness_seconds);
  return c;
}

// SGLang exports no spec counters (only last-window gauges); the simulator exports exact ones.
std::optional<double> SglangAdapter::accept_length(const Counters& before, const Counters& after) const {
  const auto steps = delta(before.spec_drafts, after.spec_drafts);
  const auto accepted = delta(before.spec_accepted_tokens, after.spec_accepted_tokens);
  if (!steps || !accepted || *steps <= 0) return std::nullopt;
  return 1.0 + *accepted / *steps;
}

// The mean of avg_spec_accept_length over the ranks that report it (one per DP rank; a PD
// deployment nests its decode servers under "decode").
std::optional<double> SglangAdapter::reported_accept_length(http::Exchange& ex) {
  auto info = get_json(ex, "/server_info");
  if (!info) info = get_json(ex, "/get_server_info");
  if (!info || !info->is_object()) return std::nullopt;
  const object* o = &info->get_object();
  if (const auto* decode = o->if_contains("decode"); decode && decode->is_array() && !decode->get_array().empty()) {
    if (const auto* first = decode->get_array()[0].if_object()) o = first;
  }
  const auto* states = o->if_contains("internal_states");
  if (states == nullptr || !states->is_array()) return std::nullopt;
  double sum = 0;
  int ranks = 0;
  for (const auto& state : states->get_array()) {
    const auto* s = state.if_object();
    const auto v = s ? util::json_number(*s, "avg_spec_accept_length") : std::nullopt;
    if (v && *v > 0) {
      sum += *v;
      ++ranks;
    }
  }
  if (ranks == 0) return std::nullopt;
  return sum / ranks;
}

Result<wire::ServerFacts> SglangAdapter::facts(http::Exchange& ex) {
  wire::ServerFacts facts;
  facts.engine = std::string(to_string(engine()));
  std::string raw = "{";
  if (auto models = read_models(ex, facts, raw); !models) return std::unexpected(models.error());
  auto info = get_json(ex, "/server_info");
  std::string_view route = "/server_info";
  if (!info) {  // older builds
    info = get_json(ex, "/get_server_info");
    route = "/get_server_info";
  }
  if (!info) return std::unexpected(info.error());
  append_raw(raw, route, *info);
  if (const auto* o = info->if_object()) read_server_info(*o, facts);
  facts.raw_json = raw + "}";
  return facts;
}

Result<wire::TokenIds> SglangAdapter::tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) {
  return post_tokenize(ex, {}, text, special);
}

Result<std::string> SglangAdapter::detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) {
  return post_detokenize(ex, tokens, "text");
}

// SGLang does not publish its vocabulary size; the simulator does, in its /server_info `sim` block.
Result<std::optional<std::int64_t>> SglangAdapter::vocab_size(http::Exchange& ex) {
  if (m_flavour != SglangFlavour::sim) return std::optional<std::int64_t>{};
  auto info = get_json(ex, "/server_info");
  if (!info) return std::unexpected(info.error());
  const auto sim = info->is_object() ? wire::sim_facts_of_server_info(info->get_object()) : std::nullopt;
  return sim ? sim->vocab_size : std::optional<std::int64_t>{};
}

}  // namespace

std::unique_ptr<EngineAdapter> make_sglang_adapter(SglangFlavour flavour, const util::Clock& clock, Pacer& pacer) {
  return std::make_unique<SglangAdapter>(flavour, clock, pacer);
}

}  // namespace servebench::engines
