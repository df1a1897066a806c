#include "servebench/load/prompt.hpp"

namespace servebench::load {

std::string prompt_text(const Prompt& p) {
  if (p.messages.empty()) return p.text;
  std::string out;
  for (const ChatMessage& m : p.messages) {
    if (!out.empty()) out += '\n';
    out += m.content;
  }
  return out;
}

}  // namespace servebench::load
