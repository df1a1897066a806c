#include "servebench/wire/chunk_handler.hpp"

#include <algorithm>

namespace servebench::wire::chunk_sax {
namespace {

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

void timing(LlamaTimings& t, Key k, std::int64_t v, double d) {
  if (k == Key::cache_n) t.cache_n = v;
  if (k == Key::prompt_n) t.prompt_n = v;
  if (k == Key::predicted_n) t.predicted_n = v;
  if (k == Key::draft_n) t.draft_n = v;
  if (k == Key::draft_n_accepted) t.draft_n_accepted = v;
  // A time outside [0, a year) is no measurement (a fuzzed or broken server's number): left absent.
  const bool plausible = d >= 0 && d < 365.0 * 24 * 3600 * 1e3;
  if (k == Key::prompt_ms && plausible) t.prompt_time = util::from_ms(d);
  if (k == Key::predicted_ms && plausible) t.predicted_time = util::from_ms(d);
}

}  // namespace

void Handler::begin(Chunk& chunk) {
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

bool Handler::push(bool array, error_code& ec) {
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

bool Handler::pop() {
  --depth;
  tool_calls_frames -= frame_key[depth] == Key::tool_calls ? 1 : 0;
  choices_frames -= frame_key[depth] == Key::choices ? 1 : 0;
  return true;
}

void Handler::on_container(Key k) {
  const Key parent = obj(1);
  if (k == Key::usage && parent == Key::root) out->usage.emplace();
  if (k == Key::meta_info && parent == Key::root) out->meta.emplace();
  if (k == Key::timings && parent == Key::root) out->timings.emplace();
  if (k == Key::error && parent == Key::root) out->error.emplace();
}

StringSink Handler::sink_for() const {
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
  if (k == Key::matched && p0 == Key::finish_reason && p1 == Key::meta_info) return StringSink::matched_stop;
  if (k == Key::object && p0 == Key::root) return StringSink::short_value;
  if (k == Key::message && (p0 == Key::error || p0 == Key::root)) return StringSink::error_message;
  if (k == Key::error && p0 == Key::root) return StringSink::error_message;
  return StringSink::ignore;
}

void Handler::start_string() {
  sink = sink_for();
  if (sink != StringSink::matched_stop) return;
  if (out->meta) {
    out->meta->finish_matched.emplace(std::in_place_type<std::string>);  // a stop string (only on a last chunk)
  } else {
    sink = StringSink::ignore;
  }
}

void Handler::append(string_view s) {
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
    case StringSink::matched_stop: std::get<std::string>(*out->meta->finish_matched).append(s.data(), s.size()); break;
    case StringSink::ignore: break;
  }
}

void Handler::finish_string() {
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

bool Handler::on_key(string_view s, std::size_t total, error_code& ec) {
  if (key_len == 0 && s.size() == total) {  // the whole key arrived in one piece
    key = lookup(std::string_view(s.data(), s.size()));
    return true;
  }
  on_key_part(s, total, ec);
  key = total <= key_buf.size() ? lookup(std::string_view(key_buf.data(), key_len)) : Key::other;
  key_len = 0;
  return true;
}

bool Handler::on_key_part(string_view s, std::size_t, error_code&) {
  const std::size_t n = std::min(s.size(), key_buf.size() - key_len);
  std::copy_n(s.data(), n, key_buf.data() + key_len);
  key_len += n;
  return true;
}

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
    timing(*out->timings, k, v, d);
  } else if (k == Key::code && (p0 == Key::error || p0 == Key::root)) {
    error_code_value = v;
  } else if (k == Key::sb_emit_ns && p0 == Key::root) {
    out->emit_ns = v;
  }
}

}  // namespace servebench::wire::chunk_sax
