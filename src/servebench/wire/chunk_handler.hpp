#pragma once
// The SAX handler behind ChunkParser (internal to wire): follows the key path of one JSON document
// and writes only the fields a Chunk needs straight into it; it builds no tree. Included only by
// chunk_parser.cpp, which instantiates boost::json::basic_parser with it.
#include <array>
#include <cstdint>
#include <string>

#include <boost/json/error.hpp>
#include <boost/json/string_view.hpp>

#include "servebench/wire/chunk_parser.hpp"

namespace servebench::wire::chunk_sax {

using boost::json::error_code;
using boost::json::string_view;

enum class Key : std::uint8_t {
  other, root, choices, delta, message, text, content, reasoning_content, reasoning, tool_calls, finish_reason,
  token_ids, usage, prompt_tokens, completion_tokens, prompt_tokens_details, cached_tokens, meta_info,
  cached_tokens_details, device, host, storage, spec_verify_ct, e2e_latency, type, length, matched, timings,
  cache_n, prompt_n, predicted_n, prompt_ms, predicted_ms, draft_n, draft_n_accepted, error, code, object,
  output_ids, sb_emit_ns,
};

constexpr int k_max_depth = 24;
constexpr std::size_t k_short_max = 32;

// Where the characters of the string being parsed go.
enum class StringSink { ignore, text, token_text, short_value, error_message, matched_stop };

struct Handler {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  // Per-document state.
  Chunk* out = nullptr;
  std::string text;           // capacity reused across chunks
  std::string error_message;  // capacity reused
  std::array<char, k_short_max> short_value{};
  std::size_t short_len = 0;
  std::array<char, 64> key_buf{};
  std::size_t key_len = 0;
  std::array<Key, k_max_depth> frame_key{};
  std::array<bool, k_max_depth> frame_array{};
  // The innermost and next enclosing object keys while frame d is on top (arrays are transparent).
  std::array<Key, k_max_depth> obj0_at{}, obj1_at{};
  int depth = 0;
  int tool_calls_frames = 0, choices_frames = 0;
  Key key = Key::other;
  StringSink sink = StringSink::ignore;
  bool other_token_text = false;  // reasoning or tool-call text seen
  bool object_is_error = false;   // SGLang/OpenAI error body: {"object":"error", ...}
  std::int64_t token_ids = 0, output_ids = 0, error_code_value = 0;

  // Resets the per-document state; the document's fields go into `chunk`.
  void begin(Chunk& chunk);

  Key value_key() const { return depth > 0 && frame_array[depth - 1] ? frame_key[depth - 1] : key; }
  // Key of the innermost (n = 0) or next (n = 1) enclosing object.
  Key obj(int n) const {
    if (depth == 0) return Key::other;
    return n == 0 ? obj0_at[depth - 1] : obj1_at[depth - 1];
  }

  bool push(bool array, error_code& ec);  // enters an object or array; fails when too deep
  bool pop();
  void on_container(Key k);           // an object whose presence is itself data (usage, meta_info, ...)
  StringSink sink_for() const;        // where the string starting now goes, from the key path
  void start_string();                // the first part of a string: picks and prepares its sink
  void append(string_view s);         // one piece of the current string
  void finish_string();               // acts on a complete short value (finish reason, object type)
  void number(std::int64_t v, double d);

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code& ec) { return push(false, ec); }
  bool on_object_end(std::size_t, error_code&) { return pop(); }
  bool on_array_begin(error_code& ec) { return push(true, ec); }
  bool on_array_end(std::size_t, error_code&) { return pop(); }
  bool on_key_part(string_view s, std::size_t, error_code&);
  bool on_key(string_view s, std::size_t total, error_code& ec);
  bool on_string_part(string_view s, std::size_t n, error_code&) {
    if (n == s.size()) start_string();  // first part of this string
    append(s);
    return true;
  }
  bool on_string(string_view s, std::size_t n, error_code&) {
    if (n == s.size()) start_string();
    append(s);
    finish_string();
    return true;
  }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t i, string_view, error_code&) { return number(i, static_cast<double>(i)), true; }
  bool on_uint64(std::uint64_t u, string_view, error_code&) {
    return number(static_cast<std::int64_t>(u), static_cast<double>(u)), true;
  }
  // A count sent as a double beyond int64's range (or NaN) is no count: 0, never an out-of-range cast.
  bool on_double(double d, string_view, error_code&) {
    return number(d > -9.2e18 && d < 9.2e18 ? static_cast<std::int64_t>(d) : 0, d), true;
  }
  bool on_bool(bool, error_code&) { return true; }
  bool on_null(error_code&) { return true; }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }
};

}  // namespace servebench::wire::chunk_sax
