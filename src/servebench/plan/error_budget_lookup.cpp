#include "servebench/plan/error_budget_lookup.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/util/embedded_data.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::plan {

std::vector<results::FileHash> card_hashes(const std::string& model) {
  std::vector<results::FileHash> out;
  for (const std::string& path : {"models/" + model + ".yaml", std::string("hardware.yaml")}) {
    auto text = util::read_data_file(path);
    out.push_back({path, text ? util::sha256_hex(*text) : std::string()});
  }
  return out;
}

util::Result<std::optional<results::FileHash>> file_hash(const std::string& path) {
  if (path.empty()) return std::optional<results::FileHash>();
  auto text = util::read_file(path);
  if (!text) return util::failf(util::ErrorKind::bad_input, "{}: {}", path, text.error().message);
  return std::optional<results::FileHash>(results::FileHash{path, util::sha256_hex(*text)});
}

std::string shipped_budget_path(const std::string& model, const std::string& hardware) {
  return fmt::format("validation/{}-{}.json", model, hardware);
}

util::Result<std::optional<results::ErrorBudget>> find_budget(const std::optional<results::ErrorBudget>& given,
                                                              const std::string& model, const std::string& hardware) {
  if (given) return given;
  const std::string path = shipped_budget_path(model, hardware);
  auto text = util::read_data_file(path);
  if (!text) return std::optional<results::ErrorBudget>();  // none shipped for the pair
  auto b = results::parse_error_budget(*text, "data/" + path);
  if (!b) return std::unexpected(b.error());
  return std::optional<results::ErrorBudget>(std::move(*b));
}

util::Result<results::ErrorBudget> validation_record(const sim::Validation& v, const RecordContext& context) {
  results::ErrorBudget b;
  for (const auto& r : v.points) {
    const auto& c = r.point->config;
    if (b.model.empty()) b.model = c.model, b.hardware = c.hardware;
    if (c.model != b.model || c.hardware != b.hardware) {
      return util::failf(util::ErrorKind::bad_input,
                         "--record: the points are of {} on {} and {} on {}; a record is for one model and hardware "
                         "(validate each pair's points on their own)", b.model, b.hardware, c.model, c.hardware);
    }
    if (std::find(b.measured_sources.begin(), b.measured_sources.end(), r.point->source) == b.measured_sources.end()) {
      b.measured_sources.push_back(r.point->source);
    }
  }
  b.measured_file = context.measured_file;
  b.points = static_cast<int>(v.points.size());
  b.fold = v.fold;
  b.cards = card_hashes(b.model);
  b.overrides = context.overrides;
  b.servebench_version = context.servebench_version;
  b.date = context.date;
  for (const auto& m : v.metrics) {
    b.metrics.push_back({sim::to_string(m.metric), m.n, m.mape, m.p90, m.max, m.bias});
  }
  return b;
}

}  // namespace servebench::plan
