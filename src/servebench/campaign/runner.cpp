#include "servebench/campaign/runner.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "servebench/campaign/arm_session.hpp"
#include "servebench/campaign/assets.hpp"
#include "servebench/campaign/executor.hpp"
#include "servebench/campaign/live_progress.hpp"
#include "servebench/campaign/run_directory.hpp"
#include "servebench/campaign/status_file.hpp"
#include "servebench/campaign/telemetry.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/exit_code.hpp"

namespace servebench::campaign {
namespace {

using results::PointStatus;

// How often status.txt is rewritten while a point runs (its contract: at least every 5 s).
constexpr auto k_status_interval = std::chrono::seconds(2);

bool settled(PointStatus s, bool rerun_invalid) {
  return s == PointStatus::ok || s == PointStatus::skipped || (s == PointStatus::invalid && !rerun_invalid);
}

std::string number(double v, const char* unit) {
  return std::isnan(v) ? "-" : fmt::format("{:.1f} {}", v, unit);
}

// One line per recorded point on the console.
void print_point(std::FILE* out, std::size_t n, std::size_t total, const results::PointRecord& r,
                 const PointOutcome* outcome) {
  std::string line = fmt::format("[{}/{}] {}  {}", n, total, results::point_id(results::key_of(r)), results::to_string(r.status));
  if (r.status != PointStatus::skipped && r.status != PointStatus::failed) {
    line += fmt::format("  eff {}  ttft {}  tpot {}  out {}", r.effective_concurrency, number(r.ttft_ms.mean, "ms"),
                        number(r.tpot_ms.mean, "ms"), number(r.throughput.output_tok_per_s, "tok/s"));
    if (r.cache.hit_rate) line += fmt::format("  hit {:.4f}", *r.cache.hit_rate);
    if (r.accept_length) line += fmt::format("  accept {:.2f}", *r.accept_length);
  }
  if (outcome != nullptr) {
    line += fmt::format("  {:.1f} s (protocol {:.3f} s)", r.duration_s, std::chrono::duration<double>(outcome->overhead).count());
  }
  if (!r.reason.empty()) line += "  — " + r.reason;
  fmt::print(out, "{}\n", line);
  std::fflush(out);
}

// The state of one campaign run: the ledger, the plan and what is left.
class Run final : public RunHost {
 public:
  Run(const CampaignSpec& spec, const RunOptions& options, RunDirectory& dir, StopSignal& stop)
      : m_spec(spec), m_options(options), m_dir(dir), m_stop(stop), m_planned(expand(spec, options.only)),
        m_live(options.console, options.progress && LiveProgress::is_terminal(options.console)) {}

  util::Result<int> execute();
  // status.txt's last word on a run that ended early: "failed: <why>".
  void record_failure(const std::string& why) { update_status("failed: " + why, ""); }

  // RunHost
  const CampaignSpec& spec() const override { return m_spec; }
  const results::RunLayout& layout() const override { return m_dir.layout(); }
  StopSignal& stop() override { return m_stop; }
  std::FILE* console() override { return m_options.console; }
  const util::WallClock& wall_clock() const override { return *m_options.clock.wall; }
  bool rerun_invalid() const override { return m_options.rerun_invalid; }
  util::Result<void> run_here(const ArmWork& work) override { return run_arm(work.arm, work.points); }
  util::Result<void> record(const results::PointRecord& r) override { return record(r, nullptr); }
  util::Result<void> fail_rest(const ArmWork& work, const std::string& why) override;
  util::Result<void> record_fact(const boost::json::object& o) override { return results::append_object(m_dir.ledger(), o); }
  util::Result<results::Ledger> ledger() const override { return results::read_ledger(m_dir.ledger()); }
  void status(const std::string& state, const std::string& current) override { update_status(state, current); }
  void note_unreachable() override { m_unreachable = true; }

 private:
  SessionEnv session_env() {
    return {m_dir.path(), self_executable(), &m_stop, m_options.console, m_options.tool, m_options.clock, m_options.launch_wrapper};
  }
  util::Result<void> load_ledger();
  util::Result<void> run_arm(std::size_t arm, const std::vector<PlannedPoint>& points);
  // Runs points[i]; false when the arm's remaining points cannot run (recorded as failed) or a stop came.
  util::Result<bool> run_one(ArmSession& session, const std::vector<PlannedPoint>& points, std::size_t i);
  util::Result<void> record(const results::PointRecord& r, const PointOutcome* outcome);
  void fail_all(const ArmContext& ctx, const std::vector<PlannedPoint>& points, std::size_t from, const std::string& why);
  void update_status(const std::string& state, const std::string& current);
  int exit_code();

