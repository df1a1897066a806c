#pragma once
// The fenced code blocks of a Markdown section, for tests that check documentation examples: each
// block's info string ("yaml", "console"), first line number and text.
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/strings.hpp"

namespace servebench::testing {

struct MarkdownBlock {
  std::string info;  // the word after the opening ```
  int line = 0;      // 1-based line of the first line inside the block
  std::string text;  // the lines inside the fences, each ending in '\n'
};

// Blocks between the heading line `heading` and the next heading of the same or a higher level.
inline std::vector<MarkdownBlock> markdown_blocks(std::string_view markdown, std::string_view heading) {
  std::vector<MarkdownBlock> out;
  const auto level = heading.find_first_not_of('#');
  bool inside = false, open = false;
  int n = 0;
  for (const auto line : util::split(markdown, '\n')) {
    ++n;
    if (!open && line.starts_with("#")) {
      const auto l = line.find_first_not_of('#');
      if (line == heading) inside = true;
      else if (inside && l <= level) inside = false;
    }
    if (!inside) continue;
    if (line.starts_with("```")) {
      if (!open) out.push_back({std::string(util::trim(line.substr(3))), n + 1, ""});
      open = !open;
      continue;
    }
    if (open) out.back().text += std::string(line) + "\n";
  }
  return out;
}

}  // namespace servebench::testing
