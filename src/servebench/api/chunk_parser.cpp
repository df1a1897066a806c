#include "servebench/api/chunk_parser.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include "servebench/util/strings.hpp"

// SAX (boost::json::basic_parser) rather than a DOM: bench/chunk_json.cpp measures both; the
// handler below keeps only the fields we need and builds no tree.
namespace servebench::api {
namespace {

using boost::json::error_code;
using boost::json::string_view;

enum class Key : std::uint8_t {
  other, root, choices, delta, message, text, content, reasoning_content, reasoning, tool_calls, finish_reason,
  token_ids, usage, prompt_tokens, completion_tokens, prompt_tokens_details, cached_tokens, meta_info,
  cached_tokens_details, device, host, storage, spec_verify_ct, e2e_latency, type, length, matched, timings,
  cache_n, prompt_n, predicted_n, prompt_ms, predicted_ms, draft_n, draft_n_accepted, error, code, object,
  output_ids, sb_emit_ns,
};

struct KeyName {
  std::string_view name;
  Key key;
};

constexpr std::array<KeyName, 38> k_keys{{
    {"choices", Key::choices}, {"delta", Key::delta}, {"message", Key::message}, {"text", Key::text},
    {"content", Key::content}, {"reasoning_content", Key::reasoning_content}, {"reasoning", Key::reasoning},
    {"tool_calls", Key::tool_calls}, {"finish_reason", Key::finish_reason}, {"token_ids", Key::token_ids},
    {"usage", Key::usage}, {"prompt_tokens", Key::prompt_tokens}, {"completion_tokens", Key::completion_tokens},
    {"prompt_tokens_details", Key::prompt_tokens_details}, {"cached_tokens", Key::cached_tokens},
    {"meta_info", Key::meta_info}, {"cached_tokens_details", Key::cached_tokens_details}, {"device", Key::device},
    {"host", Key::host}, {"storage", Key::storage}, {"spec_verify_ct", Key::spec_verify_ct},
    {"e2e_latency", Key::e2e_latency}, {"type", Key::type}, {"length", Key::length}, {"matched", Key::matched},
    {"timings", Key::timings}, {"cache_n", Key::cache_n}, {"prompt_n", Key::prompt_n},
    {"predicted_n", Key::predicted_n}, {"prompt_ms", Key::prompt_ms}, {"predicted_ms", Key::predicted_ms},
    {"draft_n", Key::draft_n}, {"draft_n_accepted", Key::draft_n_accepted}, {"error", Key::error},
    {"code", Key::code}, {"object", Key::object}, {"output_ids", Key::output_ids}, {"sb_emit_ns", Key::sb_emit_ns},
}};

// Keys bucketed by length (built at compile time): a lookup compares only same-length names.
constexpr std::size_t k_max_key = 24, k_bucket_size = 8;
struct KeyBuckets {
  std::array<std::array<KeyName, k_bucket_size>, k_max_key + 1> names{};
  std::array<std::uint8_t, k_max_key + 1> count{};
};
constexpr KeyBuckets make_buckets() {
  KeyBuckets b;
  for (const auto& k : k_keys) b.names[k.name.size()][b.count[k.name.size()]++] = k;
  return b;
}
constexpr KeyBuckets k_buckets = make_buckets();
static_assert([] {
  for (auto c : k_buckets.count) {
    if (c > k_bucket_size) return false;
  }
  return true;
}());

Key lookup(std::string_view s) {
  if (s.size() > k_max_key) return Key::other;
  const auto& bucket = k_buckets.names[s.size()];
  for (std::uint8_t i = 0; i < k_buckets.count[s.size()]; ++i) {
    if (bucket[i].name == s) return bucket[i].key;
  }
  return Key::other;
}

constexpr int k_max_depth = 24;
constexpr std::size_t k_short_max = 32;

// Where the characters of the string being parsed go.
enum class StringSink { ignore, text, token_text, short_value, error_message };

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

  void begin(Chunk& chunk) {
    out = &chunk;
    text.clear();
    error_message.clear();
    short_len = key_len = 0;
    depth = 0;
    tool_calls_frames = choices_frames = 0;
    key = Key::other;
    sink = StringSink::ignore;
    other_token_text = object_is_error = false;
    token_ids = output_ids = error_code_value = 0;
  }

