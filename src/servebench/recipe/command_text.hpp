#pragma once
// How a rendered command is shown: shell text for people (one flag per line), one command line for
// campaign files, and JSON (`servebench.recipe_command/1`) for scripts.
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "servebench/recipe/render.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_command_schema = "servebench.recipe_command/1";

// "# selection" and "# hint: …" comment lines, then env, program and one flag entry per line,
// joined by " \" continuations; words are shell-quoted when needed.
std::string to_shell(const RenderedCommand& command);
// Env, program and flags on one line, shell-quoted.
std::string to_command_line(const RenderedCommand& command);
// {"schema", "selection", "target", "command", "argv", "env", "hints", "fingerprint"}.
boost::json::object to_json(const RenderedCommand& command, std::string_view target, std::string_view fingerprint);

}  // namespace servebench::recipe
