#include "servebench/campaign/status_file.hpp"

#include <map>

#include <fmt/format.h>

#include "servebench/results/job_record.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/run_files.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {

Progress progress_of(const CampaignSpec& spec, const std::vector<PlannedPoint>& planned,
                     const std::vector<results::PointRecord>& latest) {
  std::map<results::PointKey, results::PointStatus> status;
  for (const auto& r : latest) status[results::key_of(r)] = r.status;
  Progress p;
  p.total = planned.size();
  for (const auto& point : planned) {
    const auto it = status.find(key_of(spec, point));
    if (it == status.end()) continue;
    switch (it->second) {
      case results::PointStatus::ok: ++p.ok; break;
      case results::PointStatus::skipped: ++p.skipped; break;
      case results::PointStatus::invalid: ++p.invalid; break;
      case results::PointStatus::failed: ++p.failed; break;
    }
  }
  return p;
}

std::optional<std::chrono::seconds> estimate_eta(std::chrono::nanoseconds measured_time, std::size_t measured,
                                                 std::size_t left) {
  if (measured == 0) return std::nullopt;
  const auto mean = measured_time / static_cast<std::int64_t>(measured);
  return std::chrono::duration_cast<std::chrono::seconds>(mean * static_cast<std::int64_t>(left));
}

std::string format_duration(std::chrono::seconds d) {
  const auto s = d.count();
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string terminal_state(int exit_code, int signal, const Progress& p, bool unreachable) {
  if (signal != 0) return fmt::format("interrupted by signal {}", signal);
  if (exit_code == 0) return "done";
  std::vector<std::string> why;
  if (unreachable) why.emplace_back("a server did not start");
  if (p.failed > 0) why.push_back(fmt::format("{} failed", p.failed));
  if (p.invalid > 0) why.push_back(fmt::format("{} invalid", p.invalid));
  if (p.total > p.done()) why.push_back(fmt::format("{} not run", p.total - p.done()));
  if (why.empty()) why.emplace_back(fmt::format("exit {}", exit_code));
  return "failed: " + util::join(why, ", ");
}

std::string status_text(const StatusView& v) {
  const Progress& p = v.progress;
  std::string out = fmt::format("campaign {}\nrun directory {}\nstate {}\nupdated {}\n", v.campaign, v.run_dir, v.state,
                                util::format_utc(v.updated));
  out += fmt::format("points {}/{} with a final record (ok {}, skipped {}, invalid {}, failed {})\n", p.done(), p.total,
                     p.ok, p.skipped, p.invalid, p.failed);
  out += fmt::format("to run {}\n", v.to_run);
  out += fmt::format("current {}\n", v.current.empty() ? "-" : v.current);
  if (!v.point_progress.empty()) out += fmt::format("point progress {}\n", v.point_progress);
  out += fmt::format("eta {}\n", v.eta ? format_duration(*v.eta) : "unknown");
  return out;
}

util::Result<void> write_status(const std::filesystem::path& run_dir, const StatusView& v) {
  return results::write_status(results::RunLayout(run_dir), status_text(v));
}

}  // namespace servebench::campaign

namespace servebench::campaign {

util::Result<std::string> status_report(const std::filesystem::path& dir) {
  const results::RunLayout run(dir);
  auto spec = read_resolved_campaign(run);
  if (!spec) return util::failf(util::ErrorKind::bad_input, "{} is not a run directory: {}", dir.string(), spec.error().message);
  auto ledger = results::read_ledger(run.ledger());
  if (!ledger) return std::unexpected(ledger.error());
  std::string out = results::read_status(run).value_or("(no status.txt yet)\n");
  const auto planned = expand(*spec);
  const auto latest = ledger->latest();
  out += "\nfrom the ledger:\n";
  for (std::size_t a = 0; a < spec->arms.size(); ++a) {
    std::vector<PlannedPoint> mine;
    for (const auto& p : planned) {
      if (p.arm == a) mine.push_back(p);
    }
    const Progress pr = progress_of(*spec, mine, latest);
    out += fmt::format("  {:<24} ok {}, skipped {}, invalid {}, failed {}, not run {} (of {})\n", spec->arms[a].name, pr.ok,
                       pr.skipped, pr.invalid, pr.failed, pr.total - pr.done(), pr.total);
  }
  for (const auto& r : latest) {
    if (r.status == results::PointStatus::ok) continue;
    out += fmt::format("  {:<32} {:<8} {}\n", results::point_id(results::key_of(r)), results::to_string(r.status), r.reason);
  }
  if (const auto jobs = results::latest_jobs(*ledger); !jobs.empty()) {  // cluster executors (docs/scale-out.md)
    out += "\njobs:\n";
    for (const auto& j : jobs) {
      out += fmt::format("  {:<24} {} job {:<10} attempt {}  {:<12} {}  {}{}\n", j.arm, j.executor, j.job_id, j.attempt, j.state,
                         j.at, j.dir, j.reason.empty() ? "" : "  (" + j.reason + ")");
    }
  }
  for (const auto& issue : ledger->issues) out += fmt::format("  ledger: {}\n", issue.message);
  return out;
}

}  // namespace servebench::campaign
