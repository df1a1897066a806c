#include "servebench/report/slo_section.hpp"

#include <map>
#include <optional>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/report/number_format.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

struct Boundary {
  bool by_rate = false;
  std::string slo;
  std::optional<double> met, missed;  // highest met, lowest missed
  std::size_t runs = 0;
};

std::string slo_text(const boost::json::object& slo) {
  std::vector<std::string> parts;
  if (const auto* keys = slo.if_contains("keys"); keys != nullptr && keys->is_object()) {
    for (const auto& kv : keys->get_object()) {
      if (!kv.value().is_number()) continue;
      parts.push_back(fmt::format("{} ≤ {:.6g}", std::string(kv.key()), kv.value().to_number<double>()));
    }
  }
  return util::join(parts, ", ");
}

std::string load_text(const Boundary& b, const std::optional<double>& v) {
  if (!v) return std::string(k_missing);
  return b.by_rate ? fmt::format("{} req/s", *v) : fmt::format("C={}", *v);
}

}  // namespace

void add_slo_section(const CampaignSet& set, Document& doc) {
  std::map<std::pair<std::size_t, std::size_t>, Boundary> found;
  for (const auto& p : set.points) {
    const auto* slo = p.record.extra.if_contains("slo");
    if (slo == nullptr || !slo->is_object()) continue;
    const auto* met = slo->get_object().if_contains("met");
    if (met == nullptr || !met->is_bool()) continue;
    Boundary& b = found[{p.arm, p.scenario}];
    b.by_rate = p.record.request_rate.has_value();
    b.slo = slo_text(slo->get_object());
    const double load = b.by_rate ? *p.record.request_rate : static_cast<double>(p.record.concurrency);
    ++b.runs;
    // A run that met the SLO counts only when it ran ok (failed requests already miss it).
    if (met->get_bool() && p.record.status == results::PointStatus::ok) b.met = std::max(b.met.value_or(load), load);
    else b.missed = std::min(b.missed.value_or(load), load);
  }
  if (found.empty()) return;
  doc.add(Heading{3, "SLO boundary (highest load whose run met the SLO)"});
  doc.add(Paragraph{"From runs that carry an SLO verdict (servebench sweep): each run meets the SLO when every key's "
                    "percentile is within its limit and no request failed (docs/metrics.md \"SLO and goodput\")."});
  Table t{{"arm", "scenario", "SLO", "boundary (met)", "first miss", "runs"},
          {Align::left, Align::left, Align::left, Align::right, Align::right, Align::right},
          {}};
  for (const auto& [key, b] : found) {
    t.rows.push_back({set.arms[key.first].display, set.scenarios[key.second].name, b.slo, load_text(b, b.met),
                      load_text(b, b.missed), format_count(static_cast<std::int64_t>(b.runs))});
  }
  doc.add(std::move(t));
}

}  // namespace servebench::report
