#include "servebench/report/slo_section.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/report/analysis.hpp"
#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

namespace json = boost::json;

// One key of a run's SLO verdict (`slo.checks[]`, written by `servebench sweep`).
struct KeyCheck {
  std::string key;        // "ttft_p99_ms"
  std::string statistic;  // "TTFT p99"; the key itself when the record does not name metric and percentile
  std::string short_name; // "ttft p99", for the limit's label; likewise
  double value = NAN;     // the run's statistic in ms; NaN when undefined
  double limit = NAN;
  bool met = false;
};

struct SloRun {
  const MeasuredPoint* point = nullptr;
  bool met = false;
  std::optional<std::int64_t> run;  // extra.search.run: the run's place in the search
  std::string keys_text;            // "ttft_p99_ms ≤ 2000, tpot_p50_ms ≤ 30"
  std::vector<KeyCheck> checks;
  bool by_rate() const { return point->record.request_rate.has_value(); }
  double load() const {
    return by_rate() ? *point->record.request_rate : static_cast<double>(point->record.concurrency);
  }
};

std::string keys_text(const json::object& slo) {
  std::vector<std::string> parts;
  if (const auto* keys = slo.if_contains("keys"); keys != nullptr && keys->is_object()) {
    for (const auto& kv : keys->get_object()) {
      if (!kv.value().is_number()) continue;
      parts.push_back(fmt::format("{} ≤ {:.6g}", std::string(kv.key()), kv.value().to_number<double>()));
    }
  }
  return util::join(parts, ", ");
}

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

KeyCheck key_check(const json::object& c) {
  KeyCheck k;
  k.key = util::json_string(c, "key").value_or("");
  const auto metric = util::json_string(c, "metric");
  const auto percentile = util::json_number(c, "percentile");
  k.statistic = k.short_name = k.key;
  if (metric && percentile) {
    k.statistic = fmt::format("{} p{:g}", upper(*metric), *percentile);
    k.short_name = fmt::format("{} p{:g}", *metric, *percentile);
  }
  k.value = util::json_number(c, "value").value_or(NAN);
  k.limit = util::json_number(c, "limit").value_or(NAN);
  k.met = util::json_bool(c, "met").value_or(false);
  return k;
}

std::optional<SloRun> slo_run(const MeasuredPoint& p) {
  const auto* slo = p.record.extra.if_contains("slo");
  if (slo == nullptr || !slo->is_object()) return std::nullopt;
  const auto met = util::json_bool(slo->get_object(), "met");
  if (!met) return std::nullopt;
  SloRun r{&p, *met, std::nullopt, keys_text(slo->get_object()), {}};
  if (const auto* search = p.record.extra.if_contains("search"); search != nullptr && search->is_object()) {
    r.run = util::json_int(search->get_object(), "run");
  }
  if (const auto* checks = slo->get_object().if_contains("checks"); checks != nullptr && checks->is_array()) {
    for (const auto& c : checks->get_array()) {
      if (c.is_object() && !util::json_string(c.get_object(), "key").value_or("").empty()) {
        r.checks.push_back(key_check(c.get_object()));
      }
    }
  }
  return r;
}

// The runs of one scenario in arm order, then by load (concurrency runs before rate runs).
std::vector<SloRun> runs_of(const CampaignSet& set, std::size_t scenario) {
  std::vector<SloRun> runs;
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    const auto first = runs.size();
    for (const std::size_t i : set.points_of(a, scenario)) {
      if (auto r = slo_run(set.points[i])) runs.push_back(std::move(*r));
    }
    std::stable_sort(runs.begin() + static_cast<std::ptrdiff_t>(first), runs.end(),
                     [](const SloRun& x, const SloRun& y) {
                       return std::pair(x.by_rate(), x.load()) < std::pair(y.by_rate(), y.load());
                     });
  }
  return runs;
}

std::string load_text(bool by_rate, double v) {
  return by_rate ? format_req_per_s(v) + " req/s" : fmt::format("C={}", v);
}

struct Boundary {
  bool by_rate = false;
  std::string slo;
  std::optional<double> met, missed;  // highest met, lowest missed
  std::size_t runs = 0;
};

Table boundary_table(const CampaignSet& set) {
  Table t{{"arm", "scenario", "SLO", "boundary (met)", "first miss", "runs"},
          {Align::left, Align::left, Align::left, Align::right, Align::right, Align::right},
          {}};
  std::map<std::pair<std::size_t, std::size_t>, Boundary> found;
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    for (const auto& r : runs_of(set, s)) {
      Boundary& b = found[{r.point->arm, s}];
      b.by_rate = r.by_rate();
      b.slo = r.keys_text;
      ++b.runs;
      // A run that met the SLO counts only when it ran ok (failed requests already miss it).
      if (r.met && r.point->record.status == results::PointStatus::ok) b.met = std::max(b.met.value_or(r.load()), r.load());
      else b.missed = std::min(b.missed.value_or(r.load()), r.load());
    }
  }
  const auto text = [](const Boundary& b, const std::optional<double>& v) {
    return v ? load_text(b.by_rate, *v) : std::string(k_missing);
  };
  for (const auto& [key, b] : found) {
    t.rows.push_back({set.arms[key.first].display, set.scenarios[key.second].name, b.slo, text(b, b.met),
                      text(b, b.missed), format_count(static_cast<std::int64_t>(b.runs))});
  }
  return t;
}

// Every key any run of the scenario checked, in first-seen order.
std::vector<std::string> keys_of(const std::vector<SloRun>& runs) {
  std::vector<std::string> keys;
  for (const auto& r : runs) {
    for (const auto& c : r.checks) {
      if (std::find(keys.begin(), keys.end(), c.key) == keys.end()) keys.push_back(c.key);
    }
  }
  return keys;
}