  Key value_key() const { return depth > 0 && frame_array[depth - 1] ? frame_key[depth - 1] : key; }
  // Key of the innermost (n = 0) or next (n = 1) enclosing object.
  Key obj(int n) const {
    if (depth == 0) return Key::other;
    return n == 0 ? obj0_at[depth - 1] : obj1_at[depth - 1];
  }

  bool push(bool array, error_code& ec) {
    if (depth >= k_max_depth) {
      ec = boost::json::error::too_deep;
      return false;
    }
    const Key k = depth == 0 ? Key::root : value_key();
    frame_key[depth] = k;
    frame_array[depth] = array;
    obj0_at[depth] = array ? obj(0) : k;
    obj1_at[depth] = array ? obj(1) : obj(0);
    tool_calls_frames += k == Key::tool_calls ? 1 : 0;
    choices_frames += k == Key::choices ? 1 : 0;
    ++depth;
    key = Key::other;
    if (!array) on_container(k);
    return true;
  }
  bool pop() {
    --depth;
    tool_calls_frames -= frame_key[depth] == Key::tool_calls ? 1 : 0;
    choices_frames -= frame_key[depth] == Key::choices ? 1 : 0;
    return true;
  }

  void on_container(Key k) {
    const Key parent = obj(1);
    if (k == Key::usage && parent == Key::root) out->usage.emplace();
    if (k == Key::meta_info && parent == Key::root) out->meta.emplace();
    if (k == Key::timings && parent == Key::root) out->timings.emplace();
    if (k == Key::error && parent == Key::root) out->error.emplace();
  }

  StringSink sink_for() const {
    const Key k = value_key();
    const Key p0 = obj(0), p1 = obj(1);
    if (k == Key::text && (p0 == Key::choices || p0 == Key::root)) return StringSink::text;
    if (k == Key::content && (p0 == Key::delta || p0 == Key::message) && p1 == Key::choices) return StringSink::text;
    if ((k == Key::reasoning_content || k == Key::reasoning) && (p0 == Key::delta || p0 == Key::message)) {
      return StringSink::token_text;
    }
    if (tool_calls_frames > 0 && choices_frames > 0) return StringSink::token_text;
    if (k == Key::finish_reason && p0 == Key::choices) return StringSink::short_value;
    if (k == Key::type && p0 == Key::finish_reason && p1 == Key::meta_info) return StringSink::short_value;
    if (k == Key::object && p0 == Key::root) return StringSink::short_value;
    if (k == Key::message && (p0 == Key::error || p0 == Key::root)) return StringSink::error_message;
    if (k == Key::error && p0 == Key::root) return StringSink::error_message;
    return StringSink::ignore;
  }

  void append(string_view s) {
    switch (sink) {
      case StringSink::text: text.append(s.data(), s.size()); break;
      case StringSink::token_text: other_token_text = other_token_text || !s.empty(); break;
      case StringSink::short_value: {
        const std::size_t n = std::min(s.size(), k_short_max - short_len);
        std::copy_n(s.data(), n, short_value.data() + short_len);
        short_len += n;
        break;
      }
      case StringSink::error_message: error_message.append(s.data(), s.size()); break;
      case StringSink::ignore: break;
    }
  }

  void finish_string() {
    if (sink == StringSink::short_value) {
      const std::string_view v(short_value.data(), short_len);
      const Key k = value_key();
      if (k == Key::object) {
        object_is_error = v == "error";
      } else if (k == Key::type) {
        if (out->meta) out->meta->finish = parse_finish_reason(v);
      } else {
        out->finish = parse_finish_reason(v);
      }
    } else if (sink == StringSink::error_message && value_key() == Key::error) {
      out->error.emplace();  // {"error": "text"}
    }
    short_len = 0;
    sink = StringSink::ignore;
  }

