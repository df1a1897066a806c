#pragma once
// The ledger record `servebench.job/1` (docs/formats.md "Job record"): one state of one cluster job
// that runs an arm (Slurm today), appended whenever the submitter sees the state change. It is how
// a rerun after `kill -9` of the submitter finds the jobs still running and re-attaches to them
// instead of submitting again, and what `campaign status` lists.
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"

namespace servebench::results {

inline constexpr std::string_view k_job_schema = "servebench.job/1";

struct JobRecord {
  std::string arm;
  std::string executor = "slurm";
  std::string job_id;
  int attempt = 1;       // 1: first submission of the arm in this run directory, 2: its resubmission, ...
  std::string state;     // the scheduler's word: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...
  std::string dir;       // the job's run directory, relative to the campaign's (jobs/<arm>-<attempt>)
  std::string at;        // UTC time the state was seen
  std::string reason;    // why the submitter acted ("resubmitted: FAILED"), or ""
  friend bool operator==(const JobRecord&, const JobRecord&) = default;
};

boost::json::object to_json(const JobRecord& j);
// nullopt for an object of another schema or without arm and job_id.
std::optional<JobRecord> job_from_json(const boost::json::object& o);
// The last state of every job in the ledger, in the order the jobs first appear.
std::vector<JobRecord> latest_jobs(const Ledger& ledger);
// True for the states a job does not leave (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...).
bool job_state_final(std::string_view state);

// Where a cluster job of an arm keeps its files, inside the campaign's run directory:
// jobs/<arm>-<attempt>/ is the run directory the job writes (a campaign of that one arm),
// jobs/<arm>-<attempt>.sbatch the batch script, jobs/<arm>-<attempt>.log its output.
std::string job_dir_ref(std::string_view arm, int attempt);  // "jobs/<arm>-<attempt>", as job records cite it
std::filesystem::path job_dir(const RunLayout& run, std::string_view arm, int attempt);
std::filesystem::path job_script(const RunLayout& run, std::string_view arm, int attempt);
std::filesystem::path job_log(const RunLayout& run, std::string_view arm, int attempt);

}  // namespace servebench::results
