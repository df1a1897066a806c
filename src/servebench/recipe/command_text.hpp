#pragma once
// How a rendered command is written: shell text laid out like the cookbook page's command (hint
// comments, env lines, program, one flag per line) but with every word shell-quoted, one command
// line for campaign files, and JSON (`servebench.recipe_command/1`) for scripts. The page's own
// text (placeholders as the page leaves them, nothing quoted) is page.hpp.
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "servebench/recipe/render.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_command_schema = "servebench.recipe_command/1";

// "# hint" lines, then env lines, the program and one flag entry per line, joined by " \"
// continuations, ending in a newline.
std::string to_shell(const RenderedCommand& command);
// Env, program and flags on one line, shell-quoted.
std::string to_command_line(const RenderedCommand& command);
// {"schema", "selection", "target", "command", "argv", "env", "hints", "fingerprint"}.
boost::json::object to_json(const RenderedCommand& command, std::string_view target, std::string_view fingerprint);

}  // namespace servebench::recipe
