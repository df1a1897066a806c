// The report header: campaigns, measured span and generation time, tool versions, ledger issues,
// machine and engine facts, protocol (report_builder.hpp).
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "servebench/report/analysis.hpp"
#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/results/error_budget.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

std::string or_not_recorded(const std::string& s) { return s.empty() ? std::string(k_not_recorded) : s; }

std::string or_not_recorded(const std::optional<std::int64_t>& v) {
  return v ? format_count(*v) : std::string(k_not_recorded);
}

std::string status_counts(const CampaignSet& set) {
  std::array<int, 4> counts{};
  for (const auto& p : set.points) ++counts[static_cast<std::size_t>(p.record.status)];
  return fmt::format("{} points: {} ok, {} skipped (structural), {} invalid, {} failed", set.points.size(), counts[0],
                     counts[2], counts[3], counts[1]);
}

std::string issue_summary(const CampaignSet& set) {
  const std::size_t n = set.issues.size();
  std::vector<std::string> parts;
  for (const auto& issue : set.issues) {
    parts.push_back(set.runs.size() > 1 ? fmt::format("{} {}", issue.file, issue.message) : issue.message);
  }
  return fmt::format("{} ledger record{} unreadable ({}).", n, n == 1 ? " was" : "s were", util::join(parts, "; "));
}

// How to read the times: a simulator at --sim-time-scale s runs s× faster than the hardware it
// models, and the campaign divides what it measured by s (ledger `time_base: "simulated"`).
std::string time_base_line(const CampaignSet& set) {
  int simulated = 0;
  int real = 0;
  for (const auto& p : set.points) {
    if (p.record.extra.contains("predicted")) continue;  // predicted_line
    const auto* base = p.record.extra.if_contains("time_base");
    if (base == nullptr || !base->is_string()) continue;
    (base->get_string() == "simulated" ? simulated : real) += 1;
  }
  if (simulated == 0) return "";
  std::vector<std::string> scales;
  for (const auto& a : set.arms) {
    if (a.facts.sim_time_scale && *a.facts.sim_time_scale != 1 && *a.facts.sim_time_scale != 0) {
      scales.push_back(fmt::format("{} ×{}", a.display, format_fixed(1 / *a.facts.sim_time_scale, 2)));
    }
  }
  return fmt::format(
      "Time base: {} point{} in simulated time — the simulator ran faster than the hardware it models ({}) and "
      "every measured time was converted back, so latencies and throughputs read as that hardware's{}",
      simulated, simulated == 1 ? "" : "s", scales.empty() ? std::string(k_not_recorded) : util::join(scales, ", "),
      real == 0 ? "" : fmt::format("; {} point{} in real time", real, real == 1 ? "" : "s"));
}

void add_unique(std::vector<std::string>& to, std::string text) {
  if (std::find(to.begin(), to.end(), text) == to.end()) to.push_back(std::move(text));
}

// The card files of one `predicted` object, with the start of their hashes.
void add_cards(const boost::json::object& o, std::vector<std::string>& cards) {
  for (const char* key : {"model_card", "hardware_card", "overrides"}) {
    const auto* card = o.if_contains(key);
    const auto* file = card && card->is_object() ? card->get_object().if_contains("file") : nullptr;
    const auto* sha = card && card->is_object() ? card->get_object().if_contains("sha256") : nullptr;
    if (file == nullptr || !file->is_string()) continue;
    std::string text = std::string(key) == "overrides" ? "override " + std::string(file->get_string())
                                                       : std::string(file->get_string());
    if (sha && sha->is_string() && sha->get_string().size() >= 12) {
      text += " " + std::string(std::string_view(sha->get_string()).substr(0, 12));
    }
    add_unique(cards, std::move(text));
  }
}

// A fleet's shape (`plan --replicas`): "4 replicas behind a prefix-aware router".
std::string fleet_of(const boost::json::object& o) {
  const auto* f = o.if_contains("fleet");
  if (f == nullptr || !f->is_object()) return "";
  const auto* n = f->get_object().if_contains("replicas");
  const auto* router = f->get_object().if_contains("router");
  if (n == nullptr || !n->is_int64() || router == nullptr || !router->is_string()) return "";
  return fmt::format("{} replicas behind a {} router", n->get_int64(), std::string_view(router->get_string()));
}

// Points written by `servebench plan` (ledger `predicted`): no server ran; say so, with the cards,
// the fleet and the error budget of the cards.
std::string predicted_line(const CampaignSet& set) {
  int predicted = 0;
  std::vector<std::string> cards, budgets, fleets;
  for (const auto& p : set.points) {
    const auto* o = p.record.extra.if_contains("predicted");
    if (o == nullptr || !o->is_object()) continue;
    predicted += 1;
    add_cards(o->get_object(), cards);
    const auto* b = o->get_object().if_contains("error_budget");
    add_unique(budgets, results::budget_line(b ? *b : boost::json::value(nullptr)));
    if (auto fleet = fleet_of(o->get_object()); !fleet.empty()) add_unique(fleets, p.record.arm + ": " + fleet);
  }
  if (predicted == 0) return "";
  const std::string fleet =
      fleets.empty() ? ""
                     : fmt::format("; fleets of {} — throughput is the fleet's and per-GPU figures count every "
                                   "replica's GPUs", util::join(fleets, ", "));
  return fmt::format(
      "PREDICTED: {} point{} from `servebench plan` — the simulator in virtual time, no server ran; every latency "
      "and throughput of {} is a prediction of the cards ({}), not a measurement{}; {}",
      predicted, predicted == 1 ? "" : "s", predicted == 1 ? "it" : "them", util::join(cards, ", "), fleet,
      util::join(budgets, "; "));
}

