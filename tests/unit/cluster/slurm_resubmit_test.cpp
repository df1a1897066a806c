// The Slurm submitter's resubmit-once rule across submitter processes, on a scheduler that fails
// every job: the first run submits attempt 1 and its one resubmission; a rerun of the same run
// directory (after a kill -9 of the first, or not) retries the failed points in one more job and
// never gets a second resubmission.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "servebench/campaign/executor.hpp"
#include "servebench/campaign/matrix.hpp"
#include "servebench/campaign/stop_signal.hpp"
#include "servebench/cluster/slurm_executor.hpp"
#include "servebench/results/job_record.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::cluster {
namespace {

// Every job is accepted and has FAILED (exit 3) when first asked.
class FailingScheduler final : public Scheduler {
 public:
  explicit FailingScheduler(int* submitted) : m_submitted(submitted) {}
  util::Result<std::string> submit(const std::filesystem::path&) override { return std::to_string(++*m_submitted); }
  util::Result<SlurmJobState> query(const std::string&) override { return SlurmJobState{"FAILED", 3}; }
  util::Result<void> cancel(const std::string&) override { return {}; }

 private:
  int* m_submitted;
};

// A run host over a run directory; the jobs never write a ledger, so nothing is measured.
class Host final : public campaign::RunHost {
 public:
  Host(const campaign::CampaignSpec& spec, std::filesystem::path dir) : m_spec(spec), m_layout(std::move(dir)) {
    m_console = std::fopen("/dev/null", "w");
  }
  ~Host() override { std::fclose(m_console); }
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  const campaign::CampaignSpec& spec() const override { return m_spec; }
  const results::RunLayout& layout() const override { return m_layout; }
  campaign::StopSignal& stop() override { return campaign::StopSignal::install(); }
  std::FILE* console() override { return m_console; }
  const util::WallClock& wall_clock() const override { return util::system_wall_clock(); }
  bool rerun_invalid() const override { return false; }
  util::Result<void> run_here(const campaign::ArmWork&) override { return {}; }
  util::Result<void> record(const results::PointRecord& r) override { return results::append_point(m_layout.ledger(), r); }
  util::Result<void> fail_rest(const campaign::ArmWork& work, const std::string& why) override {
    for (const auto& p : work.points) {
      const auto key = campaign::key_of(m_spec, p);
      results::PointRecord r;
      r.campaign = m_spec.name;
      r.arm = key.arm;
      r.scenario = key.scenario;
      r.concurrency = key.concurrency;
      r.status = results::PointStatus::failed;
      r.reason = why;
      if (auto ok = results::append_point(m_layout.ledger(), r); !ok) return ok;
    }
    return {};
  }
  util::Result<void> record_fact(const boost::json::object& o) override {
    return results::append_object(m_layout.ledger(), o);
  }
  util::Result<results::Ledger> ledger() const override { return results::read_ledger(m_layout.ledger()); }
  void status(const std::string&, const std::string&) override {}
  void note_unreachable() override {}

 private:
  const campaign::CampaignSpec& m_spec;
  results::RunLayout m_layout;
  std::FILE* m_console = nullptr;
};

campaign::CampaignSpec one_arm_spec() {
  campaign::CampaignSpec spec;
  spec.name = "resubmit";
  campaign::ArmSpec arm;
  arm.name = "bad";
  arm.gpus = 1;
  spec.arms.push_back(arm);
  campaign::ScenarioSpec s;
  s.name = "chat";
  s.isl = 128;
  s.osl = 8;
  spec.scenarios.push_back(s);
  return spec;
}

std::vector<campaign::ArmWork> work_of_bad() {
  campaign::ArmWork w;
  for (std::int64_t c : {1, 2}) w.points.push_back({0, 0, c, c, std::nullopt});
  return {w};
}

// Each attempt with its job record's reason ("resubmission" or "").
std::map<int, std::string> attempts(const std::filesystem::path& dir) {
  std::map<int, std::string> out;
  const auto ledger = results::read_ledger(results::RunLayout(dir).ledger());
  if (!ledger) return out;
  for (const auto& j : results::latest_jobs(*ledger)) out[j.attempt] = j.reason;
  return out;
}

std::filesystem::path fresh_dir() {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("slurm_resubmit_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(SlurmResubmit, TheOneResubmissionIsNotRenewedByARerun) {
  const auto dir = fresh_dir();
  const auto spec = one_arm_spec();
  SlurmOptions options;
  options.poll = std::chrono::milliseconds(1);
  options.request_gpus = false;
  int submitted = 0;
  {
    Host host(spec, dir);
    SlurmExecutor executor(options, std::make_unique<FailingScheduler>(&submitted));
    ASSERT_TRUE(executor.run(host, work_of_bad()).has_value());
  }
  EXPECT_EQ(submitted, 2) << "attempt 1 and its one resubmission";
  EXPECT_EQ(attempts(dir), (std::map<int, std::string>{{1, ""}, {2, "resubmission"}}));
  {
    // A rerun retries the points still failed: one more job, and no resubmission of that one.
    Host host(spec, dir);
    SlurmExecutor executor(options, std::make_unique<FailingScheduler>(&submitted));
    ASSERT_TRUE(executor.run(host, work_of_bad()).has_value());
  }
  EXPECT_EQ(submitted, 3);
  EXPECT_EQ(attempts(dir), (std::map<int, std::string>{{1, ""}, {2, "resubmission"}, {3, ""}})) << "a retry, not a resubmission";
}

}  // namespace
}  // namespace servebench::cluster
