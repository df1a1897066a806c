#include "servebench/report/baseline_structure.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/util/yaml_fields.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::report {
namespace {


enum class UnitFamily { throughput, throughput_per_gpu, time, tokens };

struct MetricInfo {
  ChapterMetric metric;
  std::string_view key, label;
  UnitFamily family;
};

constexpr std::array<MetricInfo, k_chapter_metrics> k_metrics{{
    {ChapterMetric::output_throughput, "output_throughput", "output tok/s", UnitFamily::throughput},
    {ChapterMetric::total_throughput_per_gpu, "total_throughput_per_gpu", "total tok/s/GPU",
     UnitFamily::throughput_per_gpu},
    {ChapterMetric::mean_ttft, "mean_ttft", "mean TTFT (ms)", UnitFamily::time},
    {ChapterMetric::p95_ttft, "p95_ttft", "P95 TTFT (ms)", UnitFamily::time},
    {ChapterMetric::mean_tpot, "mean_tpot", "mean TPOT (ms)", UnitFamily::time},
    {ChapterMetric::p95_tpot, "p95_tpot", "P95 TPOT (ms)", UnitFamily::time},
    {ChapterMetric::p95_itl, "p95_itl", "P95 ITL (ms)", UnitFamily::time},
    {ChapterMetric::p95_e2e, "p95_e2e", "P95 E2E (ms)", UnitFamily::time},
    {ChapterMetric::accept_length, "accept_length", "accept length", UnitFamily::tokens},
}};

const MetricInfo& info(ChapterMetric m) { return k_metrics[static_cast<std::size_t>(m)]; }

std::string_view units_of(UnitFamily f) {
  switch (f) {
    case UnitFamily::throughput: return "tok/s";
    case UnitFamily::throughput_per_gpu: return "tok/s/GPU";
    case UnitFamily::time: return "ms, s or us";
    case UnitFamily::tokens: return "tokens, or no unit";
  }
  return "";
}

// The factor that turns a value in `unit` into the report's unit; nullopt when it does not fit.
std::optional<double> factor(UnitFamily f, std::string_view unit) {
  const std::string u = util::to_lower(unit);
  switch (f) {
    case UnitFamily::throughput:
      if (u == "tok/s" || u == "tokens/s") return 1.0;
      return std::nullopt;
    case UnitFamily::throughput_per_gpu:
      if (u == "tok/s/gpu" || u == "tokens/s/gpu") return 1.0;
      return std::nullopt;
    case UnitFamily::time:
      if (u == "ms") return 1.0;
      if (u == "s") return 1000.0;
      if (u == "us" || u == "µs") return 0.001;
      return std::nullopt;
    case UnitFamily::tokens:
      if (u.empty() || u == "tokens" || u == "tok") return 1.0;
      return std::nullopt;
  }
  return std::nullopt;
}

// "3.1 ms" → 3.1 × the unit's factor.
util::Result<ChapterValue> read_value(const std::string& file, const YAML::Node& n, const MetricInfo& m) {
  auto text = util::yaml_string(file, n, m.key);
  if (!text) return std::unexpected(text.error());
  const std::string_view s = util::trim(*text);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || !std::isfinite(v) || v < 0) {
    return std::unexpected(util::yaml_error(
        file, n, fmt::format("{} '{}': expected a non-negative number and its unit ({})", m.key, s, units_of(m.family))));
  }
  const std::string_view unit = util::trim(s.substr(static_cast<std::size_t>(end - s.data())));
  const auto f = factor(m.family, unit);
  if (!f) {
    return std::unexpected(util::yaml_error(
        file, n,
        unit.empty() ? fmt::format("{} '{}': give the unit ({})", m.key, s, units_of(m.family))
                     : fmt::format("{} '{}': '{}' is not a unit of this metric; use {}", m.key, s, unit, units_of(m.family))));
  }
  return ChapterValue{m.metric, v * *f};
}

util::Result<ChapterPoint> read_point(const std::string& file, const YAML::Node& n) {
  auto mapped = util::YamlFields::of(file, n, "point");
  if (!mapped) return std::unexpected(mapped.error());
  util::YamlFields& f = *mapped;
  ChapterPoint p;
  const auto c = f.optional_integer("concurrency");
  if (!c || *c < 1) f.note_at(f.node("concurrency"), "a point needs its concurrency (an integer ≥ 1)");
  p.concurrency = c.value_or(0);
  p.arm = f.string("arm", "");
  for (const auto& m : k_metrics) {
    if (!f.has(std::string(m.key))) continue;
    auto v = read_value(file, f.node(std::string(m.key)), m);
    if (!v) {
      f.note(v.error());
      continue;
    }
    p.values.push_back(*v);
  }
  if (auto ok = f.finish(); !ok) return std::unexpected(ok.error());
  return p;
}

