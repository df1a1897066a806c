#include "servebench/results/error_budget.hpp"

#include <algorithm>
#include <cmath>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::results {
namespace {

namespace json = boost::json;
using util::ErrorKind;

json::object hash_json(const FileHash& h) { return {{"file", h.file}, {"sha256", h.sha256}}; }

util::Result<FileHash> hash_from(const json::value& v, const std::string& what) {
  const auto* o = v.if_object();
  const auto file = o ? util::json_string(*o, "file") : std::nullopt;
  const auto sha = o ? util::json_string(*o, "sha256") : std::nullopt;
  if (!file || !sha) return util::failf(ErrorKind::bad_input, "{}: expected {{\"file\", \"sha256\"}}", what);
  return FileHash{*file, *sha};
}

util::Result<MetricBudget> metric_from(const json::value& v, const std::string& what) {
  const auto* o = v.if_object();
  if (o == nullptr) return util::failf(ErrorKind::bad_input, "{}: a metric is not an object", what);
  MetricBudget m;
  auto name = util::json_string(*o, "metric");
  auto n = util::json_int(*o, "points");
  if (!name || !n) return util::failf(ErrorKind::bad_input, "{}: a metric needs \"metric\" and \"points\"", what);
  m.metric = *name;
  m.points = static_cast<int>(*n);
  const std::pair<const char*, double*> fields[] = {{"mape_pct", &m.mape_pct}, {"p90_abs_pct", &m.p90_abs_pct},
                                                    {"max_abs_pct", &m.max_abs_pct}, {"bias_pct", &m.bias_pct}};
  for (const auto& [key, out] : fields) {
    const auto x = util::json_number(*o, key);
    // A number too large for a double (1e999) parses as infinity, which no JSON writer can write back.
    if (!x || !std::isfinite(*x)) {
      return util::failf(ErrorKind::bad_input, "{}: metric {} needs a finite number \"{}\"", what, m.metric, key);
    }
    *out = *x;
  }
  return m;
}

// The short name of a metric on a budget line: "TPOT", "TTFT", "total tok/s/GPU", "output tok/s".
std::string short_name(const std::string& metric) {
  return metric.ends_with(" ms") ? metric.substr(0, metric.size() - 3) : metric;
}

}  // namespace

json::object to_json(const ErrorBudget& b) {
  json::array sources, cards, metrics;
  for (const auto& s : b.measured_sources) sources.push_back(json::value(s));
  for (const auto& c : b.cards) cards.push_back(hash_json(c));
  for (const auto& m : b.metrics) {
    metrics.push_back(json::object{{"metric", m.metric}, {"points", m.points}, {"mape_pct", m.mape_pct},
                                   {"p90_abs_pct", m.p90_abs_pct}, {"max_abs_pct", m.max_abs_pct},
                                   {"bias_pct", m.bias_pct}});
  }
  return {{"schema", k_validation_schema},
          {"model", b.model},
          {"hardware", b.hardware},
          {"measured", json::object{{"file", b.measured_file}, {"sources", std::move(sources)}}},
          {"points", b.points},
          {"fold", b.fold},
          {"cards", std::move(cards)},
          {"overrides", b.overrides ? json::value(hash_json(*b.overrides)) : json::value(nullptr)},
          {"servebench_version", b.servebench_version},
          {"date", b.date},
          {"metrics", std::move(metrics)}};
}

util::Result<ErrorBudget> error_budget_from_json(const json::value& v, const std::string& what) {
  const auto* o = v.if_object();
  if (o == nullptr || util::json_string(*o, "schema") != std::string(k_validation_schema)) {
    return util::failf(ErrorKind::bad_input, "{}: not a {} record", what, k_validation_schema);
  }
  ErrorBudget b;
  const auto model = util::json_string(*o, "model");
  const auto hardware = util::json_string(*o, "hardware");
  const auto points = util::json_int(*o, "points");
  const auto* measured = o->if_contains("measured");
  const auto* cards = o->if_contains("cards");
  const auto* metrics = o->if_contains("metrics");
  if (!model || !hardware || !points || !measured || !measured->is_object() || !cards || !cards->is_array() ||
      !metrics || !metrics->is_array()) {
    return util::failf(ErrorKind::bad_input, "{}: needs model, hardware, points, measured, cards and metrics", what);
  }
  b.model = *model;
  b.hardware = *hardware;
  b.points = static_cast<int>(*points);
  b.measured_file = util::json_string(measured->get_object(), "file").value_or("");
  if (const auto* s = measured->get_object().if_contains("sources"); s && s->is_array()) {
    for (const auto& x : s->get_array()) {
      if (x.is_string()) b.measured_sources.emplace_back(x.get_string());
    }
  }
  b.fold = util::json_string(*o, "fold").value_or("");
  for (const auto& c : cards->get_array()) {
    auto h = hash_from(c, what + " cards");
    if (!h) return std::unexpected(h.error());
    b.cards.push_back(std::move(*h));
  }
  if (const auto* ov = o->if_contains("overrides"); ov && !ov->is_null()) {
    auto h = hash_from(*ov, what + " overrides");
    if (!h) return std::unexpected(h.error());
    b.overrides = std::move(*h);
  }
  b.servebench_version = util::json_string(*o, "servebench_version").value_or("");
  b.date = util::json_string(*o, "date").value_or("");
  for (const auto& m : metrics->get_array()) {
    auto mb = metric_from(m, what);
    if (!mb) return std::unexpected(mb.error());
    b.metrics.push_back(std::move(*mb));
  }
  return b;
}