  const CampaignSpec& m_spec;
  const RunOptions& m_options;
  RunDirectory& m_dir;
  StopSignal& m_stop;
  std::vector<PlannedPoint> m_planned;
  std::map<results::PointKey, PointStatus> m_latest;
  std::vector<results::PointRecord> m_latest_records;
  std::set<results::PointKey> m_recorded_now;  // points recorded by this process
  std::size_t m_to_run = 0, m_recorded = 0, m_measured = 0;
  util::Nanos m_measured_time{0};
  bool m_unreachable = false;
  std::vector<std::string> m_restore_failures;  // in-service servers that did not come back the same
  LiveProgress m_live;
};

util::Result<void> Run::load_ledger() {
  auto ledger = results::read_ledger(m_dir.ledger());
  if (!ledger) return std::unexpected(ledger.error());
  for (const auto& issue : ledger->issues) fmt::print(m_options.console, "warning: {}: {}\n", m_dir.ledger().string(), issue.message);
  m_latest_records = ledger->latest();
  for (const auto& r : m_latest_records) m_latest[results::key_of(r)] = r.status;
  return {};
}

util::Result<void> Run::record(const results::PointRecord& r, const PointOutcome* outcome) {
  if (auto ok = results::append_point(m_dir.ledger(), r); !ok) return ok;
  m_latest[results::key_of(r)] = r.status;
  // A point recorded again (a resubmitted cluster job measures it anew) is still one point of the plan.
  const bool again = !m_recorded_now.insert(results::key_of(r)).second;
  std::erase_if(m_latest_records, [&](const results::PointRecord& x) { return results::key_of(x) == results::key_of(r); });
  m_latest_records.push_back(r);
  if (!again) {
    ++m_recorded;
    if (m_to_run > 0) --m_to_run;
  }
  m_live.clear();
  print_point(m_options.console, m_recorded, m_recorded + m_to_run, r, outcome);
  return {};
}

void Run::fail_all(const ArmContext& ctx, const std::vector<PlannedPoint>& points, std::size_t from, const std::string& why) {
  for (std::size_t i = from; i < points.size(); ++i) {
    if (auto ok = record(failed_record(ctx, points[i], why), nullptr); !ok) {
      fmt::print(m_options.console, "error: {}\n", ok.error().message);
      return;
    }
  }
}

util::Result<void> Run::fail_rest(const ArmWork& work, const std::string& why) {
  ArmSession session(m_spec, m_spec.arms[work.arm], session_env());  // not opened: only its context
  for (const auto& p : work.points) {
    if (m_recorded_now.contains(key_of(m_spec, p))) continue;
    if (auto ok = record(failed_record(session.context(), p, why), nullptr); !ok) return ok;
  }
  return {};
}

void Run::update_status(const std::string& state, const std::string& current) {
  StatusView v;
  v.campaign = m_spec.name;
  v.run_dir = m_dir.path().string();
  v.state = state;
  v.progress = progress_of(m_spec, m_planned, m_latest_records);
  v.to_run = m_to_run;
  v.current = current;
  v.point_progress = m_live.status_text();
  v.eta = estimate_eta(m_measured_time, m_measured, m_to_run);
  v.updated = m_options.clock.wall->now();
  if (auto ok = write_status(m_dir.path(), v); !ok) fmt::print(m_options.console, "warning: {}\n", ok.error().message);
}

util::Result<void> Run::run_arm(std::size_t arm_index, const std::vector<PlannedPoint>& points) {
  const ArmSpec& arm = m_spec.arms[arm_index];
  ArmSession session(m_spec, arm, session_env());
  update_status("running", "arm " + arm.name + " starting");
  if (auto opened = session.open(); !opened) {
    if (m_stop.requested()) return {};
    m_unreachable = m_unreachable || opened.error().kind == util::ErrorKind::unreachable;
    if (opened.error().kind == util::ErrorKind::bad_input || opened.error().kind == util::ErrorKind::io) return opened;
    fmt::print(m_options.console, "arm {}: {}\n", arm.name, opened.error().message);
    fail_all(session.context(), points, 0, opened.error().message);
  } else {
    for (std::size_t i = 0; i < points.size() && !m_stop.requested(); ++i) {
      auto more = run_one(session, points, i);
      if (!more) return std::unexpected(more.error());
      if (!*more) break;
    }
  }
  update_status("running", "arm " + arm.name + " stopping");
  if (auto ok = session.close(); !ok) fmt::print(m_options.console, "arm {}: {}\n", arm.name, ok.error().message);
  if (const std::string failure = session.restore_failure(); !failure.empty()) {
    m_restore_failures.push_back(fmt::format("arm {}: {}", arm.name, failure));
  }
  return {};
}

util::Result<bool> Run::run_one(ArmSession& session, const std::vector<PlannedPoint>& points, std::size_t i) {
  const PlannedPoint& p = points[i];
  const ScenarioSpec& s = m_spec.scenarios[p.scenario];
  update_status("running", results::point_id(key_of(m_spec, p)));
  if (!session.alive()) {
    // A stop request kills the server group itself: that death is the interruption, not a failure
    // to record.
    if (m_stop.requested()) return false;
    const std::string death = session.death_report();
    if (auto ok = session.relaunch(); !ok) {
      if (!m_stop.requested()) fail_all(session.context(), points, i, fmt::format("{}; {}", death, ok.error().message));
      return false;
    }
  }
  const PointCap cap = cap_point(s.isl, s.osl, p.concurrency, session.limits());
  if (!cap.skip_reason.empty()) {
    if (auto ok = record(skipped_record(session.context(), p, cap), nullptr); !ok) return std::unexpected(ok.error());
    return true;
  }
  const std::string id = results::point_id(key_of(m_spec, p));
  m_live.begin_point({id, m_recorded + 1, m_recorded + m_to_run, estimate_eta(m_measured_time, m_measured, m_to_run)});
  ArmContext context = session.context();
  std::optional<util::TimePoint> last_status;
  context.on_progress = [&](const load::PhaseProgress& progress) {
    m_live.update(progress);
    const auto now = m_options.clock.steady->now();
    if (last_status && now - *last_status < k_status_interval) return;
    last_status = now;
    update_status("running", id);
  };
  const auto t0 = m_options.clock.steady->now();
  auto outcome = run_point(context, p, cap, m_stop);
  m_live.end_point();
  if (!outcome) return std::unexpected(outcome.error());
  if (outcome->interrupted) return false;
  m_measured_time += m_options.clock.steady->now() - t0;
  ++m_measured;
  if (auto ok = record(outcome->record, &*outcome); !ok) return std::unexpected(ok.error());
  if (outcome->server_died && i + 1 < points.size()) {
    if (auto ok = session.relaunch(); !ok) {
      if (!m_stop.requested()) {
        fail_all(session.context(), points, i + 1, "the server died and was not relaunched: " + ok.error().message);
      }
      return false;
    }
  }
  return true;
}

int Run::exit_code() {
  if (m_stop.requested()) return util::exit_code_for_signal(m_stop.signal_number());
  if (m_unreachable) return util::k_exit_unreachable;
  if (!m_restore_failures.empty()) return util::k_exit_measured_failure;
  for (const auto& p : m_planned) {
    const auto it = m_latest.find(key_of(m_spec, p));
    const bool settled = it != m_latest.end() && it->second != PointStatus::failed && it->second != PointStatus::invalid;
    if (!settled) return util::k_exit_measured_failure;
  }
  return util::k_exit_ok;
}

util::Result<int> Run::execute() {
  if (auto ok = load_ledger(); !ok) return std::unexpected(ok.error());
  std::vector<std::vector<PlannedPoint>> per_arm(m_spec.arms.size());
  for (const auto& p : m_planned) {
    const auto it = m_latest.find(key_of(m_spec, p));
    if (it != m_latest.end() && settled(it->second, m_options.rerun_invalid)) continue;
    per_arm[p.arm].push_back(p);
    ++m_to_run;
  }
  fmt::print(m_options.console, "campaign {}: {} points planned, {} already settled, {} to run; run directory {}\n",
             m_spec.name, m_planned.size(), m_planned.size() - m_to_run, m_to_run, m_dir.path().string());
  std::vector<ArmWork> work;
  for (std::size_t a = 0; a < per_arm.size(); ++a) {
    if (!per_arm[a].empty()) work.push_back({a, std::move(per_arm[a])});
  }
  LocalExecutor local;
  Executor& executor = m_options.executor != nullptr ? *m_options.executor : local;
  Telemetry telemetry(m_dir.layout(), m_spec.telemetry.interval);
  if (auto ok = executor.run(*this, work); !ok) {
    record_failure(ok.error().message);
    return std::unexpected(ok.error());
  }
  telemetry.stop();
  const int code = exit_code();
  const Progress p = progress_of(m_spec, m_planned, m_latest_records);
  std::string state = terminal_state(code, m_stop.signal_number(), p, m_unreachable);
  for (const auto& f : m_restore_failures) state += "; " + f;
  update_status(state, "");
  fmt::print(m_options.console, "campaign {}: {}; ok {}, skipped {}, invalid {}, failed {}, not run {} (exit {})\n", m_spec.name,
             state, p.ok, p.skipped, p.invalid, p.failed, p.total - p.done(), code);
  return code;
}

}  // namespace

util::Result<void> LocalExecutor::run(RunHost& host, const std::vector<ArmWork>& work) {
  for (const auto& w : work) {
    if (host.stop().requested()) break;
    if (auto ok = host.run_here(w); !ok) return ok;
  }
  return {};
}

std::filesystem::path default_out_dir(const CampaignSpec& spec, util::WallTime now) {
  std::string stamp = util::format_utc(now);  // 2026-11-29T15:00:00Z
  std::erase_if(stamp, [](char c) { return c == '-' || c == ':' || c == 'Z'; });
  std::replace(stamp.begin(), stamp.end(), 'T', '-');
  return std::filesystem::path("runs") / (spec.name + "-" + stamp);
}

namespace {

// What the file cannot say until the campaign runs, checked before the run directory is touched
// and any arm starts: every key variable is set.
util::Result<void> preflight(const CampaignSpec& spec) {
  if (spec.protocol.prompts.kind == PromptSourceKind::corpus) {
    const auto& path = spec.protocol.prompts.path;
    std::error_code ec;
    std::ifstream in(path, std::ios::binary);
    char byte = 0;
    if (!std::filesystem::is_regular_file(path, ec) || !in || !in.get(byte)) {
      return util::failf(util::ErrorKind::bad_input, "{}: protocol.prompts.path {}: {}", spec.file, path.string(),
                         !std::filesystem::exists(path, ec)        ? "no such file"
                         : !std::filesystem::is_regular_file(path, ec) ? "not a regular file"
                         : !in                                      ? "cannot be read"
                                                                    : "the corpus is empty");
    }
  }
  for (const ArmSpec& arm : spec.arms) {
    if (arm.api_key_env.empty()) continue;
    const char* key = std::getenv(arm.api_key_env.c_str());
    if (key == nullptr || *key == '\0') {
      return util::failf(util::ErrorKind::bad_input,
                         "{}: arm '{}': api_key_env names {}, which is not set (export the server's key in it)",
                         spec.file, arm.name, arm.api_key_env);
    }
  }
  return {};
}

}  // namespace

util::Result<int> run_campaign(const CampaignSpec& spec, const RunOptions& options) {
  if (auto ok = preflight(spec); !ok) return std::unexpected(ok.error());
  StopSignal& stop = StopSignal::install();
  auto assets = collect_assets(spec, self_executable());
  if (!assets) return std::unexpected(assets.error());
  auto dir = RunDirectory::claim(options.out, spec, [&](const results::RunLayout& run) -> util::Result<void> {
    auto changed = record_assets(run, *assets, options.allow_changed_assets, options.clock.wall->now());
    if (!changed) return std::unexpected(changed.error());
    for (const auto& c : *changed) {
      fmt::print(options.console, "warning: asset changed, resuming anyway: {}\n", results::describe(c, "recorded", "now"));
    }
    return {};
  });
  if (!dir) return std::unexpected(dir.error());
  Run run(spec, options, *dir, stop);
  // Whatever ends the run, status.txt ends in a terminal state with the reason.
  try {
    return run.execute();
  } catch (const std::exception& e) {
    run.record_failure(e.what());
    throw;
  }
}

}  // namespace servebench::campaign
