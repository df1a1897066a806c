#include "servebench/cluster/node_launch.hpp"

#include "servebench/engines/adapter.hpp"
#include "servebench/recipe/node_flags.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cluster {
namespace {

// One word as the shell reads it back: words with blanks or quotes are single-quoted; `$NAME`
// expressions stay bare so the shell of each rank expands them.
std::string shell_word(const std::string& w) {
  if (w.find_first_of(" \t\n'\"\\") == std::string::npos && !w.empty()) return w;
  std::string out = "'";
  for (const char c : w) {
    if (c == '\'') out += "'\\''";
    else out.push_back(c);
  }
  return out + "'";
}

}  // namespace

util::Result<std::string> ranked_launch(const campaign::ArmSpec& arm, const recipe::RenderFacts& facts,
                                        const std::string& rank, const std::string& node0) {
  if (!arm.launch) return util::failf(util::ErrorKind::bad_input, "arm '{}' has no launch command", arm.name);
  if (arm.nodes <= 1) return *arm.launch;
  auto words = util::shell_split(*arm.launch);
  if (!words) return std::unexpected(util::with_context(words.error(), "arm '" + arm.name + "'"));
  auto ranked = recipe::insert_node_flags(facts, engines::dialect_of(arm.engine), std::move(*words), {arm.nodes, rank, node0});
  if (!ranked) return std::unexpected(util::with_context(ranked.error(), "arm '" + arm.name + "'"));
  std::string out;
  for (const auto& w : *ranked) {
    if (!out.empty()) out.push_back(' ');
    out += shell_word(w);
  }
  return out;
}

}  // namespace servebench::cluster
