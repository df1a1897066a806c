#pragma once
// What /proc says about processes: a process's state, parent, process group and start time
// (/proc/<pid>/stat fields 3, 4, 5 and 22), and the live members of a process group. A pid is
// reused by the kernel; pid + start time names one process for as long as the machine runs.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace servebench::campaign {

struct ProcStat {
  pid_t pid = 0;
  char state = '?';  // R, S, D, Z (zombie), T, ...
  pid_t ppid = 0;
  pid_t pgrp = 0;
  std::uint64_t start_time = 0;  // clock ticks after boot
};

// /proc/<pid>/stat, parsed; nullopt when the process does not exist (or the line is malformed).
std::optional<ProcStat> read_proc_stat(pid_t pid);
// Every process in group `pgid` that has not exited (zombies excluded), in pid order.
std::vector<ProcStat> live_group_members(pid_t pgid);
// Waits until group `pgid` has no live member or `timeout` passes; true when it is gone.
bool wait_group_gone(pid_t pgid, std::chrono::milliseconds timeout);

// server.pid: the process group (= its leader's pid) and the leader's start time, one line
// "PID START_TIME". parse_pid_record accepts the older "PID" line (start time unknown: 0).
struct PidRecord {
  pid_t pid = 0;
  std::uint64_t start_time = 0;
};
std::string pid_record_text(const PidRecord& r);
std::optional<PidRecord> parse_pid_record(const std::string& text);

// The live processes a recorded group left behind: the group's members when its leader is the
// recorded process (same pid and start time) or has exited; none when the pid now names another
// process (a reused pid is never anyone's survivor). Members started before the recorded leader
// cannot be its children and are left alone.
std::vector<ProcStat> survivors(const PidRecord& r);

// Before an arm launches: when `pid_file` records a group that still has survivors (a campaign
// killed with -9 cannot stop its server; a shell's child has no parent-death signal), SIGTERM the
// group, wait up to `grace`, SIGKILL what is left and wait until it is gone. Removes the file.
// Returns what was done for the console ("" when nothing survived).
std::string stop_recorded_group(const std::filesystem::path& pid_file, std::chrono::milliseconds grace);

}  // namespace servebench::campaign
