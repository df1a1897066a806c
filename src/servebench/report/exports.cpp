#include "servebench/report/exports.hpp"

#include <cmath>

#include <fmt/format.h>
#include <boost/json.hpp>

#include "servebench/report/analysis.hpp"
#include "servebench/results/cookbook_row.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace json = boost::json;
using results::LatencyStats;
using results::PointRecord;
namespace {

std::string cookbook_notes(const CampaignSet& set, const Arm& arm) {
  const RunInput& run = set.runs[arm.run];
  std::vector<std::string> parts{fmt::format("servebench campaign {}, arm {}", run.campaign_name(), arm.name)};
  if (!arm.facts.engine.empty())
    parts.push_back(fmt::format("engine {} {}", arm.facts.engine, arm.facts.engine_version));
  if (!arm.facts.fingerprint.empty()) parts.push_back("fingerprint " + arm.facts.fingerprint);
  for (const auto& [label, value] : run.campaign.protocol) {
    if (value != k_not_recorded) parts.push_back(fmt::format("{}: {}", label, value));
  }
  return util::join(parts, "; ");
}

// Shortest decimal of v rounded to `decimals` places: exact values stay exact ("0.61"), and unit
// conversions do not print binary noise ("0.7692100000000001").
std::string csv_number(double v, int decimals = 4) {
  if (!std::isfinite(v)) return "";
  const double scale = std::pow(10.0, decimals);
  return fmt::format("{}", std::round(v * scale) / scale);
}
std::string seconds(double ms) { return csv_number(ms / 1000.0, 6); }  // to the microsecond
std::string intvty(double tpot_ms) { return csv_number(ratio(1000.0, tpot_ms)); }

std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  return fmt::format("\"{}\"", util::replace_all(s, "\"", "\"\""));
}

const std::vector<std::string> k_csv_header{"campaign",
                                            "arm",
                                            "scenario",
                                            "isl",
                                            "osl",
                                            "conc",
                                            "gpus",
                                            "tput_per_gpu",
                                            "output_tput_per_gpu",
                                            "input_tput_per_gpu",
                                            "mean_ttft",
                                            "median_ttft",
                                            "p90_ttft",
                                            "p95_ttft",
                                            "p99_ttft",
                                            "mean_tpot",
                                            "median_tpot",
                                            "p90_tpot",
                                            "p95_tpot",
                                            "p99_tpot",
                                            "mean_intvty",
                                            "median_intvty",
                                            "p90_intvty",
                                            "p95_intvty",
                                            "p99_intvty",
                                            "mean_itl",
                                            "median_itl",
                                            "p95_itl",
                                            "p99_itl",
                                            "mean_e2el",
                                            "median_e2el",
                                            "p95_e2el",
                                            "p99_e2el",
                                            "accept_length",
                                            "point_id"};

std::vector<std::string> csv_row(const CampaignSet& set, const MeasuredPoint& p) {
  const PointRecord& r = p.record;
  const double gpus = r.gpus > 0 ? r.gpus : 1;
  const double total = total_per_gpu(r);
  const double output = r.throughput.output_tok_per_s / gpus;
  std::vector<std::string> row{csv_text(set.runs[set.arms[p.arm].run].campaign_name()),
                               csv_text(r.arm),
                               csv_text(r.scenario),
                               fmt::format("{}", r.isl),
                               fmt::format("{}", r.osl),
                               fmt::format("{}", r.concurrency),
                               fmt::format("{}", r.gpus),
                               csv_number(total),
                               csv_number(output),
                               csv_number(total - output)};
  for (const LatencyStats* s : {&r.ttft_ms, &r.tpot_ms}) {
    for (double v : {s->mean, s->median, s->p90, s->p95, s->p99}) row.push_back(seconds(v));
  }
  for (double v : {r.tpot_ms.mean, r.tpot_ms.median, r.tpot_ms.p90, r.tpot_ms.p95, r.tpot_ms.p99})
    row.push_back(intvty(v));
  for (const LatencyStats* s : {&r.itl_ms, &r.e2e_ms}) {
    for (double v : {s->mean, s->median, s->p95, s->p99}) row.push_back(seconds(v));
  }
  row.push_back(r.accept_length ? csv_number(*r.accept_length) : "");
  row.push_back(csv_text(results::point_id(results::key_of(r))));
  return row;
}

