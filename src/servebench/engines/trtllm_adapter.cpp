// trtllm-serve. docs/engines.md; sources (serve/openai_server.py register_routes). The JSON
// /metrics field names (kvCacheStats.reusedBlocks/missedBlocks, numActiveRequests,
// numQueuedRequests) come from the reference notes and are not verified against a live server.
#include <boost/json.hpp>

#include "servebench/engines/basic_adapter.hpp"
#include "servebench/engines/control_call.hpp"
#include "servebench/engines/engine_adapters.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::engines {
namespace {

using boost::json::object;
using util::Result;

constexpr std::string_view k_stats_hint =
    "start trtllm-serve with enable_iter_perf_stats: true in --extra_llm_api_options";

class TrtllmAdapter final : public BasicAdapter {
 public:
  TrtllmAdapter(const util::Clock& clock, Pacer& pacer) : BasicAdapter(Engine::trtllm, clock, pacer) {}

  Result<void> flush(http::Exchange& ex, util::TimePoint) override {
    return std::unexpected(unsupported(ex, "a cache flush",
                                       "disable KV block reuse (kv_cache_config.enable_block_reuse: false in "
                                       "--extra_llm_api_options), restart between points, or use unique prompts"));
  }
  Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) override;
  Result<Counters> snapshot(http::Exchange& ex) override;
  // Blocks, not tokens: reused / (reused + missed), both cumulative in the iteration stats.
  Result<double> hit_rate(const Counters& before, const Counters& after) const override {
    return ratio_of_deltas(delta(before.cached_tokens, after.cached_tokens),
                           delta(before.prompt_tokens, after.prompt_tokens), "trtllm",
                           "kvCacheStats.reusedBlocks and missedBlocks");
  }
  Result<wire::ServerFacts> facts(http::Exchange& ex) override;
  Result<wire::TokenIds> tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) override;

 private:
  Result<bool> read_stats(http::Exchange& ex);
  // The iteration-stats list is drained on every read, so the last values seen are kept.
  Counters m_last;
  bool m_busy = false;
};

// Reads the iteration stats since the last read; returns whether any arrived.
Result<bool> TrtllmAdapter::read_stats(http::Exchange& ex) {
  auto r = call(ex, http::Method::get, "/metrics");
  if (!r) return std::unexpected(r.error());
  if (r->status != 200) {
    return util::failf(util::ErrorKind::failed, "{}; {}", describe_status(ex, http::Method::get, "/metrics", *r),
                       k_stats_hint);
  }
  auto v = util::parse_json(r->body, fmt::format("GET {}/metrics", ex.base_url()));
  if (!v) return std::unexpected(v.error());
  if (!v->is_array()) return util::failf(util::ErrorKind::failed, "GET {}/metrics: expected a JSON list", ex.base_url());
  if (v->get_array().empty()) return false;
  const auto* last = v->get_array().back().if_object();
  if (last == nullptr) return false;
  const auto* kv = last->if_contains("kvCacheStats");
  if (kv != nullptr && kv->is_object()) {
    const auto reused = util::json_number(kv->get_object(), "reusedBlocks");
    const auto missed = util::json_number(kv->get_object(), "missedBlocks");
    if (reused && missed) {
      m_last.cached_tokens = *reused;
      m_last.prompt_tokens = *reused + *missed;
    }
  }
  m_last.running = util::json_number(*last, "numActiveRequests");
  m_last.queued = util::json_number(*last, "numQueuedRequests");
  m_busy = m_last.running.value_or(0) + m_last.queued.value_or(0) > 0;
  return true;
}

Result<void> TrtllmAdapter::wait_idle(http::Exchange& ex, util::TimePoint deadline) {
  auto idle = [&]() -> Result<bool> {
    auto fresh = read_stats(ex);
    if (!fresh) return std::unexpected(fresh.error());
    return !*fresh || !m_busy;  // no iteration since the last read means the engine is not stepping
  };
  return poll_until(clock(), pacer(), deadline, idle, fmt::format("wait for {} to idle", ex.base_url()));
}

Result<Counters> TrtllmAdapter::snapshot(http::Exchange& ex) {
  if (auto fresh = read_stats(ex); !fresh) return std::unexpected(fresh.error());
  return m_last;
}

Result<wire::ServerFacts> TrtllmAdapter::facts(http::Exchange& ex) {
  wire::ServerFacts facts;
  facts.engine = "trtllm";
  std::string raw = "{";
  if (auto models = read_models(ex, facts, raw); !models) return std::unexpected(models.error());
  if (auto version = get_json(ex, "/version")) {
    append_raw(raw, "/version", *version);
    if (const auto* o = version->if_object()) facts.version = util::json_string(*o, "version").value_or("");
  }
  facts.raw_json = raw + "}";
  return facts;
}

// Only the newest trtllm-serve has this internal route; others answer 404.
Result<wire::TokenIds> TrtllmAdapter::tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) {
  return post_tokenize(ex, {.route = "/_internal/tokenize", .text_key = "prompt", .special_key = ""}, text, special);
}

}  // namespace

std::unique_ptr<EngineAdapter> make_trtllm_adapter(const util::Clock& clock, Pacer& pacer) {
  return std::make_unique<TrtllmAdapter>(clock, pacer);
}

}  // namespace servebench::engines
