#include "servebench/report/baseline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"

#include "servebench/report/run_input.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace fs = std::filesystem;
using results::PointRecord;
namespace {


struct Column {
  std::string_view name;
  std::function<void(PointRecord&, double)> set;
};

const std::array<Column, 11>& metric_columns() {
  static const std::array<Column, 11> k_columns{{
      {"output_tok_per_s", [](PointRecord& r, double v) { r.throughput.output_tok_per_s = v; }},
      {"total_tok_per_s_per_gpu", [](PointRecord& r, double v) { r.throughput.total_tok_per_s_per_gpu = v; }},
      {"ttft_ms_mean", [](PointRecord& r, double v) { r.ttft_ms.mean = v; }},
      {"ttft_ms_p95", [](PointRecord& r, double v) { r.ttft_ms.p95 = v; }},
      {"tpot_ms_mean", [](PointRecord& r, double v) { r.tpot_ms.mean = v; }},
      {"tpot_ms_p95", [](PointRecord& r, double v) { r.tpot_ms.p95 = v; }},
      {"itl_ms_p95", [](PointRecord& r, double v) { r.itl_ms.p95 = v; }},
      {"e2e_ms_p95", [](PointRecord& r, double v) { r.e2e_ms.p95 = v; }},
      {"accept_length", [](PointRecord& r, double v) { r.accept_length = v; }},
      {"isl", [](PointRecord& r, double v) { r.isl = static_cast<std::int64_t>(v); }},
      {"osl", [](PointRecord& r, double v) { r.osl = static_cast<std::int64_t>(v); }},
  }};
  return k_columns;
}

PointRecord blank_point() {
  PointRecord r;
  r.ttft_ms = r.tpot_ms = r.itl_ms = r.e2e_ms = {k_nan, k_nan, k_nan, k_nan, k_nan, k_nan, k_nan};
  r.throughput = {k_nan, k_nan, k_nan, k_nan, k_nan, k_nan};
  r.duration_s = k_nan;
  return r;
}

// Splits one CSV line: commas separate, double quotes group, "" inside quotes is a quote.
util::Result<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back().push_back('"');
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back().push_back(c);
    }
  }
  if (quoted) return util::fail(util::ErrorKind::bad_input, "unterminated quote");
  for (auto& f : fields) f = std::string(util::trim(f));
  return fields;
}

util::Result<void> set_field(PointRecord& r, const std::string& column, const std::string& value) {
  if (value.empty()) return {};
  if (column == "scenario") {
    r.scenario = value;
    return {};
  }
  if (column == "arm") {
    r.arm = value;
    return {};
  }
  if (column == "concurrency" || column == "gpus") {
    auto n = util::parse_int(value, column);
    if (!n) return std::unexpected(n.error());
    if (column == "gpus") {
      r.gpus = static_cast<int>(*n);
    } else {
      r.concurrency = r.effective_concurrency = *n;
    }
    return {};
  }
  for (const auto& c : metric_columns()) {
    if (c.name != column) continue;
    auto v = util::parse_double(value, column);
    if (!v) return std::unexpected(v.error());
    c.set(r, *v);
    return {};
  }
  return util::failf(util::ErrorKind::bad_input, "unknown column '{}'", column);
}

util::Result<std::vector<std::string>> read_header(const std::vector<std::string>& fields) {
  for (const auto& f : fields) {
    const bool known =
        f == "scenario" || f == "concurrency" || f == "arm" || f == "gpus" ||
        std::any_of(metric_columns().begin(), metric_columns().end(), [&](const Column& c) { return c.name == f; });
    if (!known) return util::failf(util::ErrorKind::bad_input, "unknown column '{}'", f);
  }
  for (const char* required : {"scenario", "concurrency"}) {
    if (std::find(fields.begin(), fields.end(), required) == fields.end()) {
      return util::failf(util::ErrorKind::bad_input, "the header needs a '{}' column", required);
    }
  }
  return fields;
}

util::Result<PointRecord> read_row(const std::vector<std::string>& header, const std::vector<std::string>& fields) {
  if (fields.size() != header.size()) {
    return util::failf(util::ErrorKind::bad_input, "{} fields, the header has {}", fields.size(), header.size());
  }
  PointRecord r = blank_point();
  r.gpus = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (auto ok = set_field(r, header[i], fields[i]); !ok) return std::unexpected(ok.error());
  }
  if (r.scenario.empty() || r.concurrency <= 0) {
    return util::fail(util::ErrorKind::bad_input, "a row needs a scenario and a concurrency > 0");
  }
  return r;
}

Baseline from_points(std::string label, const fs::path& path, std::vector<PointRecord> points) {
  std::erase_if(points, [](const PointRecord& p) { return p.status != results::PointStatus::ok; });
  return Baseline{std::move(label), path.string(), std::move(points)};
}

}  // namespace

util::Result<Baseline> parse_baseline_csv(std::string_view text, const std::string& name) {
  Baseline out{fs::path(name).filename().string(), name, {}};
  std::vector<std::string> header;
  const auto lines = util::split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = util::trim(lines[i]);
    if (line.empty() || line.front() == '#') continue;
    auto fields = split_csv_line(line);
    util::Result<void> status;
    if (fields && header.empty()) {
      auto h = read_header(*fields);
      if (h)
        header = std::move(*h);
      else
        status = std::unexpected(h.error());
    } else if (fields) {
      auto row = read_row(header, *fields);
      if (row)
        out.points.push_back(std::move(*row));
      else
        status = std::unexpected(row.error());
    } else {
      status = std::unexpected(fields.error());
    }
    if (!status) return util::failf(util::ErrorKind::bad_input, "{}:{}: {}", name, i + 1, status.error().message);
  }
  if (header.empty()) return util::failf(util::ErrorKind::bad_input, "{}: no header line", name);
  return out;
}

util::Result<Baseline> read_baseline(const fs::path& path) {
  if (fs::is_directory(path)) {
    auto run = read_run_input(path);
    if (!run) return std::unexpected(run.error());
    return from_points(run->campaign_name(), path, std::move(run->points));
  }
  if (!fs::exists(path)) return util::failf(util::ErrorKind::bad_input, "{}: baseline not found", path.string());
  if (path.extension() == ".csv") {
    auto text = util::read_file(path);
    if (!text) return std::unexpected(util::Error{util::ErrorKind::bad_input, text.error().message});
    return parse_baseline_csv(*text, path.string());
  }
  auto ledger = results::read_latest(path);
  if (!ledger) return std::unexpected(util::Error{util::ErrorKind::bad_input, ledger.error().message});
  if (ledger->records.empty()) {
    return util::failf(util::ErrorKind::bad_input, "{}: no readable servebench.point/1 records", path.string());
  }
  return from_points(path.filename().string(), path, std::move(ledger->records));
}

}  // namespace servebench::report
