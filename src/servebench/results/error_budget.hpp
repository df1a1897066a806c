#pragma once
// The error budget of the simulator's cards: what `servebench sim validate … --record FILE` measured
// (docs/sim.md "The validation record"), and how `plan`, `recommend` and the report label a
// prediction with it (docs/plan.md "How predictions are labelled"). One reader and one writer:
//
//   {"schema": "servebench.validation/1", "model": "glm-5.3-flash", "hardware": "gb300",
//    "measured": {"file": "data/calibration/glm-5.3-flash-gb300.jsonl", "sources": ["SGLang cookbook, …"]},
//    "points": 7, "fold": "all points, card defaults",
//    "cards": [{"file": "models/glm-5.3-flash.yaml", "sha256": "…"}, {"file": "hardware.yaml", "sha256": "…"}],
//    "overrides": null | {"file": "gb300.yaml", "sha256": "…"},
//    "servebench_version": "0.9.0 (abc123)", "date": "2026-12-02T13:54:42Z",
//    "metrics": [{"metric": "TPOT ms", "points": 7, "mape_pct": 44.6, "p90_abs_pct": 82.2,
//                 "max_abs_pct": 82.2, "bias_pct": 40.4}, …]}
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "servebench/util/result.hpp"

namespace servebench::results {

inline constexpr std::string_view k_validation_schema = "servebench.validation/1";

struct FileHash {
  std::string file, sha256;
  bool operator==(const FileHash&) const = default;
};

struct MetricBudget {
  std::string metric;  // "TTFT ms", "TPOT ms", "total tok/s/GPU", "output tok/s"
  int points = 0;
  double mape_pct = 0, p90_abs_pct = 0, max_abs_pct = 0, bias_pct = 0;
};

struct ErrorBudget {
  std::string model, hardware;
  std::string measured_file;                 // the points file or run directory validated against
  std::vector<std::string> measured_sources;  // the points' own `source` labels, distinct, in order
  int points = 0;
  std::string fold;
  std::vector<FileHash> cards;         // the card files as read when validated
  std::optional<FileHash> overrides;   // the card-override file applied, if any
  std::string servebench_version, date;
  std::vector<MetricBudget> metrics;
};

boost::json::object to_json(const ErrorBudget& b);
// Fails (bad_input) naming `what` and the field when the object is not a servebench.validation/1 record.
util::Result<ErrorBudget> error_budget_from_json(const boost::json::value& v, const std::string& what);
// The same from a file's text / from a file.
util::Result<ErrorBudget> parse_error_budget(std::string_view text, const std::string& what);
util::Result<ErrorBudget> read_error_budget(const std::string& path);
// The record as a file's text (pretty enough to diff; one metric per line).
std::string error_budget_text(const ErrorBudget& b);

// What a prediction's cards are worth, given the budget found for its (model, hardware).
enum class BudgetStatus { applied, stale, none };
struct BudgetVerdict {
  BudgetStatus status = BudgetStatus::none;
  std::optional<ErrorBudget> budget;  // applied or stale
  std::string reason;                 // stale: which file changed; none: why nothing applies
};
// Applied when the budget is for this model and hardware and its card and override hashes are the
// ones the prediction used; stale when a hash differs; none without a budget.
BudgetVerdict judge_budget(const std::optional<ErrorBudget>& budget, const std::string& model,
                           const std::string& hardware, const std::vector<FileHash>& cards,
                           const std::optional<FileHash>& overrides);

// The ledger's `predicted.error_budget`: null (none), or the budget with "status" and, when stale, "reason".
boost::json::value to_json(const BudgetVerdict& v);
// "cards validated on 7 points: TPOT MAPE 44.6 %, TTFT 50.8 %, …", "error budget stale: …" or
// "no validation known for these cards", from a verdict or from the ledger's `error_budget` value.
std::string budget_line(const BudgetVerdict& v);
std::string budget_line(const boost::json::value& ledger_value);

}  // namespace servebench::results
