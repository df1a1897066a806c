// What the campaign did to the machine around the measurements (report_builder.hpp): a banner at
// the top for every in-service server that did not come back as it was, and the appendix with the
// asset ledger (the bytes the campaign ran with) and every in-service restore check.
#include <fmt/format.h>

#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

std::string restored_text(const results::InServiceRecord& r) {
  if (!r.restored) return "not verified (the arm did not finish)";
  return *r.restored ? "yes" : "NO";
}

std::string differences_text(const results::InServiceRecord& r) {
  if (r.differences.empty()) return r.restored && !*r.restored ? "the service did not answer" : "—";
  return util::join(r.differences, "; ");
}

std::string size_text(std::int64_t bytes) { return format_count(bytes) + " B"; }

Table asset_table(const CampaignSet& set, const RunInput& run, std::size_t index) {
  Table t{{"role", "name", "sha256", "size"}, {Align::left, Align::left, Align::left, Align::right}, {}};
  if (set.runs.size() > 1) {
    t.headers.insert(t.headers.begin(), "run");
    t.align.insert(t.align.begin(), Align::left);
  }
  for (const auto& a : run.assets->assets) {
    std::vector<std::string> row{a.role, a.name, a.sha256, size_text(a.size)};
    if (set.runs.size() > 1) row.insert(row.begin(), set.runs[index].campaign_name());
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<std::string> accepted_changes(const RunInput& run) {
  std::vector<std::string> items;
  for (const auto& c : run.assets->changes) {
    std::string line = results::describe(c, "before", "after");
    if (!c.accepted_at.empty()) line += fmt::format(" (accepted on resume at {})", c.accepted_at);
    items.push_back(std::move(line));
  }
  return items;
}

void add_asset_part(const CampaignSet& set, Document& doc) {
  doc.add(Heading{3, "Assets (assets.json)"});
  bool any = false;
  for (std::size_t r = 0; r < set.runs.size(); ++r) {
    const RunInput& run = set.runs[r];
    if (!run.assets) {
      doc.add(Paragraph{fmt::format("{}: no asset ledger (a run made before servebench recorded one).", run.label)});
      continue;
    }
    any = true;
    doc.add(Paragraph{fmt::format(
        "{}: {} file{} by sha256 and size, recorded {} — the servebench binary, the campaign file, every hook "
        "script and the campaign's `assets:`. `servebench campaign verify-assets {} --against OTHER` compares them "
        "with another machine's run or a directory of copies.",
        run.label, run.assets->assets.size(), run.assets->assets.size() == 1 ? "" : "s",
        run.assets->recorded_at.empty() ? std::string(k_not_recorded) : run.assets->recorded_at, run.label)});
    doc.add(asset_table(set, run, r));
    if (!run.assets->changes.empty()) {
      doc.add(Paragraph{"Changed while the run was resumed (--allow-changed-assets): the points before and after "
                        "the change ran with different bytes."});
      doc.add(BulletList{accepted_changes(run)});
    }
  }
  if (!any && set.runs.size() > 1) doc.add(Paragraph{"No run has an asset ledger."});
}

void add_in_service_part(const CampaignSet& set, Document& doc) {
  Table t{{"arm", "in-service URL", "check", "restored", "differences"},
          {Align::left, Align::left, Align::left, Align::left, Align::left},
          {}};
  for (const auto& a : set.arms) {
    if (!a.in_service) continue;
    const auto& r = *a.in_service;
    t.rows.push_back({a.display, r.url, r.restore_check, restored_text(r), differences_text(r)});
  }
  if (t.rows.empty()) return;
  doc.add(Heading{3, "In-service restore (in_service.json)"});
  doc.add(Paragraph{"Each in-service server an arm's hooks stopped: its health and facts were read before the "
                    "`before` hook and compared after the `after` hook."});
  doc.add(std::move(t));
}

}  // namespace

void add_restore_banners(const CampaignSet& set, Document& doc) {
  for (const auto& a : set.arms) {
    if (!a.in_service || !a.in_service->restored || *a.in_service->restored) continue;
    const auto& r = *a.in_service;
    doc.add(Banner{fmt::format(
        "RESTORE FAILED — arm {}: the in-service server at {} did not come back as it was ({} check): {}. "
        "Put the service back before anyone relies on it; the snapshots are in the arm's in_service.json.",
        a.display, r.url, r.restore_check, differences_text(r))});
  }
}

void add_appendix(const CampaignSet& set, Document& doc) {
  doc.add(Heading{2, "Appendix: what the campaign ran with"});
  add_asset_part(set, doc);
  add_in_service_part(set, doc);
}

}  // namespace servebench::report
