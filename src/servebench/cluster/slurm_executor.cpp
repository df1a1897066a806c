#include "servebench/cluster/slurm_executor.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include <fmt/format.h>

#include "servebench/results/job_record.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/run_merge.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cluster {
namespace fs = std::filesystem;
namespace {

using campaign::ArmWork;
using results::JobRecord;
using results::PointStatus;

constexpr std::string_view k_resubmission = "resubmission";
// After scancel at the job timeout, how long the job may take to show a final state.
constexpr std::chrono::seconds k_cancel_grace{120};

struct Slot {
  ArmWork work;
  JobRecord job;
  util::TimePoint deadline;
  bool cancel_sent = false;
};

class Submitter {
 public:
  Submitter(const SlurmOptions& options, Scheduler& scheduler, campaign::RunHost& host)
      : m_options(options), m_scheduler(scheduler), m_host(host), m_clock(util::steady_clock()) {}

  util::Result<void> run(const std::vector<ArmWork>& work);

 private:
  const campaign::ArmSpec& arm_of(const ArmWork& w) const { return m_host.spec().arms[w.arm]; }
  util::Result<void> submit(const ArmWork& w);
  util::Result<bool> poll(Slot& slot);
  util::Result<void> finish(Slot& slot, const SlurmJobState& state);
  util::Result<void> seed_job_ledger(const ArmWork& w, const results::RunLayout& job);
  util::Result<void> note(JobRecord& job, std::string state, std::string reason = "");
  void say(const std::string& line) {
    fmt::print(m_host.console(), "{}\n", line);
    std::fflush(m_host.console());
  }
  void update_status();

