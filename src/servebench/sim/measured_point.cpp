#include "servebench/sim/measured_point.hpp"

#include <fmt/format.h>

#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

util::Result<MeasuredPoint> read_point(const boost::json::object& o, const std::string& where) {
  const auto bad = [&](std::string_view field, std::string_view why) {
    return util::failf(util::ErrorKind::bad_input, "{}: {}: {}", where, field, why);
  };
  MeasuredPoint p;
  p.source = util::json_string(o, "source").value_or("");
  SimConfig& c = p.config;
  c.model = util::json_string(o, "model").value_or("");
  c.hardware = util::json_string(o, "hw").value_or("");
  if (c.model.empty()) return bad("model", "missing (a model card name)");
  if (c.hardware.empty()) return bad("hw", "missing (a hardware card name)");
  c.tp_size = static_cast<int>(util::json_int(o, "tp").value_or(1));
  c.ep_size = static_cast<int>(util::json_int(o, "ep").value_or(1));
  c.pp_size = static_cast<int>(util::json_int(o, "pp").value_or(1));
  c.engine = util::json_string(o, "engine").value_or("sglang");  // the engine that measured it
  // Optional launch choices beyond TP/EP/PP: attention DP ranks, nodes, the MoE all-to-all, two-batch
  // overlap, the prefill batch, the running cap (as --dp-size with --enable-dp-attention, --nnodes,
  // --moe-a2a-backend, --enable-two-batch-overlap, --chunked-prefill-size, --max-running-requests).
  const auto dp = util::json_int(o, "dp").value_or(1);
  if (dp < 1 || dp > c.tp_size) return bad("dp", "must be in [1, tp]");
  c.dp_size = static_cast<int>(dp);
  c.enable_dp_attention = dp > 1;
  c.nnodes = static_cast<int>(util::json_int(o, "nnodes").value_or(1));
  if (c.nnodes < 1) return bad("nnodes", "must be >= 1");
  if (c.nnodes > 1) c.dist_init_addr = "node0";  // a replay connects nothing; the launch needs an address
  if (auto a2a = util::json_string(o, "a2a")) {
    auto backend = parse_moe_a2a_backend(*a2a);
    if (!backend) return bad("a2a", backend.error().message);
    c.moe_a2a_backend = *backend;
  }
  c.enable_two_batch_overlap = util::json_bool(o, "two_batch_overlap").value_or(false);
  if (auto chunk = util::json_int(o, "chunked_prefill")) c.chunked_prefill_size = static_cast<int>(*chunk);
  if (auto cap = util::json_int(o, "max_running_requests")) {
    if (*cap < 1 || *cap > 1'000'000) return bad("max_running_requests", "must be in [1, 1000000]");
    c.max_running_requests = static_cast<int>(*cap);
  }
  const std::string kv = util::json_string(o, "kv").value_or("");
  c.kv_cache_dtype = kv.starts_with("fp8") ? KvCacheDtype::fp8_e4m3 : kv.starts_with("fp4") ? KvCacheDtype::fp4_e2m1
                                                                                               : KvCacheDtype::bf16;
  if (const auto* spec = o.if_contains("spec"); spec && spec->is_object()) {
    const auto& s = spec->get_object();
    auto algo = parse_spec_algorithm(util::json_string(s, "algorithm").value_or(""));
    if (!algo) return bad("spec.algorithm", algo.error().message);
    c.speculative_algorithm = *algo;
    c.speculative_num_steps = static_cast<int>(util::json_int(s, "steps").value_or(3));
    c.speculative_eagle_topk = static_cast<int>(util::json_int(s, "topk").value_or(1));
    c.speculative_num_draft_tokens = static_cast<int>(util::json_int(s, "draft_tokens").value_or(4));
    c.speculative_adaptive = util::json_bool(s, "adaptive").value_or(false);
    p.accept_length = util::json_number(s, "accept_length");
  }
  p.isl = util::json_int(o, "isl").value_or(0);
  p.osl = util::json_int(o, "osl").value_or(0);
  p.concurrency = static_cast<int>(util::json_int(o, "concurrency").value_or(0));
  p.num_prompts = static_cast<int>(util::json_int(o, "num_prompts").value_or(std::max(8, 2 * p.concurrency)));
  if (p.isl <= 0) return bad("isl", "must be > 0");
  if (p.osl <= 0) return bad("osl", "must be > 0");
  if (p.concurrency <= 0) return bad("concurrency", "must be > 0");
  if (p.num_prompts <= 0 || p.num_prompts > 100'000) return bad("num_prompts", "must be in [1, 100000]");
  p.ttft_ms = util::json_number(o, "ttft_ms_mean");
  p.tpot_ms = util::json_number(o, "tpot_ms_mean");
  p.total_tok_s_per_gpu = util::json_number(o, "total_tok_per_s_per_gpu");
  p.output_tok_s = util::json_number(o, "output_tok_per_s");
  const std::string strategy = util::json_string(o, "strategy").value_or("");
  p.label = fmt::format("{}→{} C{}{}{} TP{} EP{}{}{}{}", p.isl, p.osl, p.concurrency, strategy.empty() ? "" : " ",
                        strategy, c.tp_size, c.ep_size, dp > 1 ? fmt::format(" DP{}", dp) : "", kv.empty() ? "" : " ", kv);
  return p;
}

}  // namespace

util::Result<std::vector<MeasuredPoint>> parse_measured_points(const std::string& text, const std::string& file) {
  std::vector<MeasuredPoint> out;
  int line_no = 0;
  for (const auto line : util::split(std::string_view(text), '\n')) {
    ++line_no;
    if (util::trim(line).empty()) continue;
    const std::string where = fmt::format("{}:{}", file, line_no);
    auto v = util::parse_json(line, where);
    if (!v) return std::unexpected(v.error());
    if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: expected a JSON object", where);
    auto p = read_point(v->get_object(), where);
    if (!p) return std::unexpected(p.error());
    out.push_back(std::move(*p));
  }
  if (out.empty()) return util::failf(util::ErrorKind::bad_input, "{}: no measured points", file);
  return out;
}

}  // namespace servebench::sim
