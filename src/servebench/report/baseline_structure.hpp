#pragma once
// A baseline report's structure (docs/report.md "Baseline structure"): its chapters, the scenarios
// each chapter measured, and the numbers it published for them, each with its unit as printed. The
// report built from it (`report --baseline-structure FILE.yaml`) follows those chapters.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {

// The numbers a chapter may give; values are held in the report's units (tok/s, ms, tokens).
enum class ChapterMetric {
  output_throughput, total_throughput_per_gpu, mean_ttft, p95_ttft, mean_tpot, p95_tpot, p95_itl, p95_e2e,
  accept_length,
};
inline constexpr std::size_t k_chapter_metrics = 9;
// The file's key ("mean_tpot") and the column label ("mean TPOT (ms)").
std::string_view key_of(ChapterMetric m);
std::string_view label_of(ChapterMetric m);
// Our value of the metric in a ledger record, in the same unit (NaN when the record has none).
double value_of(ChapterMetric m, const results::PointRecord& r);

struct ChapterValue {
  ChapterMetric metric = ChapterMetric::output_throughput;
  double value = 0;  // converted to the report's unit ("0.0031 s" is 3.1 ms)
};

struct ChapterPoint {
  std::int64_t concurrency = 0;
  std::string arm;  // "": the baseline names no arm, every arm of ours is compared
  std::vector<ChapterValue> values;
  const ChapterValue* find(ChapterMetric m) const;
};

struct ChapterScenario {
  std::string name;  // matched with our scenarios by name, else by isl and osl
  std::int64_t isl = 0, osl = 0;
  std::vector<ChapterPoint> points;
};

struct Chapter {
  std::string title;
  std::string says;  // the baseline chapter's own conclusion, quoted (may be empty)
  std::vector<ChapterScenario> scenarios;
};

struct BaselineStructure {
  std::string baseline;  // the name shown in the report
  std::string source;    // where the numbers come from (free text, may be empty)
  std::string file;      // the path as given
  std::vector<Chapter> chapters;
};

// Reads the YAML file. Fails (bad_input, "file:line:col: ...") on unknown keys, a chapter without
// scenarios, a scenario without a name or without isl/osl, a value without its unit or with a unit
// that does not fit the metric ("mean_tpot: 3.1 tok/s").
util::Result<BaselineStructure> read_baseline_structure(const std::filesystem::path& path);
util::Result<BaselineStructure> parse_baseline_structure(const std::string& text, const std::string& name);

}  // namespace servebench::report
