#pragma once
// An arm's `before` / `after` shell hook (e.g. stop and rename an in-service server, then restore
// it). Runs through /bin/sh -c in its own process group with output appended to
// arms/<arm>/hooks.log, `servebench` on PATH meaning this binary, and SERVEBENCH_ARM,
// SERVEBENCH_HOOK and SERVEBENCH_RUN_DIR set. A hook is never interrupted by the campaign's
// SIGINT (an `after` must finish restoring what `before` changed); it is bounded by k_hook_timeout.
#include <chrono>
#include <filesystem>
#include <string>

#include "servebench/util/result.hpp"

namespace servebench::campaign {

inline constexpr std::chrono::minutes k_hook_timeout{60};

struct HookRun {
  std::string arm, which;  // which: "before" | "after"
  std::string command;
  std::filesystem::path run_dir, log, self_exe;
};

// Runs the hook to completion; fails (failed) naming the hook and its exit status (and the last
// log lines) when it exits non-zero or times out.
util::Result<void> run_hook(const HookRun& hook);

}  // namespace servebench::campaign