util::Result<ChapterScenario> read_scenario(const std::string& file, const YAML::Node& n) {
  auto mapped = util::YamlFields::of(file, n, "scenario");
  if (!mapped) return std::unexpected(mapped.error());
  util::YamlFields& f = *mapped;
  ChapterScenario s;
  s.name = f.required_string("name");
  const auto isl = f.optional_integer("isl");
  const auto osl = f.optional_integer("osl");
  if (!isl || !osl || *isl < 1 || *osl < 1) {
    f.note_at(f.self_node(), fmt::format("scenario '{}' needs isl and osl (integers ≥ 1)", s.name));
  }
  s.isl = isl.value_or(0);
  s.osl = osl.value_or(0);
  const YAML::Node points = f.node("points");
  if (points.IsDefined() && !points.IsNull()) {
    if (!points.IsSequence()) {
      f.note_at(points, "points must be a list");
    } else {
      for (const auto& p : points) {
        if (auto point = read_point(file, p)) {
          s.points.push_back(std::move(*point));
        } else {
          f.note(point.error());
        }
      }
    }
  }
  if (auto ok = f.finish(); !ok) return std::unexpected(ok.error());
  return s;
}

util::Result<Chapter> read_chapter(const std::string& file, const YAML::Node& n) {
  auto mapped = util::YamlFields::of(file, n, "chapter");
  if (!mapped) return std::unexpected(mapped.error());
  util::YamlFields& f = *mapped;
  Chapter c;
  c.title = f.required_string("title");
  c.says = f.string("says", "");
  const YAML::Node scenarios = f.node("scenarios");
  if (!scenarios.IsDefined() || !scenarios.IsSequence() || scenarios.size() == 0) {
    f.note_at(scenarios.IsDefined() ? scenarios : f.self_node(),
              fmt::format("chapter '{}' needs a list of scenarios", c.title));
  } else {
    for (const auto& s : scenarios) {
      if (auto scenario = read_scenario(file, s)) {
        c.scenarios.push_back(std::move(*scenario));
      } else {
        f.note(scenario.error());
      }
    }
  }
  if (auto ok = f.finish(); !ok) return std::unexpected(ok.error());
  return c;
}

}  // namespace

std::string_view key_of(ChapterMetric m) { return info(m).key; }
std::string_view label_of(ChapterMetric m) { return info(m).label; }

double value_of(ChapterMetric m, const results::PointRecord& r) {
  switch (m) {
    case ChapterMetric::output_throughput: return r.throughput.output_tok_per_s;
    case ChapterMetric::total_throughput_per_gpu: return r.throughput.total_tok_per_s_per_gpu;
    case ChapterMetric::mean_ttft: return r.ttft_ms.mean;
    case ChapterMetric::p95_ttft: return r.ttft_ms.p95;
    case ChapterMetric::mean_tpot: return r.osl > 1 ? r.tpot_ms.mean : k_nan;
    case ChapterMetric::p95_tpot: return r.osl > 1 ? r.tpot_ms.p95 : k_nan;
    case ChapterMetric::p95_itl: return r.osl > 1 ? r.itl_ms.p95 : k_nan;
    case ChapterMetric::p95_e2e: return r.e2e_ms.p95;
    case ChapterMetric::accept_length: return r.accept_length.value_or(k_nan);
  }
  return k_nan;
}

const ChapterValue* ChapterPoint::find(ChapterMetric m) const {
  for (const auto& v : values) {
    if (v.metric == m) return &v;
  }
  return nullptr;
}

util::Result<BaselineStructure> parse_baseline_structure(const std::string& text, const std::string& name) {
  auto doc = util::load_yaml_string(text, name);
  if (!doc) return std::unexpected(doc.error());
  auto mapped = util::YamlFields::of(name, doc->root, "baseline structure");
  if (!mapped) return std::unexpected(mapped.error());
  util::YamlFields& f = *mapped;
  BaselineStructure b;
  b.file = name;
  b.baseline = f.required_string("baseline");
  b.source = f.string("source", "");
  const YAML::Node chapters = f.node("chapters");
  if (!chapters.IsDefined() || !chapters.IsSequence() || chapters.size() == 0) {
    f.note_at(chapters.IsDefined() ? chapters : f.self_node(), "chapters must be a non-empty list");
  } else {
    for (const auto& c : chapters) {
      if (auto chapter = read_chapter(name, c)) {
        b.chapters.push_back(std::move(*chapter));
      } else {
        f.note(chapter.error());
      }
    }
  }
  if (auto ok = f.finish(); !ok) return std::unexpected(ok.error());
  return b;
}

util::Result<BaselineStructure> read_baseline_structure(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) {
    return util::failf(util::ErrorKind::bad_input, "--baseline-structure {}: {}", path.string(), text.error().message);
  }
  return parse_baseline_structure(*text, path.string());
}

}  // namespace servebench::report
