// llama-server. docs/engines.md; sources (tools/server README, server-context.cpp, server-task.cpp)
// and the recorded responses in tests/fixtures/llamacpp/.
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

constexpr std::string_view k_llamacpp_metrics_hint = "start llama-server with --metrics";

void read_props(const object& props, wire::ServerFacts& facts) {
  facts.version = util::json_string(props, "build_info").value_or("");
  if (auto alias = util::json_string(props, "model_alias")) facts.model = *alias;
  facts.max_running_requests = util::json_int(props, "total_slots");
  const object* settings = util::json_object(props, "default_generation_settings");
  if (settings == nullptr) return;
  facts.context_length = util::json_int(*settings, "n_ctx");  // per slot: the most one request can use
  // llama-server divides -c among its -np slots, so the KV pool is the whole context: per-slot
  // n_ctx × slots (16,384 for -c 16384 -np 4). /v1/models meta.n_ctx is per slot too.
  if (facts.context_length && facts.max_running_requests && *facts.max_running_requests > 0) {
    facts.kv_pool_tokens = *facts.context_length * *facts.max_running_requests;
  }
  const object* params = util::json_object(*settings, "params");
  if (params == nullptr) return;
  const auto types = util::json_string(*params, "speculative.types");
  if (types && *types != "none") {
    facts.speculative = wire::SpeculativeFacts{*types, std::nullopt, std::nullopt, util::json_int(*params, "speculative.n_max")};
  }
}

// /v1/models meta: n_vocab the vocabulary; n_ctx (per slot) is the KV pool only when /props says nothing.
const object* model_meta(const boost::json::value& models) {
  const auto* o = models.if_object();
  const auto* data = o ? o->if_contains("data") : nullptr;
  if (data == nullptr || !data->is_array() || data->get_array().empty()) return nullptr;
  const auto* first = data->get_array()[0].if_object();
  return first ? util::json_object(*first, "meta") : nullptr;
}

class LlamacppAdapter final : public BasicAdapter {
 public:
  LlamacppAdapter(const util::Clock& clock, Pacer& pacer) : BasicAdapter(Engine::llamacpp, clock, pacer) {}

  Result<void> flush(http::Exchange& ex, util::TimePoint deadline) override;
  Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) override;
  Result<Counters> snapshot(http::Exchange& ex) override;
  // llamacpp:prompt_tokens_total excludes cached tokens, so queried = cached + prompt.
  Result<double> hit_rate(const Counters& before, const Counters& after) const override {
    const auto cached = delta(before.cached_tokens, after.cached_tokens);
    const auto prompt = delta(before.prompt_tokens, after.prompt_tokens);
    std::optional<double> queried;
    if (cached && prompt) queried = *cached + *prompt;
    return ratio_of_deltas(cached, queried, "llamacpp",
                           "llamacpp:prompt_tokens_cached_total and llamacpp:prompt_tokens_total");
  }
  std::optional<double> accept_length(const Counters& before, const Counters& after) const override {
    const auto drafts = delta(before.spec_drafts, after.spec_drafts);
    const auto accepted = delta(before.spec_accepted_tokens, after.spec_accepted_tokens);
    if (!drafts || !accepted || *drafts <= 0) return std::nullopt;
    return 1.0 + *accepted / *drafts;
  }
  Result<wire::ServerFacts> facts(http::Exchange& ex) override;
  Result<wire::TokenIds> tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) override;
  Result<std::string> detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) override;
  Result<std::optional<std::int64_t>> vocab_size(http::Exchange& ex) override;
};

// Erases every slot. Without --slot-save-path llama-server refuses all slot actions; the host
// prompt cache (--cache-ram) is not touched by erase, hence the advice in the message.
Result<void> LlamacppAdapter::flush(http::Exchange& ex, util::TimePoint deadline) {
  if (auto idle = wait_idle(ex, deadline); !idle) return idle;
  auto props = get_json(ex, "/props");
  if (!props) return std::unexpected(props.error());
  const auto slots = props->is_object() ? util::json_int(props->get_object(), "total_slots") : std::nullopt;
  if (!slots) return util::failf(util::ErrorKind::failed, "GET {}/props: no total_slots", ex.base_url());
  for (std::int64_t id = 0; id < *slots; ++id) {
    const std::string target = fmt::format("/slots/{}?action=erase", id);
    auto r = call(ex, http::Method::post, target);
    if (!r) return std::unexpected(r.error());
    if (r->body.find("slot-save-path") != std::string::npos) {
      return util::failf(util::ErrorKind::failed,
                         "{} cannot erase its slots: start llama-server with --slot-save-path DIR (and, for cold "
                         "runs, --cache-ram 0 with requests sending cache_prompt:false)", ex.base_url());
    }
    if (r->status != 200) return util::fail(describe_status(ex, http::Method::post, target, *r));
  }
  return {};
}

