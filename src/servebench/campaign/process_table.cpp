#include "servebench/campaign/process_table.hpp"

#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {

std::optional<ProcStat> read_proc_stat(pid_t pid) {
  auto text = util::read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!text) return std::nullopt;
  // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice threads itrealvalue starttime ...": comm may hold spaces and ')'.
  const auto close = text->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::vector<std::string_view> fields;
  for (const auto f : util::split(std::string_view(*text).substr(close + 1), ' ')) {
    if (!util::trim(f).empty()) fields.push_back(util::trim(f));
  }
  if (fields.size() < 20) return std::nullopt;  // fields[0] is field 3 (state), fields[19] field 22
  ProcStat s;
  s.pid = pid;
  s.state = fields[0].empty() ? '?' : fields[0][0];
  const auto number = [](std::string_view v) { return std::strtoull(std::string(v).c_str(), nullptr, 10); };
  s.ppid = static_cast<pid_t>(number(fields[1]));
  s.pgrp = static_cast<pid_t>(number(fields[2]));
  s.start_time = number(fields[19]);
  return s;
}

std::vector<ProcStat> live_group_members(pid_t pgid) {
  std::vector<ProcStat> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    auto s = read_proc_stat(static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10)));
    if (s && s->pgrp == pgid && s->state != 'Z' && s->state != 'X') out.push_back(*s);
  }
  std::sort(out.begin(), out.end(), [](const ProcStat& a, const ProcStat& b) { return a.pid < b.pid; });
  return out;
}

bool wait_group_gone(pid_t pgid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (live_group_members(pgid).empty()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // processes that are not our children: no wait(2)
  }
}

std::string pid_record_text(const PidRecord& r) { return std::to_string(r.pid) + " " + std::to_string(r.start_time) + "\n"; }

std::optional<PidRecord> parse_pid_record(const std::string& text) {
  std::vector<std::string_view> words;
  for (const auto w : util::split(util::trim(text), ' ')) {
    if (!w.empty()) words.push_back(w);
  }
  if (words.empty() || words.size() > 2) return std::nullopt;
  auto pid = util::parse_int(words[0], "pid");
  if (!pid || *pid <= 1 || *pid > (std::int64_t{1} << 31) - 1) return std::nullopt;
  PidRecord r;
  r.pid = static_cast<pid_t>(*pid);
  if (words.size() == 2) {
    auto start = util::parse_int(words[1], "start time");
    if (!start || *start < 0) return std::nullopt;
    r.start_time = static_cast<std::uint64_t>(*start);
  }
  return r;
}

std::vector<ProcStat> survivors(const PidRecord& r) {
  const auto leader = read_proc_stat(r.pid);
  // A process now called r.pid that is not the recorded one: the group id was reused, or the
  // record has no start time to tell. Either way nothing here is provably ours.
  if (leader && (r.start_time == 0 || leader->start_time != r.start_time)) return {};
  std::vector<ProcStat> out;
  for (const ProcStat& s : live_group_members(r.pid)) {
    if (s.start_time >= r.start_time) out.push_back(s);
  }
  return out;
}

std::string stop_recorded_group(const std::filesystem::path& pid_file, std::chrono::milliseconds grace) {
  auto text = util::read_file(pid_file);
  if (!text) return "";
  std::error_code ec;
  const auto record = parse_pid_record(*text);
  const auto left = record ? survivors(*record) : std::vector<ProcStat>{};
  if (left.empty()) {
    std::filesystem::remove(pid_file, ec);
    return "";
  }
  std::vector<std::string> pids;
  for (const auto& s : left) pids.push_back(std::to_string(s.pid));
  kill(-record->pid, SIGTERM);
  bool gone = wait_group_gone(record->pid, grace);
  if (!gone) {
    kill(-record->pid, SIGKILL);
    gone = wait_group_gone(record->pid, std::chrono::seconds(10));
  }
  std::filesystem::remove(pid_file, ec);
  return fmt::format("{} the server an earlier run left behind (process group {}: pid {}){}",
                     gone ? "stopped" : "could not stop", record->pid, util::join(pids, ", "),
                     gone ? "" : "; it still runs beside the new one");
}

}  // namespace servebench::campaign
