#include "servebench/results/job_record.hpp"

#include <array>
#include <map>

#include "servebench/util/json_text.hpp"

namespace servebench::results {

boost::json::object to_json(const JobRecord& j) {
  boost::json::object o{{"schema", k_job_schema}, {"arm", j.arm},     {"executor", j.executor}, {"job_id", j.job_id},
                        {"attempt", j.attempt},   {"state", j.state}, {"dir", j.dir},           {"at", j.at}};
  if (!j.reason.empty()) o["reason"] = j.reason;
  return o;
}

std::optional<JobRecord> job_from_json(const boost::json::object& o) {
  if (util::json_string(o, "schema").value_or("") != k_job_schema) return std::nullopt;
  JobRecord j;
  j.arm = util::json_string(o, "arm").value_or("");
  j.job_id = util::json_string(o, "job_id").value_or("");
  if (j.arm.empty() || j.job_id.empty()) return std::nullopt;
  j.executor = util::json_string(o, "executor").value_or("slurm");
  j.attempt = static_cast<int>(util::json_int(o, "attempt").value_or(1));
  j.state = util::json_string(o, "state").value_or("");
  j.dir = util::json_string(o, "dir").value_or("");
  j.at = util::json_string(o, "at").value_or("");
  j.reason = util::json_string(o, "reason").value_or("");
  return j;
}

std::vector<JobRecord> latest_jobs(const Ledger& ledger) {
  std::vector<JobRecord> out;
  std::map<std::pair<std::string, std::string>, std::size_t> slot;
  for (const auto& o : ledger.others) {
    auto j = job_from_json(o);
    if (!j) continue;
    const auto [it, inserted] = slot.try_emplace({j->executor, j->job_id}, out.size());
    if (inserted) out.push_back(std::move(*j));
    else out[it->second] = std::move(*j);
  }
  return out;
}

bool job_state_final(std::string_view state) {
  // Slurm's job states that end a job (squeue/sacct/scontrol spell them the same way).
  constexpr std::array<std::string_view, 11> k_final{"COMPLETED", "FAILED",    "CANCELLED", "TIMEOUT",
                                                     "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE",
                                                     "OUT_OF_MEMORY", "SPECIAL_EXIT", "REVOKED"};
  const std::string_view word = state.substr(0, state.find(' '));  // "CANCELLED by 0"
  for (const auto f : k_final) {
    if (word == f) return true;
  }
  return false;
}

}  // namespace servebench::results
