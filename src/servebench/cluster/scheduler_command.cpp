#include "servebench/cluster/scheduler_command.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "servebench/campaign/child_process.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::cluster {

util::Result<CommandOutput> run_command(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
  std::string pattern = (std::filesystem::temp_directory_path() / "servebench-cmd-XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) return util::fail(util::ErrorKind::io, "cannot create a temporary file for a scheduler command");
  ::close(fd);
  const std::filesystem::path log = pattern;
  campaign::SpawnSpec spec;
  spec.program = "/usr/bin/env";  // resolves argv[0] on PATH
  spec.argv = {"env"};
  spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
  spec.log = log;
  CommandOutput out;
  {
    auto child = campaign::ChildProcess::spawn(spec);
    if (!child) {
      std::filesystem::remove(log);
      return std::unexpected(child.error());
    }
    if (child->wait_exit(std::chrono::duration_cast<std::chrono::milliseconds>(timeout))) {
      out.exit_code = child->exit_status().value_or(-1);
    } else {
      child->stop(std::chrono::milliseconds(500));
    }
  }
  out.output = util::read_file(log).value_or("");
  std::error_code ec;
  std::filesystem::remove(log, ec);
  return out;
}

}  // namespace servebench::cluster
