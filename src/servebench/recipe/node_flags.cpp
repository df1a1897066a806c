#include "servebench/recipe/node_flags.hpp"

#include <algorithm>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

std::string family(const std::string& word) { return word.substr(0, word.find('=')); }

bool in(const std::vector<std::string>& names, const std::string& word) {
  return word.starts_with("-") && std::find(names.begin(), names.end(), family(word)) != names.end();
}

// The index after the flag at `i` and its value ("--tp 8" → i + 2, "--tp=8" → i + 1).
std::size_t after_flag(const std::vector<std::string>& words, std::size_t i) {
  if (words[i].find('=') != std::string::npos) return i + 1;
  return i + 1 < words.size() && !words[i + 1].starts_with("-") ? i + 2 : i + 1;
}

}  // namespace

util::Result<std::vector<std::string>> insert_node_flags(const RenderFacts& facts, flags::Dialect engine,
                                                        std::vector<std::string> words, const NodeFlagValues& values) {
  const EngineRendering* r = facts.engine(engine);
  if (r == nullptr || r->multi_node.flags.empty()) {
    return util::failf(util::ErrorKind::bad_input, "no multi-node flags are known for engine {}", flags::to_string(engine));
  }
  const MultiNodeFacts& m = r->multi_node;
  std::size_t at = words.size();
  bool found = false;
  for (std::size_t i = words.size(); i-- > 0;) {
    if (in(m.after_last, words[i])) {
      at = after_flag(words, i);
      found = true;
      break;
    }
  }
  for (std::size_t i = 0; !found && i < words.size(); ++i) {
    if (in(m.otherwise_after, words[i])) {
      at = after_flag(words, i);
      found = true;
    }
  }
  std::vector<std::string> inserted;
  for (const auto& f : m.flags) {
    std::string text = util::replace_all(f, "{{NNODES}}", std::to_string(values.nnodes));
    text = util::replace_all(text, "{{NODE_RANK}}", values.node_rank);
    text = util::replace_all(text, "{{NODE0_IP}}", values.node0_ip);
    auto split = util::shell_split(text);
    if (!split) return std::unexpected(split.error());
    inserted.insert(inserted.end(), split->begin(), split->end());
  }
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), inserted.begin(), inserted.end());
  return words;
}

}  // namespace servebench::recipe