  void number(std::int64_t v, double d);

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code& ec) { return push(false, ec); }
  bool on_object_end(std::size_t, error_code&) { return pop(); }
  bool on_array_begin(error_code& ec) { return push(true, ec); }
  bool on_array_end(std::size_t, error_code&) { return pop(); }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    const std::size_t n = std::min(s.size(), key_buf.size() - key_len);
    std::copy_n(s.data(), n, key_buf.data() + key_len);
    key_len += n;
    return true;
  }
  bool on_key(string_view s, std::size_t total, error_code& ec) {
    if (key_len == 0 && s.size() == total) {  // the whole key arrived in one piece
      key = lookup(std::string_view(s.data(), s.size()));
      return true;
    }
    on_key_part(s, total, ec);
    key = total <= key_buf.size() ? lookup(std::string_view(key_buf.data(), key_len)) : Key::other;
    key_len = 0;
    return true;
  }
  bool on_string_part(string_view s, std::size_t n, error_code&) {
    if (n == s.size()) sink = sink_for();  // first part of this string
    append(s);
    return true;
  }
  bool on_string(string_view s, std::size_t n, error_code&) {
    if (n == s.size()) sink = sink_for();
    append(s);
    finish_string();
    return true;
  }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t i, string_view, error_code&) { return number(i, static_cast<double>(i)), true; }
  bool on_uint64(std::uint64_t u, string_view, error_code&) {
    return number(static_cast<std::int64_t>(u), static_cast<double>(u)), true;
  }
  bool on_double(double d, string_view, error_code&) { return number(static_cast<std::int64_t>(d), d), true; }
  bool on_bool(bool, error_code&) { return true; }
  bool on_null(error_code&) { return true; }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }
};

util::Nanos ms(double v) { return util::from_ms(v); }

void Handler::number(std::int64_t v, double d) {
  if (depth > 0 && frame_array[depth - 1]) {  // token-id arrays are the only numeric arrays we read
    const Key a = frame_key[depth - 1];
    if (a == Key::token_ids && obj(0) == Key::choices) ++token_ids;
    if (a == Key::output_ids && obj(0) == Key::root) ++output_ids;
    return;
  }
  const Key k = value_key();
  const Key p0 = obj(0), p1 = obj(1);
  if (p0 == Key::usage && out->usage) {
    if (k == Key::prompt_tokens) out->usage->prompt_tokens = v;
    if (k == Key::completion_tokens) out->usage->completion_tokens = v;
  } else if (p0 == Key::prompt_tokens_details && p1 == Key::usage && k == Key::cached_tokens && out->usage) {
    out->usage->cached_tokens = v;
  } else if (p0 == Key::meta_info && out->meta) {
    if (k == Key::prompt_tokens) out->meta->prompt_tokens = v;
    if (k == Key::completion_tokens) out->meta->completion_tokens = v;
    if (k == Key::cached_tokens) out->meta->cached_tokens = v;
    if (k == Key::spec_verify_ct) out->meta->spec_verify_ct = v;
    if (k == Key::e2e_latency) out->meta->e2e_latency = util::from_seconds(d);
  } else if (p0 == Key::cached_tokens_details && p1 == Key::meta_info && out->meta) {
    if (k == Key::device) out->meta->cached_device = v;
    if (k == Key::host) out->meta->cached_host = v;
    if (k == Key::storage) out->meta->cached_storage = v;
  } else if (p0 == Key::finish_reason && p1 == Key::meta_info && out->meta) {
    if (k == Key::length) out->meta->finish_length = v;
    if (k == Key::matched) out->meta->finish_matched = v;
  } else if (p0 == Key::timings && out->timings) {
    auto& t = *out->timings;
    if (k == Key::cache_n) t.cache_n = v;
    if (k == Key::prompt_n) t.prompt_n = v;
    if (k == Key::predicted_n) t.predicted_n = v;
    if (k == Key::draft_n) t.draft_n = v;
    if (k == Key::draft_n_accepted) t.draft_n_accepted = v;
    if (k == Key::prompt_ms) t.prompt_time = ms(d);
    if (k == Key::predicted_ms) t.predicted_time = ms(d);
  } else if (k == Key::code && (p0 == Key::error || p0 == Key::root)) {
    error_code_value = v;
  } else if (k == Key::sb_emit_ns && p0 == Key::root) {
    out->emit_ns = v;
  }
}

}  // namespace

struct ChunkParser::Impl {
  boost::json::basic_parser<Handler> parser{boost::json::parse_options{}};
  std::int64_t prev_native = 0;     // last meta_info.completion_tokens
  std::int64_t prev_usage = 0;      // last usage.completion_tokens
  std::size_t prev_text_len = 0;    // cumulative /generate text already reported
  bool counting_decided = false;    // decided at the first token-bearing chunk
  bool counting_by_usage = false;   // continuous usage stats are on

  util::Result<void> run(std::string_view data, Chunk& out);
  void count_native(Chunk& out, bool stream);
  void count_openai(Chunk& out);
  void finish_error(Chunk& out);
};

