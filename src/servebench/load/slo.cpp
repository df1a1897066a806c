#include "servebench/load/slo.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::load {
namespace {

using util::ErrorKind;

constexpr std::string_view k_key_help =
    "keys are <metric>_p<percentile>_ms with metric ttft, tpot, itl or e2e and percentile 50, 90, 95 or 99, "
    "e.g. ttft_p99_ms=2000,tpot_p50_ms=30";

const stats::Summary& summary_of(const RunMetrics& m, SloMetric metric) {
  switch (metric) {
    case SloMetric::ttft: return m.ttft_ms;
    case SloMetric::tpot: return m.tpot_ms;
    case SloMetric::itl: return m.itl_ms;
    case SloMetric::e2e: return m.e2e_ms;
  }
  return m.ttft_ms;
}

void tighten(std::optional<util::Nanos>& slot, double limit_ms) {
  const auto ns = std::chrono::duration_cast<util::Nanos>(std::chrono::duration<double, std::milli>(limit_ms));
  if (!slot || ns < *slot) slot = ns;
}

}  // namespace

std::string_view to_string(SloMetric m) {
  switch (m) {
    case SloMetric::ttft: return "ttft";
    case SloMetric::tpot: return "tpot";
    case SloMetric::itl: return "itl";
    case SloMetric::e2e: return "e2e";
  }
  return "ttft";
}

util::Result<Slo> parse_slo(std::string_view text, std::string_view flag) {
  static const std::regex key_re("^(ttft|tpot|itl|e2e)_p(50|90|95|99)_ms$");
  Slo slo;
  if (util::trim(text).empty()) return util::failf(ErrorKind::bad_input, "{} is empty; {}", flag, k_key_help);
  for (const auto raw : util::split(text, ',')) {
    const auto item = util::trim(raw);
    const auto eq = item.find('=');
    const std::string key(util::trim(item.substr(0, eq)));
    std::smatch m;
    if (eq == std::string_view::npos || !std::regex_match(key, m, key_re)) {
      return util::failf(ErrorKind::bad_input, "{} '{}' is not KEY=MS; {}", flag, item, k_key_help);
    }
    auto v = util::parse_double(util::trim(item.substr(eq + 1)), fmt::format("{} {}", flag, key));
    if (!v) return std::unexpected(v.error());
    if (!(*v > 0) || !std::isfinite(*v)) {
      return util::failf(ErrorKind::bad_input, "{} {}: the limit must be a positive number of ms", flag, key);
    }
    if (std::any_of(slo.keys.begin(), slo.keys.end(), [&](const SloKey& k) { return k.name == key; })) {
      return util::failf(ErrorKind::bad_input, "{} names {} twice", flag, key);
    }
    SloKey k;
    k.name = key;
    const std::string metric = m[1];
    k.metric = metric == "ttft" ? SloMetric::ttft : metric == "tpot" ? SloMetric::tpot
               : metric == "itl" ? SloMetric::itl : SloMetric::e2e;
    k.percentile = std::stod(m[2]);
    k.limit_ms = *v;
    slo.keys.push_back(std::move(k));
  }
  return slo;
}

GoodputSlo per_request_thresholds(const Slo& slo) {
  GoodputSlo g;
  for (const auto& k : slo.keys) {
    if (k.metric == SloMetric::ttft) tighten(g.ttft, k.limit_ms);
    if (k.metric == SloMetric::tpot) tighten(g.tpot, k.limit_ms);
    if (k.metric == SloMetric::e2e) tighten(g.e2e, k.limit_ms);
  }
  return g;
}

SloVerdict check_slo(const Slo& slo, const RunMetrics& m) {
  SloVerdict v;
  v.met = m.failed == 0 && m.completed > 0;
  std::vector<std::string> parts;
  for (const auto& k : slo.keys) {
    const stats::Summary& s = summary_of(m, k.metric);
    const double value = k.percentile == 50 ? s.median : s.at(k.percentile);
    SloCheck c{k.name, value, k.limit_ms, std::isfinite(value) && value <= k.limit_ms};
    v.met = v.met && c.met;
    parts.push_back(fmt::format("{} p{} {} {} {:.6g} ms", to_string(k.metric), k.percentile,
                                std::isfinite(value) ? fmt::format("{:.1f}", value) : std::string("undefined"),
                                c.met ? "≤" : ">", k.limit_ms));
    v.checks.push_back(std::move(c));
  }
  if (m.failed > 0) parts.push_back(fmt::format("{} request{} failed", m.failed, m.failed == 1 ? "" : "s"));
  v.summary = util::join(parts, ", ");
  return v;
}

}  // namespace servebench::load
