#pragma once
// How an arm's `launch` text becomes a process: `{port}` substituted, leading NAME=value words
// and the arm's env made environment, `servebench` meaning this very binary, and shell syntax
// (pipes, &&, $VAR, redirections) handed to /bin/sh -c. For `servebench serve-sim ... --port
// {port}` the server picks its own port (--port 0) and says which on its first stdout line, so
// there is no race; other commands get a port found free by binding 127.0.0.1:0 and closing it
// (another process could take it in between; the arm then fails to become ready and says so).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/campaign/child_process.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

enum class PortSource { fixed, chosen, listening_line };

struct LaunchPlan {
  SpawnSpec spawn;                  // program, argv, env (log left to the caller)
  PortSource port_source = PortSource::fixed;
  std::optional<std::uint16_t> port;  // chosen: known now; listening_line: after start
  std::string command;              // the command as run (port substituted), for the log and messages
};

// The path of the running servebench binary (/proc/self/exe).
std::filesystem::path self_executable();
// A port on 127.0.0.1 that was free a moment ago.
util::Result<std::uint16_t> pick_free_port();
// `text` with every {port} replaced.
std::string substitute_port(std::string text, std::uint16_t port);

// Plans the launch of `arm` (which has a launch). With a `wrapper` (`srun --overlap ...` in a
// Slurm job) the command runs as `WRAPPER... /bin/sh -c COMMAND`. Fails (bad_input) when the
// command does not split or its program (or the wrapper's) is not found; (io) when no free port can
// be found.
util::Result<LaunchPlan> plan_launch(const ArmSpec& arm, const std::filesystem::path& self_exe,
                                     const std::vector<std::string>& wrapper = {});
// A shell command (hooks) run by /bin/sh -c with `env` added and `servebench` resolving to this binary.
SpawnSpec shell_spawn(const std::string& command, std::vector<std::string> env, const std::filesystem::path& self_exe);

// "servebench serve-sim listening on http://127.0.0.1:PORT" → PORT; nullopt for any other line.
std::optional<std::uint16_t> parse_listening_line(std::string_view line);

}  // namespace servebench::campaign
