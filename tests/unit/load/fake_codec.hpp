#pragma once
// A tiny deterministic tokenizer standing in for a server's /tokenize and /detokenize:
// ids 2..27 are the letters a..z, id 100 is the merge "ab", id 1 is BOS (added with Specials::add,
// skipped on detokenize). Merges make the token count of detokenized ids differ from the id count,
// which is what realignment has to fix.
#include <string>
#include <vector>

#include "servebench/load/text_codec.hpp"

namespace servebench::load::testing {

class FakeCodec final : public TextCodec {
 public:
  int tokenize_calls = 0;

  util::Result<std::vector<std::int32_t>> tokenize(std::string_view text, Specials specials) override {
    ++tokenize_calls;
    std::vector<std::int32_t> ids;
    if (specials == Specials::add) ids.push_back(1);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text.substr(i, 2) == "ab") {
        ids.push_back(100);
        ++i;
      } else if (text[i] >= 'a' && text[i] <= 'z') {
        ids.push_back(2 + (text[i] - 'a'));
      }
    }
    return ids;
  }
  util::Result<std::string> detokenize(std::span<const std::int32_t> ids) override {
    std::string out;
    for (std::int32_t id : ids) {
      if (id == 100) out += "ab";
      else if (id >= 2 && id <= 27) out += static_cast<char>('a' + (id - 2));
    }
    return out;
  }
  std::string identity() const override { return "fake/letters"; }
};

}  // namespace servebench::load::testing
