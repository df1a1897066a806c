#include "servebench/cli/command.hpp"

namespace servebench::cli {

void add_bench(CLI::App& app, CommandFn& selected) {
  auto* cmd = app.add_subcommand("bench", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([&selected] {
    selected = [] { throw CommandError(k_exit_bad_input, "'bench' is not built yet"); return 0; };
  });
}

}  // namespace servebench::cli
