#include "servebench/cli/command.hpp"

namespace servebench::cli {

void add_campaign(CLI::App& app, CommandFn& selected) {
  auto* cmd = app.add_subcommand("campaign", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([&selected] {
    selected = [] { throw CommandError(k_exit_bad_input, "'campaign' is not built yet"); return 0; };
  });
}

}  // namespace servebench::cli
