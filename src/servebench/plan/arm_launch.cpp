// Which campaign arms the simulator can represent, and serve-sim's arguments for them.
#include <fmt/format.h>

#include "servebench/plan/planner.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::plan {
namespace {

constexpr std::string_view k_shell_chars = "|&;<>$`()*?\n";

bool is_env_word(const std::string& w) {
  const auto eq = w.find('=');
  return eq != std::string::npos && eq > 0 && w.find_first_of("-/") > eq;
}

}  // namespace

util::Result<std::vector<std::string>> serve_sim_args(const campaign::ArmSpec& arm) {
  using util::ErrorKind;
  if (arm.pd) {
    return util::fail(ErrorKind::bad_input,
                      "a prefill/decode-disaggregated arm: plan runs one engine per arm and does not chain a prefill "
                      "engine, the KV transfer and a decode engine; measure it with `campaign run`");
  }
  if (!arm.launch) {
    return util::failf(ErrorKind::bad_input, "the arm attaches to a running server ({}); plan simulates only arms it "
                       "launches", arm.base_url);
  }
  if (arm.engine != engines::Engine::sim) {
    return util::failf(ErrorKind::bad_input, "engine {}: plan simulates `servebench serve-sim` arms (engine: sim)",
                       engines::to_string(arm.engine));
  }
  const std::string command = util::replace_all(*arm.launch, "{port}", "0");
  if (command.find_first_of(k_shell_chars) != std::string::npos) {
    return util::fail(ErrorKind::bad_input, "the launch command uses shell syntax, which plan does not run");
  }
  auto words = util::shell_split(command);
  if (!words) return std::unexpected(words.error());
  std::size_t i = 0;
  while (i < words->size() && is_env_word((*words)[i])) ++i;
  const bool servebench = i + 1 < words->size() && ((*words)[i] == "servebench" || (*words)[i].ends_with("/servebench"));
  if (!servebench || (*words)[i + 1] != "serve-sim") {
    return util::failf(ErrorKind::bad_input, "the launch command runs '{}', not `servebench serve-sim`",
                       i < words->size() ? (*words)[i] : std::string());
  }
  return std::vector<std::string>(words->begin() + static_cast<std::ptrdiff_t>(i + 2), words->end());
}

std::string overrides_in(const std::vector<std::string>& args) {
  constexpr std::string_view k_flag = "--sim-overrides";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == k_flag && i + 1 < args.size()) return args[i + 1];
    if (args[i].starts_with(k_flag) && args[i].size() > k_flag.size() && args[i][k_flag.size()] == '=') {
      return args[i].substr(k_flag.size() + 1);
    }
  }
  return "";
}

}  // namespace servebench::plan
