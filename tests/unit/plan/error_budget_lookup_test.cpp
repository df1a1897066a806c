// The error budget that labels predictions: the shipped validation records match what the cards
// predict today (so they cannot go stale silently), and a budget applies only to the cards and
// override file it was validated with.
#include "servebench/plan/error_budget_lookup.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "servebench/sim/measured_point.hpp"
#include "servebench/util/embedded_data.hpp"

namespace servebench::plan {
namespace {

// Every points file of data/calibration/ has its record in data/validation/ with today's numbers.
TEST(ShippedValidation, MatchesWhatTheCardsPredictToday) {
  int checked = 0;
  for (const auto& file : util::list_data_files("calibration/")) {
    if (!file.ends_with(".jsonl")) continue;
    const std::string name = std::filesystem::path(file).stem().string();
    const auto points = sim::parse_measured_points(util::read_data_file(file).value(), file).value();
    const auto v = sim::validate(points, {}).value();
    const auto fresh = validation_record(v, {"data/" + file, std::nullopt, "test", "now"}).value();
    const std::string shipped_path = "validation/" + name + ".json";
    EXPECT_EQ(shipped_budget_path(fresh.model, fresh.hardware), shipped_path)
        << "name data/" << file << " after its model and hardware";
    auto text = util::read_data_file(shipped_path);
    ASSERT_TRUE(text.has_value()) << "no data/" << shipped_path << ": run scripts/regenerate-validation";
    const auto shipped = results::parse_error_budget(*text, shipped_path).value();
    const std::string redo = "data/" + shipped_path + " is stale: run scripts/regenerate-validation and review the diff";
    EXPECT_EQ(shipped.cards, fresh.cards) << redo;
    EXPECT_EQ(shipped.points, fresh.points) << redo;
    EXPECT_EQ(shipped.measured_file, fresh.measured_file) << redo;
    ASSERT_EQ(shipped.metrics.size(), fresh.metrics.size()) << redo;
    for (std::size_t i = 0; i < fresh.metrics.size(); ++i) {
      const auto& a = shipped.metrics[i];
      const auto& b = fresh.metrics[i];
      EXPECT_EQ(a.metric, b.metric) << redo;
      EXPECT_EQ(a.points, b.points) << redo;
      for (const auto& [x, y] : {std::pair{a.mape_pct, b.mape_pct}, std::pair{a.p90_abs_pct, b.p90_abs_pct},
                                 std::pair{a.max_abs_pct, b.max_abs_pct}, std::pair{a.bias_pct, b.bias_pct}}) {
        EXPECT_NEAR(x, y, 1e-9 * std::max(1.0, std::abs(y))) << a.metric << ": " << redo;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

results::ErrorBudget budget_for(const std::string& model, const std::string& hw) {
  results::ErrorBudget b;
  b.model = model;
  b.hardware = hw;
  b.points = 4;
  b.measured_file = "points.jsonl";
  b.cards = card_hashes(model);
  b.metrics = {{"TTFT ms", 4, 12.5, 20, 21, -3}, {"TPOT ms", 4, 7.3, 9, 10, 2}};
  return b;
}

TEST(ErrorBudget, AppliesOnlyToTheCardsAndOverrideItWasValidatedWith) {
  const auto b = budget_for("llama-3.1-8b", "h200");
  const auto cards = card_hashes("llama-3.1-8b");
  ASSERT_EQ(cards.size(), 2u);
  EXPECT_EQ(cards[0].sha256.size(), 64u);
  const auto applied = results::judge_budget(b, "llama-3.1-8b", "h200", cards, std::nullopt);
  EXPECT_EQ(applied.status, results::BudgetStatus::applied);
  EXPECT_EQ(results::budget_line(applied),
            "cards validated on 4 points (points.jsonl): TTFT MAPE 12.5 %, TPOT 7.3 %");
  // The ledger carries it and the report reads the same line back.
  EXPECT_EQ(results::budget_line(results::to_json(applied)), results::budget_line(applied));

  auto changed = cards;
  changed[1].sha256 = std::string(64, 'a');
  const auto stale = results::judge_budget(b, "llama-3.1-8b", "h200", changed, std::nullopt);
  EXPECT_EQ(stale.status, results::BudgetStatus::stale);
  EXPECT_NE(results::budget_line(stale).find("error budget stale, not applied: hardware.yaml changed"), std::string::npos)
      << results::budget_line(stale);
  EXPECT_EQ(results::budget_line(results::to_json(stale)), results::budget_line(stale));

  const results::FileHash fit{"fit.yaml", std::string(64, 'b')};
  EXPECT_EQ(results::judge_budget(b, "llama-3.1-8b", "h200", cards, fit).status, results::BudgetStatus::stale);
  const auto other = results::judge_budget(b, "llama-3.1-70b", "h200", card_hashes("llama-3.1-70b"), std::nullopt);
  EXPECT_EQ(other.status, results::BudgetStatus::none);
  EXPECT_EQ(results::to_json(other), nullptr);
  EXPECT_EQ(results::budget_line(results::to_json(results::judge_budget(std::nullopt, "m", "h", cards, std::nullopt))),
            "no validation known for these cards");
}

TEST(ErrorBudget, TheShippedRecordIsFoundForItsPairAndAGivenOneWins) {
  const auto shipped = find_budget(std::nullopt, "glm-5.3-flash", "gb300").value();
  ASSERT_TRUE(shipped.has_value());
  EXPECT_EQ(shipped->model, "glm-5.3-flash");
  EXPECT_FALSE(find_budget(std::nullopt, "llama-3.1-8b", "h200").value().has_value());
  const auto given = budget_for("llama-3.1-8b", "h200");
  EXPECT_EQ(find_budget(given, "glm-5.3-flash", "gb300").value()->model, "llama-3.1-8b");
}

TEST(ErrorBudget, ARecordReadsBackAsWritten) {
  auto b = budget_for("llama-3.1-8b", "h200");
  b.overrides = results::FileHash{"fit.yaml", std::string(64, 'c')};
  b.measured_sources = {"a", "b"};
  const auto back = results::parse_error_budget(results::error_budget_text(b), "t").value();
  EXPECT_EQ(back.cards, b.cards);
  EXPECT_EQ(back.overrides, b.overrides);
  EXPECT_EQ(back.measured_sources, b.measured_sources);
  EXPECT_EQ(back.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(back.metrics[1].mape_pct, 7.3);
  EXPECT_FALSE(results::parse_error_budget("{\"schema\": \"servebench.point/1\"}", "t").has_value());
  EXPECT_FALSE(results::parse_error_budget("[1,", "t").has_value());
}

}  // namespace
}  // namespace servebench::plan