  const SlurmOptions& m_options;
  Scheduler& m_scheduler;
  campaign::RunHost& m_host;
  const util::Clock& m_clock;
  std::deque<ArmWork> m_pending;
  std::vector<Slot> m_slots;
  std::map<std::string, int> m_attempts;   // the highest attempt recorded per arm
  std::set<std::string> m_resubmitted;     // arms whose one resubmission is used
  std::set<std::string> m_resubmission_due;  // arms whose next submission is that resubmission
};

util::Result<void> Submitter::note(JobRecord& job, std::string state, std::string reason) {
  job.state = std::move(state);
  if (!reason.empty()) job.reason = std::move(reason);  // "resubmission" stays with the job
  job.at = util::format_utc(m_host.wall_clock().now());
  return m_host.record_fact(results::to_json(job));
}

void Submitter::update_status() {
  std::vector<std::string> parts;
  for (const auto& s : m_slots) parts.push_back(fmt::format("{} job {} {}", s.job.arm, s.job.job_id, s.job.state));
  m_host.status("running", fmt::format("slurm: {}{}", parts.empty() ? "no job" : util::join(parts, ", "),
                                       m_pending.empty() ? "" : fmt::format("; {} arm(s) waiting", m_pending.size())));
}

// The job's run directory starts with the arm's settled records, so the job measures exactly the
// points the campaign still needs (it resumes like any campaign run).
util::Result<void> Submitter::seed_job_ledger(const ArmWork& w, const results::RunLayout& job) {
  auto ledger = m_host.ledger();
  if (!ledger) return std::unexpected(ledger.error());
  std::set<results::PointKey> wanted;
  for (const auto& p : w.points) wanted.insert(campaign::key_of(m_host.spec(), p));
  if (auto ok = util::make_dirs(job.dir()); !ok) return ok;
  for (const auto& r : ledger->latest()) {
    if (r.arm != arm_of(w).name || wanted.contains(results::key_of(r))) continue;
    if (auto ok = results::append_point(job.ledger(), r); !ok) return ok;
  }
  return {};
}

util::Result<void> Submitter::submit(const ArmWork& w) {
  const campaign::ArmSpec& arm = arm_of(w);
  const int attempt = ++m_attempts[arm.name];
  const results::RunLayout& main = m_host.layout();
  const results::RunLayout job(results::job_dir(main, arm.name, attempt));
  if (auto ok = seed_job_ledger(w, job); !ok) return ok;
  SlurmJobSpec spec;
  spec.campaign = m_host.spec().name;
  spec.arm = arm.name;
  spec.attempt = attempt;
  spec.nodes = arm.nodes;
  spec.gpus_per_node = m_options.request_gpus ? gpus_per_node(arm) : 0;
  spec.self_exe = m_options.self_exe;
  spec.campaign_file = fs::absolute(main.campaign_file());
  spec.job_dir = fs::absolute(job.dir());
  spec.log = fs::absolute(results::job_log(main, arm.name, attempt));
  spec.sbatch_args = m_options.sbatch_args;
  spec.rerun_invalid = m_host.rerun_invalid();
  const fs::path script = results::job_script(main, arm.name, attempt);
  if (auto ok = util::write_file_atomic(script, render_sbatch(spec)); !ok) return ok;
  auto id = m_scheduler.submit(script);
  if (!id) {
    say(fmt::format("arm {}: {}", arm.name, id.error().message));
    m_host.note_unreachable();
    return m_host.fail_rest(w, "not submitted: " + id.error().message);
  }
  Slot slot{w, {}, m_clock.now() + m_options.job_timeout, false};
  slot.job.arm = arm.name;
  slot.job.job_id = *id;
  slot.job.attempt = attempt;
  slot.job.dir = results::job_dir_ref(arm.name, attempt);
  const bool again = m_resubmission_due.erase(arm.name) > 0;  // else a first job, or a rerun's retry
  if (auto ok = note(slot.job, "SUBMITTED", again ? std::string(k_resubmission) : ""); !ok) return ok;
  say(fmt::format("arm {}: submitted slurm job {}{} ({} point(s), run directory {})", arm.name, *id,
                  again ? " (resubmission)" : "", w.points.size(), slot.job.dir));
  m_slots.push_back(std::move(slot));
  return {};
}

util::Result<bool> Submitter::poll(Slot& slot) {
  auto state = m_scheduler.query(slot.job.job_id);
  if (!state) {
    say(fmt::format("arm {}: cannot query slurm job {}: {}", slot.job.arm, slot.job.job_id, state.error().message));
    return false;
  }
  if (state->state.empty()) state->state = "UNKNOWN";  // no tool knows it any more: it ended, somehow
  const bool done = results::job_state_final(state->state) || state->state == "UNKNOWN";
  if (state->state != slot.job.state) {
    if (auto ok = note(slot.job, state->state); !ok) return std::unexpected(ok.error());
    say(fmt::format("arm {}: slurm job {} {}", slot.job.arm, slot.job.job_id, state->state));
  }
  if (done) {
    if (auto ok = finish(slot, *state); !ok) return std::unexpected(ok.error());
    return true;
  }
  if (m_clock.now() < slot.deadline) return false;
  if (!slot.cancel_sent) {
    say(fmt::format("arm {}: slurm job {} ran past --job-timeout-s {}; cancelling it", slot.job.arm, slot.job.job_id,
                    m_options.job_timeout.count()));
    (void)m_scheduler.cancel(slot.job.job_id);
    slot.cancel_sent = true;
    slot.deadline = m_clock.now() + k_cancel_grace;
    return false;
  }
  if (auto ok = note(slot.job, "LOST", "no final state after scancel"); !ok) return std::unexpected(ok.error());
  if (auto ok = finish(slot, {"LOST", std::nullopt}); !ok) return std::unexpected(ok.error());
  return true;
}

util::Result<void> Submitter::finish(Slot& slot, const SlurmJobState& state) {
  const results::RunLayout& main = m_host.layout();
  const results::RunLayout job(main.dir() / slot.job.dir);
  auto ledger = results::read_latest(job.ledger());
  if (!ledger) return std::unexpected(ledger.error());
  std::map<results::PointKey, const campaign::PlannedPoint*> wanted;
  for (const auto& p : slot.work.points) wanted.emplace(campaign::key_of(m_host.spec(), p), &p);
  std::vector<results::PointRecord> taken;
  std::set<results::PointKey> measured;
  for (const auto& r : ledger->records) {
    if (r.campaign != m_host.spec().name || !wanted.contains(results::key_of(r))) continue;
    if (auto ok = m_host.record(r); !ok) return ok;
    taken.push_back(r);
    if (r.status != PointStatus::failed) measured.insert(results::key_of(r));
  }
  if (auto ok = results::copy_arm_files(job, main, slot.job.arm, taken); !ok) return ok;
  ArmWork rest{slot.work.arm, {}};
  for (const auto& p : slot.work.points) {
    if (!measured.contains(campaign::key_of(m_host.spec(), p))) rest.points.push_back(p);
  }
  if (rest.points.empty()) return {};
  const std::string log = results::job_dir_ref(slot.job.arm, slot.job.attempt) + ".log";
  if (!m_resubmitted.contains(slot.job.arm)) {
    m_resubmitted.insert(slot.job.arm);
    m_resubmission_due.insert(slot.job.arm);
    say(fmt::format("arm {}: slurm job {} ended {} with {} point(s) not measured; resubmitting once (log {})", slot.job.arm,
                    slot.job.job_id, state.state, rest.points.size(), log));
    m_pending.push_front(std::move(rest));
    return {};
  }
  // The job's own ledger has a failed record for the points it could not run; points it never got
  // to (cancelled, node lost) are recorded here.
  if (state.exit_code == 3) m_host.note_unreachable();
  return m_host.fail_rest(rest, fmt::format("slurm job {} (attempt {}) ended {} without measuring the point; see {}",
                                            slot.job.job_id, slot.job.attempt, state.state, log));
}

util::Result<void> Submitter::run(const std::vector<ArmWork>& work) {
  auto ledger = m_host.ledger();
  if (!ledger) return std::unexpected(ledger.error());
  std::map<std::string, JobRecord> last;  // per arm, its job of the highest attempt
  for (const auto& j : results::latest_jobs(*ledger)) {
    if (j.executor != "slurm") continue;
    m_attempts[j.arm] = std::max(m_attempts[j.arm], j.attempt);
    if (auto it = last.find(j.arm); it == last.end() || it->second.attempt <= j.attempt) last[j.arm] = j;
    // An arm's one resubmission belongs to the run directory, not to one submitter process: a
    // rerun (after a kill -9 or not) that retries its failed points gets no second one.
    if (j.attempt > 1) m_resubmitted.insert(j.arm);
  }
  for (const auto& w : work) {
    const auto it = last.find(arm_of(w).name);
    if (it != last.end() && !results::job_state_final(it->second.state) && it->second.state != "UNKNOWN" &&
        it->second.state != "LOST") {
      say(fmt::format("arm {}: re-attaching to slurm job {} (last seen {})", it->first, it->second.job_id, it->second.state));
      m_slots.push_back({w, it->second, m_clock.now() + m_options.job_timeout, false});
    } else {
      m_pending.push_back(w);
    }
  }
  const auto limit = static_cast<std::size_t>(std::max(1, m_options.max_parallel_arms));
  while (!m_pending.empty() || !m_slots.empty()) {
    if (m_host.stop().requested()) {
      std::vector<std::string> ids;
      for (const auto& s : m_slots) ids.push_back(s.job.job_id);
      say(fmt::format("submitter stopped; slurm job(s) {} keep running: run the same command again to collect them, "
                      "or scancel them", ids.empty() ? "none" : util::join(ids, ", ")));
      return {};
    }
    while (m_slots.size() < limit && !m_pending.empty()) {
      ArmWork w = std::move(m_pending.front());
      m_pending.pop_front();
      if (auto ok = submit(w); !ok) return ok;
    }
    for (std::size_t i = 0; i < m_slots.size();) {
      auto done = poll(m_slots[i]);
      if (!done) return std::unexpected(done.error());
      if (*done) m_slots.erase(m_slots.begin() + static_cast<std::ptrdiff_t>(i));
      else ++i;
    }
    update_status();
    if (!m_slots.empty() || !m_pending.empty()) (void)m_host.stop().wait_for(m_options.poll);
  }
  return {};
}

}  // namespace

int gpus_per_node(const campaign::ArmSpec& arm) {
  const int nodes = std::max(1, arm.nodes);
  return (arm.gpus + nodes - 1) / nodes;
}

util::Result<void> SlurmExecutor::run(campaign::RunHost& host, const std::vector<campaign::ArmWork>& work) {
  Submitter submitter(m_options, *m_scheduler, host);
  return submitter.run(work);
}

}  // namespace servebench::cluster