util::Result<ErrorBudget> parse_error_budget(std::string_view text, const std::string& what) {
  auto v = util::parse_json(text, what);
  if (!v) return std::unexpected(util::Error{ErrorKind::bad_input, v.error().message});
  return error_budget_from_json(*v, what);
}

util::Result<ErrorBudget> read_error_budget(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return util::failf(ErrorKind::bad_input, "--error-budget {}: {}", path, text.error().message);
  return parse_error_budget(*text, path);
}

std::string error_budget_text(const ErrorBudget& b) { return util::to_json_text_pretty(to_json(b)) + "\n"; }

BudgetVerdict judge_budget(const std::optional<ErrorBudget>& budget, const std::string& model,
                           const std::string& hardware, const std::vector<FileHash>& cards,
                           const std::optional<FileHash>& overrides) {
  BudgetVerdict v;
  if (!budget) {
    v.reason = "no validation known for these cards";
    return v;
  }
  if (budget->model != model || budget->hardware != hardware) {
    v.reason = fmt::format("no validation known for these cards (the budget given is for {} on {})", budget->model,
                           budget->hardware);
    return v;
  }
  v.budget = budget;
  std::vector<std::string> changed;
  for (const auto& c : cards) {
    if (std::find(budget->cards.begin(), budget->cards.end(), c) != budget->cards.end()) continue;
    const auto it = std::find_if(budget->cards.begin(), budget->cards.end(), [&](auto& b) { return b.file == c.file; });
    if (it == budget->cards.end()) changed.push_back(c.file + " was not validated");
    else if (it->sha256 != c.sha256) {
      changed.push_back(fmt::format("{} changed ({} → {})", c.file, it->sha256.substr(0, 12), c.sha256.substr(0, 12)));
    }
  }
  if (budget->overrides.has_value() != overrides.has_value() ||
      (overrides && budget->overrides->sha256 != overrides->sha256)) {
    changed.push_back(fmt::format("validated with override {}, predicted with {}",
                                  budget->overrides ? budget->overrides->file : "none",
                                  overrides ? overrides->file : "none"));
  }
  v.status = changed.empty() ? BudgetStatus::applied : BudgetStatus::stale;
  v.reason = util::join(changed, "; ");
  return v;
}

json::value to_json(const BudgetVerdict& v) {
  if (v.status == BudgetStatus::none || !v.budget) return nullptr;
  json::object o = to_json(*v.budget);
  o["status"] = v.status == BudgetStatus::applied ? "applied" : "stale";
  if (v.status == BudgetStatus::stale) o["reason"] = v.reason;
  return o;
}

std::string budget_line(const BudgetVerdict& v) {
  if (v.status == BudgetStatus::none || !v.budget) return v.reason.empty() ? "no validation known for these cards" : v.reason;
  if (v.status == BudgetStatus::stale) {
    return fmt::format("error budget stale, not applied: {} since the validation of {} ({} points)", v.reason,
                       v.budget->measured_file, v.budget->points);
  }
  std::vector<std::string> parts;
  for (const auto& m : v.budget->metrics) {
    parts.push_back(fmt::format("{}{} {:.1f} %", short_name(m.metric), parts.empty() ? " MAPE" : "", m.mape_pct));
  }
  return fmt::format("cards validated on {} points ({}): {}", v.budget->points, v.budget->measured_file,
                     util::join(parts, ", "));
}

std::string budget_line(const json::value& ledger_value) {
  BudgetVerdict v;
  if (const auto* o = ledger_value.if_object()) {
    auto b = error_budget_from_json(ledger_value, "error_budget");
    if (b) {
      v.budget = std::move(*b);
      const auto status = util::json_string(*o, "status");
      v.status = status == "applied" ? BudgetStatus::applied : BudgetStatus::stale;
      v.reason = util::json_string(*o, "reason").value_or("");
    }
  }
  return budget_line(v);
}

}  // namespace servebench::results
