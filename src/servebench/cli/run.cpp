#include "servebench/cli/run.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/version.hpp"
#include "servebench/util/redact.hpp"

namespace servebench::cli {

int run(int argc, char** argv) {
  // Whatever a command prints — launch commands, server errors, log tails — shows no secret.
  util::redact_standard_streams();
  CLI::App app{"servebench: LLM-serving benchmark campaigns — simulate, measure, report, recipe"};
  app.set_version_flag("--version", std::string(version_string()));
  app.require_subcommand(1);
  CommandFn selected;
  add_serve_sim(app, selected);
  add_bench(app, selected);
  add_campaign(app, selected);
  add_plan(app, selected);
  add_recommend(app, selected);
  add_report(app, selected);
  add_recipe(app, selected);
  add_sim(app, selected);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? k_exit_ok : k_exit_bad_input;
  }
  try {
    return selected ? selected() : k_exit_bad_input;
  } catch (const CommandError& e) {
    fmt::print(stderr, "servebench: {}\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    fmt::print(stderr, "servebench: {}\n", e.what());
    return k_exit_measured_failure;
  }
}

}  // namespace servebench::cli
