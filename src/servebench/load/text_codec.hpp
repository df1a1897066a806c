#pragma once
// The server's tokenizer, reached over HTTP (/tokenize, /detokenize): the load generator has no
// local tokenizer. The runner wraps an engine adapter in this seam; tests use a fake.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::load {

// add: count as the server counts a text prompt (BOS etc. included); omit: the text's own tokens.
enum class Specials { add, omit };

class TextCodec {
 public:
  virtual ~TextCodec() = default;
  // Token ids of `text`; fails (unreachable/failed) when the server cannot tokenize.
  virtual util::Result<std::vector<std::int32_t>> tokenize(std::string_view text, Specials specials) = 0;
  // Text of `ids` with special tokens skipped; fails when the server cannot detokenize.
  virtual util::Result<std::string> detokenize(std::span<const std::int32_t> ids) = 0;
  // Identifies the tokenizer (engine + model), so cached tokenizations are not reused across models.
  virtual std::string identity() const = 0;
};

}  // namespace servebench::load
