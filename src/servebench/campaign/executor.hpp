#pragma once
// Where an arm runs. The runner decides *what* is left to run (the matrix minus the ledger's
// settled points) and owns the run directory; an Executor decides *where* each arm runs and hands
// every point record back through the RunHost, which appends it to the campaign's ledger. The
// local executor — the default, and the runner's behaviour without one — runs each arm in turn as a
// child process of this campaign. Cluster executors (the `cluster` module: Slurm) run each arm as a
// job that writes its own run directory and merge its records back (docs/scale-out.md).
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/point.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

// One arm and the points of it that are not settled yet, in run order.
struct ArmWork {
  std::size_t arm = 0;  // index into CampaignSpec::arms
  std::vector<PlannedPoint> points;
};

// What the runner offers an executor while a campaign runs.
class RunHost {
 public:
  virtual ~RunHost() = default;
  virtual const CampaignSpec& spec() const = 0;
  virtual const results::RunLayout& layout() const = 0;
  virtual StopSignal& stop() = 0;
  virtual std::FILE* console() = 0;
  virtual const util::WallClock& wall_clock() const = 0;
  virtual bool rerun_invalid() const = 0;
  // Runs the arm here, as today: before hook, server as a child process, every point, after hook.
  virtual util::Result<void> run_here(const ArmWork& work) = 0;
  // Appends a point record to the campaign's ledger and prints its line.
  virtual util::Result<void> record(const results::PointRecord& r) = 0;
  // Records every point of `work` that has no settled record as failed, with `why`.
  virtual util::Result<void> fail_rest(const ArmWork& work, const std::string& why) = 0;
  // Appends a record of another schema (job states) to the ledger.
  virtual util::Result<void> record_fact(const boost::json::object& o) = 0;
  // The campaign's ledger as recorded so far (point records and facts).
  virtual util::Result<results::Ledger> ledger() const = 0;
  // status.txt: `state` and what is going on now.
  virtual void status(const std::string& state, const std::string& current) = 0;
  // An arm's server could not be reached or started (exit 3 at the end).
  virtual void note_unreachable() = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string_view name() const = 0;
  // Runs every work item (arms in campaign order) until done or a stop is requested. Fails only
  // when the campaign cannot go on (the run directory, the scheduler unusable); an arm that fails
  // is recorded as failed points and the others go on.
  virtual util::Result<void> run(RunHost& host, const std::vector<ArmWork>& work) = 0;
};

// Today's behaviour: each arm in turn, here.
class LocalExecutor final : public Executor {
 public:
  std::string_view name() const override { return "local"; }
  util::Result<void> run(RunHost& host, const std::vector<ArmWork>& work) override;
};

}  // namespace servebench::campaign