std::vector<std::string> overview_items(const CampaignSet& set) {
  std::vector<std::string> items;
  for (const auto& run : set.runs) {
    const std::string model = run.campaign.found ? run.campaign.model : std::string(k_not_recorded);
    items.push_back(fmt::format("Campaign {}: run directory {}, model {}", run.campaign_name(), run.label, model));
  }
  if (set.first_start.empty()) {
    items.emplace_back("Measured: no record carries a start time");
  } else {
    items.push_back(fmt::format("Measured: {} to {} (UTC, from the ledger records)", set.first_start, set.last_end));
    items.push_back(fmt::format(
        "Generated as of {}: the end of the last measured point (the report never reads the clock)", set.last_end));
  }
  items.push_back(fmt::format("Measured with servebench {}", set.tool_versions.empty()
                                                                 ? std::string(k_not_recorded)
                                                                 : util::join(set.tool_versions, ", ")));
  items.push_back(status_counts(set));
  if (auto line = predicted_line(set); !line.empty()) items.push_back(std::move(line));
  if (auto line = time_base_line(set); !line.empty()) items.push_back(std::move(line));
  return items;
}

// A merged directory (`campaign merge`, a cluster executor): which jobs it joins, and every point
// that more than one of them measured — the report shows the later measurement only.
std::vector<std::string> merge_lines(const CampaignSet& set) {
  std::vector<std::string> lines;
  for (const auto& run : set.runs) {
    if (!run.merge) continue;
    const auto& m = *run.merge;
    std::string line = fmt::format("{} merges {} run director{} ({}) into {} points", run.label, m.sources.size(),
                                   m.sources.size() == 1 ? "y" : "ies", util::join(m.sources, ", "), m.points);
    if (m.superseded.empty()) {
      lines.push_back(line + "; no point was measured twice.");
      continue;
    }
    std::vector<std::string> parts;
    for (const auto& p : m.superseded) {
      std::vector<std::string> dropped;
      for (const auto& d : p.dropped) dropped.push_back(fmt::format("{} at {}", d.source, d.started_at));
      parts.push_back(fmt::format("{} (shown: {} at {}; dropped: {})", p.point, p.kept.source, p.kept.started_at,
                                  util::join(dropped, ", ")));
    }
    lines.push_back(fmt::format("{}; {} point{} measured by more than one job, the later measurement kept: {}.", line,
                                m.superseded.size(), m.superseded.size() == 1 ? " was" : "s were", util::join(parts, "; ")));
  }
  return lines;
}

Table machine_table(const CampaignSet& set) {
  Table t{{"arm", "engine", "engine version", "model", "GPUs", "hardware", "facts captured at"},
          {Align::left, Align::left, Align::left, Align::left, Align::right, Align::left, Align::left},
          {}};
  for (const auto& a : set.arms) {
    const auto& f = a.facts;
    std::string hardware = f.found ? "real GPUs" : std::string(k_not_recorded);
    if (!f.sim_hardware.empty()) {
      const double scale = f.sim_time_scale.value_or(1);
      hardware = scale == 0   ? fmt::format("{} (simulated untimed: times are not the hardware's)", f.sim_hardware)
                 : scale != 1 ? fmt::format("{} (simulated, clock ×{})", f.sim_hardware, format_fixed(1 / scale, 2))
                              : fmt::format("{} (simulated)", f.sim_hardware);
    }
    t.rows.push_back({a.display, or_not_recorded(f.engine), or_not_recorded(f.engine_version), or_not_recorded(f.model),
                      or_not_recorded(f.gpus), std::move(hardware), or_not_recorded(f.captured_at)});
  }
  return t;
}

Table protocol_table(const CampaignSet& set) {
  Table t{{"setting"}, {Align::left}, {}};
  for (const auto& run : set.runs) {
    t.headers.push_back(set.runs.size() > 1 ? run.campaign_name() : std::string("value"));
    t.align.push_back(Align::left);
  }
  // Settings in first-seen order over the runs (only some runs may carry the repeats line).
  std::vector<std::string> settings;
  for (const auto& run : set.runs) {
    for (const auto& [name, value] : run.campaign.protocol) {
      if (std::find(settings.begin(), settings.end(), name) == settings.end()) settings.push_back(name);
    }
  }
  for (const auto& name : settings) {
    std::vector<std::string> row{name};
    for (const auto& run : set.runs) {
      const auto& lines = run.campaign.protocol;
      const auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == name; });
      if (it != lines.end()) row.push_back(it->second);
      else row.push_back(name == k_repeats_line && run.campaign.found ? "1" : std::string(k_not_recorded));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

void add_header_section(const CampaignSet& set, Document& doc) {
  doc.add(Heading{2, "Campaign"});
  doc.add(BulletList{overview_items(set)});
  if (!set.issues.empty()) doc.add(Paragraph{issue_summary(set)});
  for (auto& line : merge_lines(set)) doc.add(Paragraph{std::move(line)});
  doc.add(Heading{3, "Machine and engine (server_facts.json)"});
  doc.add(machine_table(set));
  doc.add(Heading{3, "Protocol (campaign.yaml)"});
  doc.add(protocol_table(set));
}

}  // namespace servebench::report
