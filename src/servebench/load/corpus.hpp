#pragma once
// Corpus windows: prompts are consecutive, non-overlapping token windows of a large text file, so
// every prompt is unique text and no window is sent twice across a run directory. The file is
// tokenized once through the server and the ids are cached beside it (<file>.sbtokens); the
// campaign persists the cursor (servebench.cursor/1) so the next point continues where this one
// stopped.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/load/prompt.hpp"
#include "servebench/load/text_codec.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

inline constexpr std::string_view k_cursor_schema = "servebench.cursor/1";

struct CorpusCursor {
  std::string corpus;       // Corpus::id() of the corpus it walks; empty for a fresh cursor
  std::int64_t offset = 0;  // next unused token
  std::int64_t passes = 0;  // completed passes; > 0 means windows are being recycled
};

boost::json::object to_json(const CorpusCursor& c);
// Reads a cursor written by to_json; fails (bad_input) on another schema or a missing key.
util::Result<CorpusCursor> cursor_from_json(const boost::json::object& o);

struct CorpusTake {
  std::vector<Prompt> prompts;
  bool recycled = false;  // some window came from a pass after the first
};

class Corpus {
 public:
  // Token ids of the text file at `path`: read from <path>.sbtokens when it matches the text and
  // the codec's identity, else tokenized through `codec` in pieces and cached. Fails when the file
  // cannot be read, is empty, or the codec fails.
  static util::Result<Corpus> load(const std::filesystem::path& path, TextCodec& codec);
  // A corpus over given ids (tests, callers that tokenize themselves).
  static Corpus from_tokens(std::string id, std::vector<std::int32_t> tokens);

  // "sha256:<hex>" over the text digest and tokenizer identity.
  const std::string& id() const { return m_id; }
  std::int64_t size() const { return static_cast<std::int64_t>(m_tokens.size()); }

  // `count` windows of `length` tokens from the cursor, each requesting `output_len` tokens;
  // advances the cursor, wrapping (passes + 1) when the rest of the corpus is shorter than a
  // window. Fails (bad_input) when the cursor belongs to another corpus or a window is longer
  // than the corpus.
  util::Result<CorpusTake> take(CorpusCursor& cursor, std::int64_t count, std::int64_t length,
                                std::int64_t output_len) const;

 private:
  std::string m_id;
  std::vector<std::int32_t> m_tokens;
};

// The cache file used for `path`.
std::filesystem::path corpus_cache_path(const std::filesystem::path& path);

}  // namespace servebench::load