Result<void> LlamacppAdapter::wait_idle(http::Exchange& ex, util::TimePoint deadline) {
  auto idle = [&]() -> Result<bool> {
    if (auto slots = get_json(ex, "/slots"); slots && slots->is_array()) {
      for (const auto& s : slots->get_array()) {
        if (s.is_object() && util::json_bool(s.get_object(), "is_processing").value_or(false)) return false;
      }
      return true;
    }
    auto samples = scrape_metrics(ex, "start llama-server with --slots or --metrics");  // --no-slots servers
    if (!samples) return std::unexpected(samples.error());
    const auto busy = wire::sum_metric(*samples, "llamacpp:requests_processing");
    const auto deferred = wire::sum_metric(*samples, "llamacpp:requests_deferred");
    if (!busy || !deferred) return util::fail("llama-server /metrics has no requests_processing/deferred");
    return *busy + *deferred == 0;
  };
  return poll_until(clock(), pacer(), deadline, idle, fmt::format("wait for {} to idle", ex.base_url()));
}

Result<Counters> LlamacppAdapter::snapshot(http::Exchange& ex) {
  auto samples = scrape_metrics(ex, k_llamacpp_metrics_hint);
  if (!samples) return std::unexpected(samples.error());
  const auto& s = *samples;
  Counters c;
  c.prompt_tokens = wire::sum_metric(s, "llamacpp:prompt_tokens_total");
  c.cached_tokens = wire::sum_metric(s, "llamacpp:prompt_tokens_cached_total");
  c.generation_tokens = wire::sum_metric(s, "llamacpp:tokens_predicted_total");
  c.spec_drafts = wire::sum_metric(s, "llamacpp:spec_decode_num_drafts_total");
  c.spec_draft_tokens = wire::sum_metric(s, "llamacpp:spec_decode_num_draft_tokens_total");
  c.spec_accepted_tokens = wire::sum_metric(s, "llamacpp:spec_decode_num_accepted_tokens_total");
  c.running = wire::sum_metric(s, "llamacpp:requests_processing");
  c.queued = wire::sum_metric(s, "llamacpp:requests_deferred");
  c.sim_step_lateness = wire::histogram_buckets(s, wire::sglang_metric::k_sim_step_lateness_seconds);
  return c;
}

Result<wire::ServerFacts> LlamacppAdapter::facts(http::Exchange& ex) {
  wire::ServerFacts facts;
  facts.engine = "llamacpp";
  std::string raw = "{";
  auto models = read_models(ex, facts, raw);
  if (!models) return std::unexpected(models.error());
  auto props = get_json(ex, "/props");
  if (!props) return std::unexpected(props.error());
  append_raw(raw, "/props", *props);
  if (const auto* o = props->if_object()) read_props(*o, facts);
  if (const object* meta = model_meta(*models); meta != nullptr && !facts.kv_pool_tokens) {
    facts.kv_pool_tokens = util::json_int(*meta, "n_ctx");
  }
  if (auto slots = get_json(ex, "/slots")) append_raw(raw, "/slots", *slots);
  facts.raw_json = raw + "}";
  return facts;
}

Result<wire::TokenIds> LlamacppAdapter::tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) {
  // llama.cpp spells it {"content", "add_special"} and defaults add_special to false.
  return post_tokenize(ex, {.route = "/tokenize", .text_key = "content", .special_key = "add_special"}, text, special);
}

Result<std::string> LlamacppAdapter::detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) {
  return post_detokenize(ex, tokens, "content");
}

Result<std::optional<std::int64_t>> LlamacppAdapter::vocab_size(http::Exchange& ex) {
  auto models = get_json(ex, "/v1/models");
  if (!models) return std::unexpected(models.error());
  const object* meta = model_meta(*models);
  return meta ? util::json_int(*meta, "n_vocab") : std::nullopt;
}

}  // namespace

std::unique_ptr<EngineAdapter> make_llamacpp_adapter(const util::Clock& clock, Pacer& pacer) {
  return std::make_unique<LlamacppAdapter>(clock, pacer);
}

}  // namespace servebench::engines
