#pragma once
// Which error budget labels a prediction (docs/plan.md "How predictions are labelled"): the card
// files a deployment reads and their hashes, the budget given with --error-budget or shipped for
// the (model, hardware) pair (data/validation/<model>-<hardware>.json), and the validation record
// `sim validate --record` writes from a validation of measured points.
#include <optional>
#include <string>
#include <vector>

#include "servebench/results/error_budget.hpp"
#include "servebench/sim/validation.hpp"

namespace servebench::plan {

// The data files a deployment of `model` is built from — models/<model>.yaml and hardware.yaml —
// with the sha256 of their text as read (the embedded copy or $SERVEBENCH_DATA_DIR's); an empty
// hash when a file cannot be read.
std::vector<results::FileHash> card_hashes(const std::string& model);
// A file's sha256 (nullopt for an empty path); fails (bad_input) when it cannot be read.
util::Result<std::optional<results::FileHash>> file_hash(const std::string& path);

// The shipped record's data path for a pair: "validation/<model>-<hardware>.json".
std::string shipped_budget_path(const std::string& model, const std::string& hardware);
// `given` when there is one, else the shipped record of the pair (nullopt when none is shipped).
// Fails (bad_input) when a shipped record does not parse.
util::Result<std::optional<results::ErrorBudget>> find_budget(const std::optional<results::ErrorBudget>& given,
                                                              const std::string& model, const std::string& hardware);

struct RecordContext {
  std::string measured_file;                // as the user named it
  std::optional<results::FileHash> overrides;
  std::string servebench_version, date;
};
// The validation record of `v` (its points must all be of one model and hardware; bad_input otherwise).
util::Result<results::ErrorBudget> validation_record(const sim::Validation& v, const RecordContext& context);

}  // namespace servebench::plan
