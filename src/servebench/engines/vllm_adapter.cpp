// vLLM. docs/engines.md; sources (serve/cache api_router, v1/metrics/loggers.py, spec_decode/metrics.py).
#include <boost/json.hpp>

#include "servebench/engines/basic_adapter.hpp"
#include "servebench/engines/control_call.hpp"
#include "servebench/engines/engine_adapters.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/metric_names.hpp"

namespace servebench::engines {
namespace {

using boost::json::object;
using util::Result;

constexpr std::string_view k_no_metrics = "vLLM always serves /metrics; is this a vLLM server?";

// Newer names first; older builds export the gpu_-prefixed spelling.
std::optional<double> first_of(const std::vector<wire::Sample>& samples, std::string_view a, std::string_view b) {
  if (auto v = wire::sum_metric(samples, a)) return v;
  return wire::sum_metric(samples, b);
}

// KV pool tokens from the vllm:cache_config_info gauge labels: num_gpu_blocks x block_size.
std::optional<std::int64_t> kv_pool_tokens(const std::vector<wire::Sample>& samples) {
  for (const auto& s : samples) {
    if (s.name != "vllm:cache_config_info") continue;
    const auto blocks = s.label("num_gpu_blocks"), size = s.label("block_size");
    if (!blocks || !size) return std::nullopt;
    auto b = util::parse_int(*blocks, "num_gpu_blocks");
    auto z = util::parse_int(*size, "block_size");
    if (b && z) return *b * *z;
  }
  return std::nullopt;
}

// Dev-mode /server_info?config_format=json: scheduler and speculative settings.
void read_dev_server_info(const object& info, wire::ServerFacts& facts) {
  const object* config = util::json_object(info, "vllm_config");
  if (config == nullptr) return;
  if (const object* scheduler = util::json_object(*config, "scheduler_config")) {
    facts.max_running_requests = util::json_int(*scheduler, "max_num_seqs");
  }
  if (const object* spec = util::json_object(*config, "speculative_config")) {
    facts.speculative = wire::SpeculativeFacts{util::json_string(*spec, "method").value_or("unknown"), std::nullopt,
                                         std::nullopt, util::json_int(*spec, "num_speculative_tokens")};
  }
}

class VllmAdapter final : public BasicAdapter {
 public:
  VllmAdapter(const util::Clock& clock, Pacer& pacer) : BasicAdapter(Engine::vllm, clock, pacer) {}

  Result<void> flush(http::Exchange& ex, util::TimePoint deadline) override;
  Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) override;
  Result<Counters> snapshot(http::Exchange& ex) override;
  Result<double> hit_rate(const Counters& before, const Counters& after) const override {
    return ratio_of_deltas(delta(before.cached_tokens, after.cached_tokens),
                           delta(before.prompt_tokens, after.prompt_tokens), "vllm",
                           "vllm:prefix_cache_hits_total and vllm:prefix_cache_queries_total");
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
};

// /reset_prefix_cache always answers 200 but does nothing while blocks are held, so wait for
// idle first; the caller verifies with the hit-rate counters.
Result<void> VllmAdapter::flush(http::Exchange& ex, util::TimePoint deadline) {
  if (auto idle = wait_idle(ex, deadline); !idle) return idle;
  auto r = call(ex, http::Method::post, "/reset_prefix_cache");
  if (!r) return std::unexpected(r.error());
  if (r->status == 404) {
    return util::failf(util::ErrorKind::failed,
                       "{}; vLLM serves /reset_prefix_cache only when started with VLLM_SERVER_DEV_MODE=1",
                       describe_status(ex, http::Method::post, "/reset_prefix_cache", *r));
  }
  if (r->status != 200) return util::fail(describe_status(ex, http::Method::post, "/reset_prefix_cache", *r));
  return {};
}

Result<void> VllmAdapter::wait_idle(http::Exchange& ex, util::TimePoint deadline) {
  auto idle = [&]() -> Result<bool> {
    auto samples = scrape_metrics(ex, k_no_metrics);
    if (!samples) return std::unexpected(samples.error());
    const auto running = wire::sum_metric(*samples, "vllm:num_requests_running");
    const auto waiting = wire::sum_metric(*samples, "vllm:num_requests_waiting");
    if (!running || !waiting) {
      return util::failf(util::ErrorKind::failed, "{}/metrics has no vllm:num_requests_running/waiting",
                         ex.base_url());
    }
    return *running + *waiting == 0;
  };
  return poll_until(clock(), pacer(), deadline, idle, fmt::format("wait for {} to idle", ex.base_url()));
}

Result<Counters> VllmAdapter::snapshot(http::Exchange& ex) {
  auto samples = scrape_metrics(ex, k_no_metrics);
  if (!samples) return std::unexpected(samples.error());
  const auto& s = *samples;
  Counters c;
  c.prompt_tokens = first_of(s, "vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total");
  c.cached_tokens = first_of(s, "vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total");
  c.generation_tokens = wire::sum_metric(s, "vllm:generation_tokens_total");
  c.spec_drafts = wire::sum_metric(s, "vllm:spec_decode_num_drafts_total");
  c.spec_draft_tokens = wire::sum_metric(s, "vllm:spec_decode_num_draft_tokens_total");
  c.spec_accepted_tokens = wire::sum_metric(s, "vllm:spec_decode_num_accepted_tokens_total");
  c.running = wire::sum_metric(s, "vllm:num_requests_running");
  c.queued = wire::sum_metric(s, "vllm:num_requests_waiting");
  c.sim_step_lateness = wire::histogram_buckets(s, wire::sglang_metric::k_sim_step_lateness_seconds);
  return c;
}

Result<wire::ServerFacts> VllmAdapter::facts(http::Exchange& ex) {
  wire::ServerFacts facts;
  facts.engine = "vllm";
  std::string raw = "{";
  if (auto models = read_models(ex, facts, raw); !models) return std::unexpected(models.error());
  if (auto version = get_json(ex, "/version")) {
    append_raw(raw, "/version", *version);
    if (const auto* o = version->if_object()) facts.version = util::json_string(*o, "version").value_or("");
  }
  if (auto samples = scrape_metrics(ex, k_no_metrics)) facts.kv_pool_tokens = kv_pool_tokens(*samples);
  if (auto info = get_json(ex, "/server_info?config_format=json")) {  // dev mode only
    append_raw(raw, "/server_info", *info);
    if (const auto* o = info->if_object()) read_dev_server_info(*o, facts);
  }
  facts.raw_json = raw + "}";
  return facts;
}

Result<wire::TokenIds> VllmAdapter::tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) {
  return post_tokenize(ex, {}, text, special);
}

Result<std::string> VllmAdapter::detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) {
  return post_detokenize(ex, tokens, "prompt");
}

}  // namespace

std::unique_ptr<EngineAdapter> make_vllm_adapter(const util::Clock& clock, Pacer& pacer) {
  return std::make_unique<VllmAdapter>(clock, pacer);
}

}  // namespace servebench::engines
