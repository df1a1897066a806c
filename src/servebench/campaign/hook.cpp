#include "servebench/campaign/hook.hpp"

#include <fmt/format.h>

#include "servebench/campaign/child_process.hpp"
#include "servebench/campaign/launch_plan.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {

util::Result<void> run_hook(const HookRun& hook) {
  const std::string banner = fmt::format("\n=== servebench campaign: {} hook of arm '{}': {}\n", hook.which, hook.arm, hook.command);
  if (auto ok = util::make_dirs(hook.log.parent_path()); !ok) return ok;
  if (auto ok = util::append_durable(hook.log, util::redact(banner)); !ok) return ok;
  SpawnSpec spawn = shell_spawn(hook.command,
                                {"SERVEBENCH_ARM=" + hook.arm, "SERVEBENCH_HOOK=" + hook.which,
                                 "SERVEBENCH_RUN_DIR=" + std::filesystem::absolute(hook.run_dir).string()},
                                hook.self_exe);
  spawn.log = hook.log;
  auto child = ChildProcess::spawn(spawn);
  if (!child) return std::unexpected(child.error());
  if (!child->wait_exit(k_hook_timeout)) {
    child->stop(std::chrono::seconds(10));
    return util::failf(util::ErrorKind::failed, "{} hook of arm '{}' did not finish within {} min; stopped", hook.which,
                       hook.arm, k_hook_timeout.count());
  }
  if (child->exit_status() == 0) return {};
  const auto tail = log_tail(hook.log, 5, child->log_start());
  return util::failf(util::ErrorKind::failed, "{} hook of arm '{}' {}{}{}", hook.which, hook.arm,
                     child->exit_description(), tail.empty() ? "" : ": ", util::join(tail, " | "));
}

}  // namespace servebench::campaign
