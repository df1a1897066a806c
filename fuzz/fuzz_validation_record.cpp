// A validation record (servebench.validation/1, `sim validate --record`): parses or fails cleanly; a
// record that parses writes back to text that parses to the same record, and labels a prediction.
#include "fuzz_input.hpp"
#include "servebench/results/error_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace results = servebench::results;
  servebench::fuzz::Input in(data, size);
  const auto budget = results::parse_error_budget(in.rest(), "fuzz");
  if (!budget) return 0;
  const auto again = results::parse_error_budget(results::error_budget_text(*budget), "again");
  servebench::fuzz::expect(again.has_value(), "a written record does not parse");
  servebench::fuzz::expect(again->cards == budget->cards && again->metrics.size() == budget->metrics.size(),
                           "a written record reads back differently");
  const auto verdict = results::judge_budget(std::optional(*budget), budget->model, budget->hardware, budget->cards, budget->overrides);
  servebench::fuzz::expect(verdict.status == results::BudgetStatus::applied, "a record does not apply to its own cards");
  servebench::fuzz::expect(!results::budget_line(results::to_json(verdict)).empty(), "no budget line");
  return 0;
}
