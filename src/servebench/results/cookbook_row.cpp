#include "servebench/results/cookbook_row.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace json = boost::json;
namespace {

double round_to(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

double total_per_gpu(const PointRecord& p) {
  const int gpus = p.gpus > 0 ? p.gpus : 1;
  if (usable(p.throughput.total_tok_per_s_per_gpu)) return p.throughput.total_tok_per_s_per_gpu;
  if (usable(p.throughput.total_tok_per_s)) return p.throughput.total_tok_per_s / gpus;
  if (p.osl <= 0) return std::nan("");
  return p.throughput.output_tok_per_s / gpus * static_cast<double>(p.isl + p.osl) / static_cast<double>(p.osl);
}

json::object workload_json(const CookbookWorkload& w) {
  json::object o{{"dataset", w.dataset}, {"isl", w.isl}, {"osl", w.osl}, {"max_concurrency", w.max_concurrency}};
  if (w.num_prompts) o["num_prompts"] = *w.num_prompts;
  return o;
}

json::object speed_json(const CookbookSpeed& s) {
  return {{"workload", workload_json(s.workload)},
          {"ttft_ms", util::json_double_or_null(round_to(s.ttft_ms, 1))},
          {"tpot_ms", util::json_double_or_null(round_to(s.tpot_ms, 2))},
          {"tokens_per_sec_per_gpu", util::json_double_or_null(round_to(s.tokens_per_sec_per_gpu, 1))}};
}

util::Error bad(std::string message) { return util::Error{util::ErrorKind::bad_input, std::move(message)}; }

util::Result<CookbookSpeed> speed_from_json(const json::value& v, std::size_t index) {
  const auto where = fmt::format("cookbook row speed[{}]", index);
  if (!v.is_object()) return std::unexpected(bad(where + " is not an object"));
  const auto& o = v.get_object();
  const auto* w = o.if_contains("workload");
  if (w == nullptr || !w->is_object()) return std::unexpected(bad(where + " needs object 'workload'"));
  const auto& wo = w->get_object();
  CookbookSpeed s;
  s.workload.dataset = util::json_string(wo, "dataset").value_or("random");
  const auto isl = util::json_int(wo, "isl");
  const auto osl = util::json_int(wo, "osl");
  const auto conc = util::json_int(wo, "max_concurrency");
  if (!isl || !osl || !conc) {
    return std::unexpected(bad(where + ".workload needs integers 'isl', 'osl' and 'max_concurrency'"));
  }
  s.workload.isl = *isl;
  s.workload.osl = *osl;
  s.workload.max_concurrency = *conc;
  s.workload.num_prompts = util::json_int(wo, "num_prompts");
  const auto ttft = util::json_number(o, "ttft_ms");
  const auto tpot = util::json_number(o, "tpot_ms");
  const auto tps = util::json_number(o, "tokens_per_sec_per_gpu");
  if (!ttft || !tpot || !tps) {
    return std::unexpected(bad(where + " needs numbers 'ttft_ms', 'tpot_ms' and 'tokens_per_sec_per_gpu'"));
  }
  s.ttft_ms = *ttft;
  s.tpot_ms = *tpot;
  s.tokens_per_sec_per_gpu = *tps;
  return s;
}

util::Result<void> read_match(const json::object& o, CookbookRow& row) {
  const auto* m = o.if_contains("match");
  if (m == nullptr || !m->is_object()) return std::unexpected(bad("cookbook row needs object 'match'"));
  for (const auto& kv : m->get_object()) {
    if (!kv.value().is_string()) {
      return std::unexpected(bad(fmt::format("cookbook row match.{} is not a string", std::string_view(kv.key()))));
    }
    row.match.emplace_back(std::string(kv.key()), std::string(kv.value().get_string()));
  }
  return {};
}

}  // namespace

std::string cookbook_engine_version(std::string_view engine, std::string_view version) {
  if (version.empty()) return "";
  if (engine == "sglang" || engine.empty()) return std::string(version);
  if (engine == "sim") return fmt::format("sim {} (servebench serve-sim)", version);
  return fmt::format("{} {}", engine, version);
}

CookbookSpeed cookbook_speed_from_point(const PointRecord& p, std::string dataset) {
  SB_CHECK(p.status == PointStatus::ok);
  CookbookSpeed s;
  s.workload = {std::move(dataset), p.isl, p.osl, p.concurrency,
                p.num_prompts > 0 ? std::optional(p.num_prompts) : std::nullopt};
  s.ttft_ms = p.ttft_ms.mean;
  s.tpot_ms = p.tpot_ms.mean;
  s.tokens_per_sec_per_gpu = total_per_gpu(p);
  return s;
}

json::object to_json(const CookbookRow& row) {
  json::object match;
  for (const auto& [k, v] : row.match) match[k] = v;
  json::object o{{"match", std::move(match)}};
  if (row.speed.empty() && row.accuracy.empty() && row.sglang_version.empty() && row.notes.empty()) return o;
  o["sglang_version"] = row.sglang_version;
  o["latencyPercentile"] = row.latency_percentile;
  json::array speed;
  for (const auto& s : row.speed) speed.push_back(speed_json(s));
  o["speed"] = std::move(speed);
  if (!row.accuracy.empty()) {
    json::object acc;
    for (const auto& [k, v] : row.accuracy) acc[k] = util::json_double_or_null(v);
    o["accuracy"] = std::move(acc);
  }
  o["notes"] = row.notes;
  return o;
}

util::Result<CookbookRow> cookbook_row_from_json(const json::object& o) {
  CookbookRow row;
  if (auto m = read_match(o, row); !m) return std::unexpected(m.error());
  row.sglang_version = util::json_string(o, "sglang_version").value_or("");
  row.latency_percentile = util::json_string(o, "latencyPercentile").value_or("Mean");
  row.notes = util::json_string(o, "notes").value_or("");
  if (const auto* sp = o.if_contains("speed")) {
    if (!sp->is_array()) return std::unexpected(bad("cookbook row 'speed' is not an array"));
    for (std::size_t i = 0; i < sp->get_array().size(); ++i) {
      auto s = speed_from_json(sp->get_array()[i], i);
      if (!s) return std::unexpected(s.error());
      row.speed.push_back(std::move(*s));
    }
  }
  if (const auto* acc = o.if_contains("accuracy"); acc != nullptr && acc->is_object()) {
    for (const auto& kv : acc->get_object()) {
      if (kv.value().is_number()) row.accuracy.emplace_back(std::string(kv.key()), kv.value().to_number<double>());
    }
  }
  return row;
}

}  // namespace servebench::results
