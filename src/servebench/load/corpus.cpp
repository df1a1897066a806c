#include "servebench/load/corpus.hpp"

#include <cstring>

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;

// Pieces of about this many bytes are tokenized per request, split after a newline or space so
// that few tokens straddle a cut.
constexpr std::size_t k_piece_bytes = 64 * 1024;
constexpr std::string_view k_cache_magic = "servebench.tokens/1\n";

std::vector<std::string_view> split_pieces(std::string_view text) {
  std::vector<std::string_view> pieces;
  while (!text.empty()) {
    std::size_t cut = std::min(text.size(), k_piece_bytes);
    if (cut < text.size()) {
      const std::size_t nl = text.rfind('\n', cut);
      const std::size_t sp = text.rfind(' ', cut);
      const std::size_t at = nl != std::string_view::npos && nl > cut / 2 ? nl : sp;
      if (at != std::string_view::npos && at > cut / 2) cut = at + 1;
    }
    pieces.push_back(text.substr(0, cut));
    text.remove_prefix(cut);
  }
  return pieces;
}

// Cache layout: magic, one line with the corpus id, then the ids as little-endian int32.
std::string encode_cache(const std::string& id, const std::vector<std::int32_t>& tokens) {
  std::string out(k_cache_magic);
  out += id;
  out += '\n';
  const std::size_t at = out.size();
  out.resize(at + tokens.size() * sizeof(std::int32_t));
  std::memcpy(out.data() + at, tokens.data(), tokens.size() * sizeof(std::int32_t));
  return out;
}

bool decode_cache(std::string_view bytes, const std::string& id, std::vector<std::int32_t>& tokens) {
  if (!bytes.starts_with(k_cache_magic)) return false;
  bytes.remove_prefix(k_cache_magic.size());
  const std::size_t nl = bytes.find('\n');
  if (nl == std::string_view::npos || bytes.substr(0, nl) != id) return false;
  bytes.remove_prefix(nl + 1);
  if (bytes.size() % sizeof(std::int32_t) != 0) return false;
  tokens.resize(bytes.size() / sizeof(std::int32_t));
  std::memcpy(tokens.data(), bytes.data(), bytes.size());
  return true;
}

}  // namespace

json::object to_json(const CorpusCursor& c) {
  return json::object{{"schema", k_cursor_schema}, {"corpus", c.corpus}, {"offset", c.offset}, {"passes", c.passes}};
}

util::Result<CorpusCursor> cursor_from_json(const json::object& o) {
  if (util::json_string(o, "schema") != std::string(k_cursor_schema)) {
    return util::fail(util::ErrorKind::bad_input, "not a servebench.cursor/1 record");
  }
  CorpusCursor c;
  const auto corpus = util::json_string(o, "corpus");
  const auto offset = util::json_int(o, "offset");
  const auto passes = util::json_int(o, "passes");
  if (!corpus || !offset || !passes || *offset < 0 || *passes < 0) {
    return util::fail(util::ErrorKind::bad_input, "cursor record needs corpus, offset >= 0 and passes >= 0");
  }
  c.corpus = *corpus;
  c.offset = *offset;
  c.passes = *passes;
  return c;
}

std::filesystem::path corpus_cache_path(const std::filesystem::path& path) {
  auto p = path;
  p += ".sbtokens";
  return p;
}

util::Result<Corpus> Corpus::load(const std::filesystem::path& path, TextCodec& codec) {
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  if (text->empty()) return util::failf(util::ErrorKind::bad_input, "corpus {} is empty", path.string());
  const std::string id = "sha256:" + util::sha256_hex(util::sha256_hex(*text) + "\n" + codec.identity());
  std::vector<std::int32_t> tokens;
  if (auto cached = util::read_file(corpus_cache_path(path)); cached && decode_cache(*cached, id, tokens)) {
    return from_tokens(id, std::move(tokens));
  }
  for (std::string_view piece : split_pieces(*text)) {
    auto ids = codec.tokenize(piece, Specials::omit);
    if (!ids) return std::unexpected(util::with_context(ids.error(), "tokenizing corpus " + path.string()));
    tokens.insert(tokens.end(), ids->begin(), ids->end());
  }
  // A failed cache write costs a re-tokenization next time, nothing more.
  (void)util::write_file_atomic(corpus_cache_path(path), encode_cache(id, tokens));
  return from_tokens(id, std::move(tokens));
}

Corpus Corpus::from_tokens(std::string id, std::vector<std::int32_t> tokens) {
  Corpus c;
  c.m_id = std::move(id);
  c.m_tokens = std::move(tokens);
  return c;
}

util::Result<CorpusTake> Corpus::take(CorpusCursor& cursor, std::int64_t count, std::int64_t length,
                                      std::int64_t output_len) const {
  if (!cursor.corpus.empty() && cursor.corpus != m_id) {
    return util::failf(util::ErrorKind::bad_input, "corpus cursor belongs to {}, not {}", cursor.corpus, m_id);
  }
  if (length <= 0 || length > size()) {
    return util::failf(util::ErrorKind::bad_input, "window of {} tokens does not fit a corpus of {} tokens", length,
                       size());
  }
  cursor.corpus = m_id;
  CorpusTake out;
  out.prompts.reserve(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  for (std::int64_t i = 0; i < count; ++i) {
    if (cursor.offset + length > size()) {
      cursor.offset = 0;
      ++cursor.passes;
    }
    out.recycled = out.recycled || cursor.passes > 0;
    Prompt p;
    const auto first = m_tokens.begin() + cursor.offset;
    p.ids.assign(first, first + length);
    p.input_tokens = length;
    p.output_tokens = output_len;
    out.prompts.push_back(std::move(p));
    cursor.offset += length;
  }
  return out;
}

}  // namespace servebench::load
