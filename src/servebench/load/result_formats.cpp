// sglang bench_serving and vLLM bench serve result objects (docs/formats.md "bench results"); each format is
// written here and nowhere else.
#include "servebench/load/result_formats.hpp"

#include <boost/json.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include "servebench/util/json_text.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;
using util::json_double_or_null;

json::value rate_json(const std::optional<double>& rate) {
  // Both peers write an unbounded rate as infinity; JSON has none, so it is the string "inf" (vLLM's choice).
  return rate ? json::value(*rate) : json::value("inf");
}

json::value opt_int(const std::optional<std::int64_t>& v) { return v ? json::value(*v) : json::value(nullptr); }

void merge(json::object& into, json::object from) {
  for (auto& kv : from) into[kv.key()] = std::move(kv.value());
}

// Per-request arrays of --output-details (times in seconds, as both peers write them).
void add_details(json::object& out, const RunResult& r, bool with_start_times) {
  json::array input_lens, output_lens, ttfts, itls, texts, errors, starts;
  std::size_t c = 0;
  for (const RequestRecord& rec : r.records) {
    input_lens.push_back(rec.input_tokens());
    output_lens.push_back(rec.ok() ? rec.output_tokens() : 0);
    ttfts.push_back(rec.ok() && rec.first_token ? util::to_seconds(*rec.first_token - rec.sent) : 0.0);
    json::array gaps;
    while (c < r.chunks.size() && r.chunks[c].request < rec.index) ++c;
    for (std::size_t k = c; k < r.chunks.size() && r.chunks[k].request == rec.index; ++k) {
      if (k > c) gaps.push_back(static_cast<double>(r.chunks[k].at_ns - r.chunks[k - 1].at_ns) / 1e9);
    }
    itls.push_back(std::move(gaps));
    texts.push_back("");  // generated text is not kept: the hot path stores no text
    errors.push_back(rec.ok() ? json::string() : json::string(rec.error_message));
    starts.push_back(util::to_seconds(rec.sent));
  }
  out["input_lens"] = std::move(input_lens);
  out["output_lens"] = std::move(output_lens);
  out["ttfts"] = std::move(ttfts);
  out["itls"] = std::move(itls);
  if (with_start_times) out["start_times"] = std::move(starts);
  out["generated_texts"] = std::move(texts);
  out["errors"] = std::move(errors);
}

}  // namespace

json::object sglang_result(const RunResult& r, const OutputLabels& labels, Details details) {
  const RunMetrics& m = r.metrics;
  json::object out;
  out["tag"] = labels.tag;
  out["backend"] = r.echo.backend;
  out["dataset_name"] = labels.dataset_name;
  out["request_rate"] = rate_json(r.echo.request_rate);
  out["max_concurrency"] = opt_int(r.echo.max_concurrency);
  out["sharegpt_output_len"] = opt_int(labels.sharegpt_output_len);
  out["random_input_len"] = opt_int(labels.random_input_len);
  out["random_output_len"] = opt_int(labels.random_output_len);
  out["random_range_ratio"] = labels.random_range_ratio;
  out["server_info"] = r.server_info;
  out["duration"] = util::to_seconds(m.duration);
  out["completed"] = m.completed;
  out["total_input_tokens"] = m.total_input_tokens;
  out["total_input_text_tokens"] = m.total_input_tokens;
  out["total_input_vision_tokens"] = 0;
  out["total_output_tokens"] = m.total_output_tokens;
  // No retokenization: the server's count is the only count (definitions.output_tokens).
  out["total_output_tokens_retokenized"] = m.total_output_tokens;
  out["request_throughput"] = m.request_throughput;
  out["input_throughput"] = m.input_throughput;
  out["output_throughput"] = m.output_throughput;
  out["total_throughput"] = m.total_throughput;
  add_stat_keys(out, "e2e_latency", m.e2e_ms);
  add_stat_keys(out, "ttft", m.ttft_ms);
  add_stat_keys(out, "tpot", m.tpot_ms);
  add_stat_keys(out, "itl", m.itl_ms);
  out["concurrency"] = m.concurrency;
  out["accept_length"] = r.accept_length ? json_double_or_null(*r.accept_length) : json::value(nullptr);
  out["max_output_tokens_per_s"] = m.max_output_tokens_per_s;
  out["max_concurrent_requests"] = m.max_concurrent_requests;
  if (details == Details::per_request) add_details(out, r, false);
  merge(out, servebench_keys(r));
  return out;
}

json::object vllm_result(const RunResult& r, const OutputLabels& labels, Details details) {
  const RunMetrics& m = r.metrics;
  json::object out;
  out["date"] = fmt::format("{:%Y%m%d-%H%M%S}", std::chrono::time_point_cast<std::chrono::seconds>(r.started_at));
  out["endpoint_type"] = r.echo.backend;
  out["backend"] = r.echo.backend;
  out["label"] = labels.tag;
  out["model_id"] = r.echo.model;
  out["tokenizer_id"] = r.echo.model;
  out["num_prompts"] = r.echo.num_prompts;
  out["request_rate"] = rate_json(r.echo.request_rate);
  out["burstiness"] = r.echo.burstiness;
  out["max_concurrency"] = opt_int(r.echo.max_concurrency);
  out["duration"] = util::to_seconds(m.duration);
  out["completed"] = m.completed;
  out["failed"] = m.failed;
  out["total_input_tokens"] = m.total_input_tokens;
  out["total_output_tokens"] = m.total_output_tokens;
  out["request_throughput"] = m.request_throughput;
  out["request_goodput"] = m.goodput ? json::value(m.goodput->request_goodput) : json::value(nullptr);
  out["output_throughput"] = m.output_throughput;
  out["total_token_throughput"] = m.total_throughput;
  out["max_output_tokens_per_s"] = m.max_output_tokens_per_s;
  out["max_concurrent_requests"] = m.max_concurrent_requests;
  add_stat_keys(out, "ttft", m.ttft_ms);
  add_stat_keys(out, "tpot", m.tpot_ms);
  add_stat_keys(out, "itl", m.itl_ms);
  add_stat_keys(out, "e2el", m.e2e_ms);
  if (r.accept_length) out["spec_decode_acceptance_length"] = json_double_or_null(*r.accept_length);
  if (details == Details::per_request) add_details(out, r, true);
  merge(out, servebench_keys(r));
  return out;
}

}  // namespace servebench::load