util::Result<void> ChunkParser::Impl::run(std::string_view data, Chunk& out) {
  out = Chunk{};
  Handler& h = parser.handler();
  h.begin(out);
  parser.reset();
  error_code ec;
  parser.write_some(false, data.data(), data.size(), ec);
  if (ec || !parser.done()) {
    const std::string_view head = data.substr(0, 80);
    return util::failf(util::ErrorKind::failed, "response data is not JSON ({}): {}", ec.message(), head);
  }
  finish_error(out);
  return {};
}

void ChunkParser::Impl::finish_error(Chunk& out) {
  Handler& h = parser.handler();
  if (h.object_is_error && !out.error) out.error.emplace();
  if (!out.error) return;
  out.error->code = h.error_code_value;
  out.error->message = h.error_message;
}

// SGLang /generate: meta_info.completion_tokens is cumulative; so is text unless the server runs
// with --incremental-streaming-output, recognisable by output_ids being shorter than the count.
void ChunkParser::Impl::count_native(Chunk& out, bool stream) {
  Handler& h = parser.handler();
  const std::int64_t total = *out.meta->completion_tokens;
  out.finish = out.meta->finish;
  out.text = h.text;
  if (!stream) {
    out.tokens = total;
    out.source = TokenCountSource::response;
    out.token_bearing = total > 0 || !h.text.empty();
    return;
  }
  out.tokens = std::max<std::int64_t>(0, total - prev_native);
  prev_native = std::max(prev_native, total);
  out.token_bearing = out.tokens > 0;
  out.source = out.token_bearing ? TokenCountSource::native : TokenCountSource::none;
  const bool cumulative = h.output_ids == 0 || h.output_ids == total;
  if (cumulative) {
    out.text = std::string_view(h.text).substr(std::min(prev_text_len, h.text.size()));
    prev_text_len = std::max(prev_text_len, h.text.size());
  }
}

void ChunkParser::Impl::count_openai(Chunk& out) {
  Handler& h = parser.handler();
  out.text = h.text;
  out.token_bearing = !h.text.empty() || h.other_token_text || h.token_ids > 0;
  const std::optional<std::int64_t> total = out.usage ? out.usage->completion_tokens : std::nullopt;
  if (out.token_bearing) {
    if (!counting_decided) {
      counting_decided = true;
      counting_by_usage = total.has_value();
    }
    if (counting_by_usage && total) {
      out.tokens = std::max<std::int64_t>(0, *total - prev_usage);
      out.source = TokenCountSource::usage_delta;
    } else if (h.token_ids > 0) {
      out.tokens = h.token_ids;
      out.source = TokenCountSource::token_ids;
    } else {
      out.tokens = 1;
      out.source = TokenCountSource::assumed_one;
    }
  }
  if (total) prev_usage = std::max(prev_usage, *total);
}

ChunkParser::ChunkParser() : m_impl(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;

void ChunkParser::reset() {
  m_impl->prev_native = m_impl->prev_usage = 0;
  m_impl->prev_text_len = 0;
  m_impl->counting_decided = m_impl->counting_by_usage = false;
}

util::Result<void> ChunkParser::parse_event(std::string_view data, Chunk& out) {
  data = util::trim(data);
  if (data == "[DONE]") {
    out = Chunk{};
    out.done = true;
    return {};
  }
  if (auto ok = m_impl->run(data, out); !ok) return ok;
  if (out.meta && out.meta->completion_tokens) {
    m_impl->count_native(out, true);
  } else {
    m_impl->count_openai(out);
  }
  return {};
}

util::Result<void> ChunkParser::parse_response(std::string_view body, Chunk& out) {
  if (auto ok = m_impl->run(body, out); !ok) return ok;
  if (out.meta && out.meta->completion_tokens) {
    m_impl->count_native(out, false);
    return {};
  }
  const Handler& h = m_impl->parser.handler();
  out.text = h.text;
  out.token_bearing = !h.text.empty() || h.other_token_text || h.token_ids > 0;
  std::optional<std::int64_t> total = out.usage ? out.usage->completion_tokens : std::nullopt;
  if (!total && out.timings) total = out.timings->predicted_n;
  out.tokens = total.value_or(out.token_bearing ? std::max<std::int64_t>(1, h.token_ids) : 0);
  out.source = TokenCountSource::response;
  return {};
}

}  // namespace servebench::api
