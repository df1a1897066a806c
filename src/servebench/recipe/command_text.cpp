#include "servebench/recipe/command_text.hpp"

#include <boost/json/array.hpp>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

std::string quoted(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const auto& w : words) out.push_back(util::shell_quote(w));
  return util::join(out, " ");
}

}  // namespace

std::string to_shell(const RenderedCommand& command) {
  std::string out;
  for (const auto& hint : command.hints) out += hint.empty() ? "#\n" : "# " + hint + "\n";
  std::vector<std::string> lines;
  for (const auto& e : command.env) lines.push_back(util::shell_quote(e));
  lines.push_back(quoted(command.program));
  for (const auto& entry : command.flags) lines.push_back("  " + quoted(entry));
  return out + util::join(lines, " \\\n") + "\n";
}

std::string to_command_line(const RenderedCommand& command) {
  std::vector<std::string> words = command.env;
  const auto rest = command.words();
  words.insert(words.end(), rest.begin(), rest.end());
  return quoted(words);
}

boost::json::object to_json(const RenderedCommand& command, std::string_view target, std::string_view fingerprint) {
  boost::json::array argv, hints;
  for (const auto& w : command.words()) argv.emplace_back(w);
  for (const auto& h : command.hints) hints.emplace_back(h);
  boost::json::object env;
  for (const auto& e : command.env_vars()) env[e.name] = e.value;
  return {{"schema", k_command_schema}, {"selection", command.selection}, {"target", target},
          {"command", to_command_line(command)}, {"argv", std::move(argv)}, {"env", std::move(env)},
          {"hints", std::move(hints)}, {"fingerprint", fingerprint}};
}

}  // namespace servebench::recipe
