#include "servebench/load/text_realign.hpp"

#include <cstdlib>
#include <string>

namespace servebench::load {

util::Result<void> realign_to_text(Prompt& p, TextCodec& codec, const Vocabulary& vocab, std::mt19937_64& rng) {
  const std::size_t target = p.ids.size();
  std::vector<std::int32_t> ids = p.ids;
  std::string best_text;
  std::size_t best_count = 0;
  bool have_best = false;
  for (int round = 0; round < k_realign_max_rounds; ++round) {
    auto text = codec.detokenize(ids);
    if (!text) return std::unexpected(text.error());
    if (text->empty()) {  // an empty prompt is no prompt: grow instead
      ids.push_back(vocab.draw(rng));
      continue;
    }
    auto counted = codec.tokenize(*text, Specials::add);
    if (!counted) return std::unexpected(counted.error());
    const std::size_t n = counted->size();
    const auto distance = [target](std::size_t c) { return c > target ? c - target : target - c; };
    if (!have_best || distance(n) < distance(best_count)) {
      best_text = *text;
      best_count = n;
      have_best = true;
    }
    if (n == target) break;
    ids = std::move(*counted);
    if (n > target) {
      ids.resize(target);
    } else {
      while (ids.size() < target) ids.push_back(vocab.draw(rng));
    }
  }
  p.text = std::move(best_text);
  p.ids.clear();
  p.input_tokens = static_cast<std::int64_t>(best_count);
  return {};
}

}  // namespace servebench::load