void add_stats(json::object& o, std::string_view metric, const LatencyStats& s) {
  const std::pair<std::string_view, double> k_stats[] = {{"mean", s.mean}, {"median", s.median}, {"std", s.std},
                                                         {"p90", s.p90},   {"p95", s.p95},       {"p99", s.p99}};
  for (const auto& [name, v] : k_stats) o[fmt::format("{}_{}_ms", name, metric)] = util::json_double_or_null(v);
}

json::value token_total(double per_s, double duration_s) {
  if (!std::isfinite(per_s) || !std::isfinite(duration_s)) return nullptr;
  return static_cast<std::int64_t>(std::llround(per_s * duration_s));
}

json::object vllm_result(const CampaignSet& set, const MeasuredPoint& p) {
  const PointRecord& r = p.record;
  const Arm& arm = set.arms[p.arm];
  json::object o{{"date", r.started_at},
                 {"backend", r.server.engine},
                 {"label", results::point_id(results::key_of(r))},
                 {"model_id", arm.facts.model},
                 {"num_prompts", r.num_prompts},
                 {"request_rate", r.request_rate ? json::value(*r.request_rate) : json::value("inf")},
                 {"max_concurrency", r.concurrency},
                 {"duration", util::json_double_or_null(r.duration_s)},
                 {"completed", r.completed},
                 {"failed", r.failed},
                 {"total_input_tokens", token_total(r.throughput.input_tok_per_s, r.duration_s)},
                 {"total_output_tokens", token_total(r.throughput.output_tok_per_s, r.duration_s)},
                 {"request_throughput", util::json_double_or_null(r.throughput.request_per_s)},
                 {"output_throughput", util::json_double_or_null(r.throughput.output_tok_per_s)},
                 {"total_token_throughput", util::json_double_or_null(r.throughput.total_tok_per_s)}};
  add_stats(o, "ttft", r.ttft_ms);
  add_stats(o, "tpot", r.tpot_ms);
  add_stats(o, "itl", r.itl_ms);
  add_stats(o, "e2el", r.e2e_ms);
  o["spec_decode_acceptance_length"] =
      r.accept_length ? util::json_double_or_null(*r.accept_length) : json::value(nullptr);
  o["metadata"] = {{"campaign", r.campaign},
                   {"arm", r.arm},
                   {"scenario", r.scenario},
                   {"isl", r.isl},
                   {"osl", r.osl},
                   {"gpus", r.gpus},
                   {"fingerprint", r.server.fingerprint}};
  return o;
}

}  // namespace

void write_cookbook_rows(const CampaignSet& set, std::ostream& out) {
  json::array rows;
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    const Arm& arm = set.arms[a];
    results::CookbookRow row;
    row.match = {{"arm", arm.display}, {"campaign", set.runs[arm.run].campaign_name()}};
    row.sglang_version = results::cookbook_engine_version(arm.facts.engine, arm.facts.engine_version);
    row.notes = cookbook_notes(set, arm);
    if (arm.gate.accuracy) row.accuracy = {{"gsm8k_pct", arm.gate.accuracy->accuracy * 100.0}};
    for (const auto& p : set.points) {
      if (p.arm == a && is_ok(&p) && !p.record.request_rate)
        row.speed.push_back(results::cookbook_speed_from_point(p.record));
    }
    if (!row.speed.empty()) rows.push_back(results::to_json(row));
  }
  out << util::to_json_text_pretty(rows);
}

void write_inferencex_csv(const CampaignSet& set, std::ostream& out) {
  out << util::join(k_csv_header, ",") << '\n';
  for (const auto& p : set.points) {
    if (is_ok(&p)) out << util::join(csv_row(set, p), ",") << '\n';
  }
}

void write_vllm_results(const CampaignSet& set, std::ostream& out) {
  json::array results;
  for (const auto& p : set.points) {
    if (is_ok(&p)) results.push_back(vllm_result(set, p));
  }
  out << util::to_json_text_pretty(results);
}

}  // namespace servebench::report