const KeyCheck* check_of(const SloRun& r, const std::string& key) {
  const auto it = std::find_if(r.checks.begin(), r.checks.end(), [&](const KeyCheck& c) { return c.key == key; });
  return it == r.checks.end() ? nullptr : &*it;
}

Table runs_table(const CampaignSet& set, const std::vector<SloRun>& runs) {
  const auto keys = keys_of(runs);
  Table t{{"arm", "run", "load", "status"}, {Align::left, Align::right, Align::right, Align::left}, {}};
  for (const auto& k : keys) {
    t.headers.push_back(k);
    t.align.push_back(Align::right);
  }
  t.headers.insert(t.headers.end(), {"SLO", "note"});
  t.align.insert(t.align.end(), {Align::left, Align::left});
  for (const auto& r : runs) {
    const auto& rec = r.point->record;
    std::vector<std::string> row{set.arms[r.point->arm].display, r.run ? format_count(*r.run) : std::string(k_missing),
                                 load_text(r.by_rate(), r.load()), std::string(to_string(rec.status))};
    for (const auto& k : keys) {
      const KeyCheck* c = check_of(r, k);
      row.push_back(c == nullptr ? std::string(k_missing) : format_ms(c->value) + (c->met ? "" : " ✗"));
    }
    // As the boundary counts it: a run that met every key but was not ok (an unhealthy client) is no boundary.
    const bool ok = rec.status == results::PointStatus::ok;
    row.push_back(!r.met ? "missed" : ok ? "met" : fmt::format("met, not counted ({})", to_string(rec.status)));
    row.push_back(ok ? "" : rec.reason);
    t.rows.push_back(std::move(row));
  }
  return t;
}

ChartSpec slo_chart(const CampaignSet& set, std::size_t scenario, const std::vector<SloRun>& runs,
                    const KeyCheck& first, bool by_rate) {
  std::string id = fmt::format("slo{}-{}{}", scenario, first.key, by_rate ? "-rate" : "");
  std::replace(id.begin(), id.end(), '_', '-');
  ChartSpec c{id,
              fmt::format("{}: {} vs {}", set.scenarios[scenario].name, first.statistic,
                          by_rate ? "request rate" : "concurrency"),
              by_rate ? "request rate (req/s)" : "concurrency (requests in flight, log₂ scale)",
              fmt::format("{} (ms)", first.statistic),
              by_rate ? AxisScale::linear : AxisScale::log2,
              {},
              {}};
  std::map<double, std::vector<std::string>> limits;  // limit → the arms that set it
  for (std::size_t a = 0; a < set.arms.size(); ++a) {
    ChartSeries series{set.arms[a].display, a, SeriesLine::through_points, {}, {}};
    for (const auto& r : runs) {
      const KeyCheck* k = check_of(r, first.key);
      if (r.point->arm != a || r.by_rate() != by_rate || k == nullptr || !is_ok(r.point)) continue;
      auto& arms = limits[k->limit];
      if (std::find(arms.begin(), arms.end(), series.name) == arms.end()) arms.push_back(series.name);
      if (!std::isfinite(k->value)) continue;
      series.points.push_back({r.load(), k->value,
                               fmt::format("{} {}: {} {} ms, {} the limit", series.name, load_text(by_rate, r.load()),
                                           k->statistic, format_ms(k->value), k->met ? "within" : "over")});
    }
    if (!series.points.empty()) c.series.push_back(std::move(series));
  }
  for (const auto& [limit, arms] : limits) {
    c.limits.push_back({limit, fmt::format("SLO {} ≤ {} ms{}", first.short_name, format_ms(limit),
                                           limits.size() > 1 ? fmt::format(" ({})", util::join(arms, ", ")) : "")});
  }
  return c;
}

}  // namespace

std::vector<ChartSpec> slo_charts(const CampaignSet& set, std::size_t scenario) {
  const auto runs = runs_of(set, scenario);
  std::vector<std::pair<std::string, bool>> done;  // (key, by rate) already charted
  std::vector<ChartSpec> charts;
  for (const auto& r : runs) {
    for (const auto& k : r.checks) {
      const std::pair<std::string, bool> what{k.key, r.by_rate()};
      if (std::find(done.begin(), done.end(), what) != done.end()) continue;
      done.push_back(what);
      charts.push_back(slo_chart(set, scenario, runs, k, r.by_rate()));
    }
  }
  return charts;
}

void add_slo_section(const CampaignSet& set, Document& doc) {
  Table boundaries = boundary_table(set);
  if (boundaries.rows.empty()) return;
  doc.add(Heading{3, "SLO boundary (highest load whose run met the SLO)"});
  doc.add(Paragraph{"From runs that carry an SLO verdict (servebench sweep): each run meets the SLO when every key's "
                    "percentile is within its limit and no request failed (docs/metrics.md \"SLO and goodput\")."});
  doc.add(std::move(boundaries));
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const auto runs = runs_of(set, s);
    if (runs.empty()) continue;
    doc.add(Heading{4, "SLO runs: " + scenario_title(set.scenarios[s])});
    doc.add(Paragraph{"Each key's value is the statistic it names over the run's completed requests, in ms (✗: over "
                      "its limit). The charts plot that same statistic for every ok run, and the dashed line is the "
                      "key's limit."});
    doc.add(runs_table(set, runs));
    for (auto& c : slo_charts(set, s)) {
      if (has_plottable_points(c)) doc.add(Figure{std::move(c)});
    }
  }
}

}  // namespace servebench::report
