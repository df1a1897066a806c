#include "servebench/wire/server_request.hpp"

#include <cmath>
#include <limits>

#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"

namespace servebench::wire {
namespace {

using boost::json::object;
using boost::json::value;
using util::ErrorKind;
using util::Result;

std::unexpected<util::Error> bad(std::string_view field, std::string_view expected, const value& got) {
  std::string text = util::to_json_text(got);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return util::failf(ErrorKind::bad_input, "{}: expected {}, got {}", field, expected, text);
}

const value* field(const object& o, std::string_view key) {
  const value* v = o.if_contains(key);
  return v == nullptr || v->is_null() ? nullptr : v;
}

std::optional<std::int64_t> as_integer(const value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return static_cast<std::int64_t>(v.get_uint64());
  }
  if (v.is_double() && std::trunc(v.get_double()) == v.get_double() && std::abs(v.get_double()) < 9e15) {
    return static_cast<std::int64_t>(v.get_double());
  }
  return std::nullopt;
}

Result<std::optional<std::int64_t>> read_int(const object& o, std::string_view key, std::int64_t min,
                                             std::string_view path = {}) {
  const value* v = field(o, key);
  if (v == nullptr) return std::nullopt;
  const auto i = as_integer(*v);
  if (!i || *i < min) return bad(path.empty() ? key : path, fmt::format("an integer >= {}", min), *v);
  return *i;
}

Result<std::optional<double>> read_number(const object& o, std::string_view key, std::string_view path) {
  const value* v = field(o, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number() || v->to_number<double>() < 0) return bad(path, "a number >= 0", *v);
  return v->to_number<double>();
}

Result<bool> read_bool(const object& o, std::string_view key, std::string_view path, bool fallback) {
  const value* v = field(o, key);
  if (v == nullptr) return fallback;
  if (!v->is_bool()) return bad(path, "true or false", *v);
  return v->get_bool();
}

Result<std::vector<std::string>> read_stop(const object& o, std::string_view key, std::string_view path) {
  std::vector<std::string> out;
  const value* v = field(o, key);
  if (v == nullptr) return out;
  if (v->is_string()) {
    out.emplace_back(v->get_string());
    return out;
  }
  if (!v->is_array()) return bad(path, "a string or a list of strings", *v);
  for (const auto& item : v->get_array()) {
    if (!item.is_string()) return bad(path, "a string or a list of strings", *v);
    out.emplace_back(item.get_string());
  }
  return out;
}

Result<TokenIds> read_ids(const boost::json::array& a, std::string_view path) {
  TokenIds ids;
  ids.reserve(a.size());
  for (const auto& item : a) {
    const auto i = as_integer(item);
    if (!i || *i < 0 || *i > std::numeric_limits<std::int32_t>::max()) return bad(path, "token ids (integers >= 0)", item);
    ids.push_back(static_cast<std::int32_t>(*i));
  }
  return ids;
}

// A prompt is text, token ids, or a batch (list) of either.
Result<void> read_prompts(const value& v, std::string_view path, InferenceRequest& r) {
  constexpr std::string_view k_expected = "text, token ids, or a list of either";
  if (v.is_string()) {
    r.prompts.emplace_back(std::string(v.get_string()));
    return {};
  }
  if (!v.is_array() || v.get_array().empty()) return bad(path, k_expected, v);
  const auto& a = v.get_array();
  if (a.front().is_number()) {
    auto ids = read_ids(a, path);
    if (!ids) return std::unexpected(ids.error());
    r.prompts.emplace_back(std::move(*ids));
    return {};
  }
  r.batch = true;
  for (const auto& item : a) {
    if (item.is_string()) {
      r.prompts.emplace_back(std::string(item.get_string()));
    } else if (item.is_array() && !item.get_array().empty()) {
      auto ids = read_ids(item.get_array(), path);
      if (!ids) return std::unexpected(ids.error());
      r.prompts.emplace_back(std::move(*ids));
    } else {
      return bad(path, k_expected, item);
    }
  }
  return {};
}

// content: a string, or a list of parts of which the {"type":"text","text":...} ones count.
Result<std::string> read_content(const value* v) {
  if (v == nullptr) return std::string();
  if (v->is_string()) return std::string(v->get_string());
  if (!v->is_array()) return bad("messages[].content", "a string or a list of content parts", *v);
  std::string out;
  for (const auto& part : v->get_array()) {
    const object* p = part.if_object();
    const value* text = p != nullptr ? field(*p, "text") : nullptr;
    if (text != nullptr && text->is_string()) out += text->get_string();
  }
  return out;
}

Result<void> read_messages(const object& o, InferenceRequest& r) {
  const value* v = field(o, "messages");
  if (v == nullptr || !v->is_array() || v->get_array().empty()) {
    return v == nullptr ? util::fail(ErrorKind::bad_input, "messages: required")
                        : bad("messages", "a non-empty list of messages", *v);
  }
  for (const auto& item : v->get_array()) {
    const object* m = item.if_object();
    const value* role = m != nullptr ? field(*m, "role") : nullptr;
    if (role == nullptr || !role->is_string()) return bad("messages[].role", "a string", role ? *role : item);
    auto content = read_content(field(*m, "content"));
    if (!content) return std::unexpected(content.error());
    r.messages.push_back({std::string(role->get_string()), std::move(*content)});
  }
  return {};
}

// tools: [{"type":"function","function":{"name":…,"parameters":…}}, …]; the names are kept.
Result<void> read_tools(const object& o, InferenceRequest& r) {
  const value* v = field(o, "tools");
  if (v == nullptr) return {};
  if (!v->is_array()) return bad("tools", "a list of tools", *v);
  for (const auto& item : v->get_array()) {
    const object* tool = item.if_object();
    const value* type = tool != nullptr ? field(*tool, "type") : nullptr;
    if (type != nullptr && !(type->is_string() && type->get_string() == "function")) {
      return bad("tools[].type", "\"function\"", *type);
    }
    const value* function = tool != nullptr ? field(*tool, "function") : nullptr;
    const object* fn = function != nullptr ? function->if_object() : nullptr;
    const value* name = fn != nullptr ? field(*fn, "name") : nullptr;
    if (name == nullptr || !name->is_string()) return bad("tools[].function.name", "a string", name ? *name : item);
    r.tool_names.emplace_back(name->get_string());
  }
  return {};
}

// Sampling fields shared by the OpenAI routes (top level) and /generate (sampling_params).
struct SamplingKeys {
  std::string_view prefix, max_tokens, min_tokens, seed;
};

Result<void> read_sampling(const object& o, const SamplingKeys& k, InferenceRequest& r) {
  const auto path = [&](std::string_view key) { return fmt::format("{}{}", k.prefix, key); };
  auto max_tokens = read_int(o, k.max_tokens, 0, path(k.max_tokens));
  auto min_tokens = read_int(o, k.min_tokens, 0, path(k.min_tokens));
  auto seed = read_int(o, k.seed, std::numeric_limits<std::int64_t>::min(), path(k.seed));
  auto temperature = read_number(o, "temperature", path("temperature"));
  auto ignore_eos = read_bool(o, "ignore_eos", path("ignore_eos"), false);
  auto stop = read_stop(o, "stop", path("stop"));
  if (!max_tokens) return std::unexpected(max_tokens.error());
  if (!min_tokens) return std::unexpected(min_tokens.error());
  if (!seed) return std::unexpected(seed.error());
  if (!temperature) return std::unexpected(temperature.error());
  if (!ignore_eos) return std::unexpected(ignore_eos.error());
  if (!stop) return std::unexpected(stop.error());
  if (*max_tokens) r.max_tokens = *max_tokens;
  r.min_tokens = min_tokens->value_or(0);
  if (*seed) r.seed = static_cast<std::uint64_t>(**seed);
  r.temperature = *temperature;
  r.ignore_eos = *ignore_eos;
  r.stop = std::move(*stop);
  return {};
}

Result<void> read_stream(const object& o, InferenceRequest& r) {
  auto stream = read_bool(o, "stream", "stream", false);
  if (!stream) return std::unexpected(stream.error());
  r.stream = *stream;
  const value* options = field(o, "stream_options");
  if (options == nullptr) return {};
  if (!options->is_object()) return bad("stream_options", "an object", *options);
  auto usage = read_bool(options->get_object(), "include_usage", "stream_options.include_usage", false);
  auto continuous =
      read_bool(options->get_object(), "continuous_usage_stats", "stream_options.continuous_usage_stats", false);
  if (!usage) return std::unexpected(usage.error());
  if (!continuous) return std::unexpected(continuous.error());
  r.include_usage = *usage;
  r.continuous_usage = *continuous;
  return {};
}

Result<void> read_openai(const object& o, InferenceRequest& r) {
  if (const value* model = field(o, "model")) {
    if (!model->is_string()) return bad("model", "a string", *model);
    r.model = std::string(model->get_string());
  }
  if (r.route == ServerRoute::chat_completions) {
    if (auto ok = read_messages(o, r); !ok) return ok;
    if (auto ok = read_tools(o, r); !ok) return ok;
  } else {
    const value* prompt = field(o, "prompt");
    if (prompt == nullptr) return util::fail(ErrorKind::bad_input, "prompt: required");
    if (auto ok = read_prompts(*prompt, "prompt", r); !ok) return ok;
  }
  const bool completion_cap = field(o, "max_completion_tokens") != nullptr;
  SamplingKeys keys{"", completion_cap ? "max_completion_tokens" : "max_tokens", "min_tokens", "seed"};
  if (auto ok = read_sampling(o, keys, r); !ok) return ok;
  return read_stream(o, r);
}

Result<void> read_generate(const object& o, InferenceRequest& r) {
  const value* ids = field(o, "input_ids");
  const value* text = field(o, "text");
  if (ids == nullptr && text == nullptr) return util::fail(ErrorKind::bad_input, "text or input_ids: required");
  if (auto ok = read_prompts(ids ? *ids : *text, ids ? "input_ids" : "text", r); !ok) return ok;
  if (const value* sp = field(o, "sampling_params")) {
    if (!sp->is_object()) return bad("sampling_params", "an object", *sp);
    SamplingKeys keys{"sampling_params.", "max_new_tokens", "min_new_tokens", "sampling_seed"};
    if (auto ok = read_sampling(sp->get_object(), keys, r); !ok) return ok;
  }
  auto stream = read_bool(o, "stream", "stream", false);
  if (!stream) return std::unexpected(stream.error());
  r.stream = *stream;
  return {};
}

Result<object> parse_object(std::string_view body) {
  auto v = util::parse_json(body, "request body");
  if (!v) return std::unexpected(util::Error{ErrorKind::bad_input, v.error().message});
  if (!v->is_object()) return util::fail(ErrorKind::bad_input, "request body: expected a JSON object");
  return std::move(v->get_object());
}

}  // namespace

util::Result<InferenceRequest> parse_inference_request(ServerRoute route, std::string_view body) {
  auto o = parse_object(body);
  if (!o) return std::unexpected(o.error());
  InferenceRequest r;
  r.route = route;
  auto ok = route == ServerRoute::generate ? read_generate(*o, r) : read_openai(*o, r);
  if (!ok) return std::unexpected(ok.error());
  return r;
}

util::Result<TokenizeRequest> parse_tokenize_request(std::string_view body) {
  auto o = parse_object(body);
  if (!o) return std::unexpected(o.error());
  TokenizeRequest r;
  const value* prompt = field(*o, "prompt");
  if (prompt == nullptr) return util::fail(ErrorKind::bad_input, "prompt: required");
  if (prompt->is_string()) {
    r.prompts.emplace_back(prompt->get_string());
  } else if (prompt->is_array()) {
    r.batch = true;
    for (const auto& item : prompt->get_array()) {
      if (!item.is_string()) return bad("prompt", "a string or a list of strings", *prompt);
      r.prompts.emplace_back(item.get_string());
    }
  } else {
    return bad("prompt", "a string or a list of strings", *prompt);
  }
  auto special = read_bool(*o, "add_special_tokens", "add_special_tokens", true);
  if (!special) return std::unexpected(special.error());
  r.add_special_tokens = *special;
  return r;
}

util::Result<DetokenizeRequest> parse_detokenize_request(std::string_view body) {
  auto o = parse_object(body);
  if (!o) return std::unexpected(o.error());
  DetokenizeRequest r;
  const value* tokens = field(*o, "tokens");
  if (tokens == nullptr) return util::fail(ErrorKind::bad_input, "tokens: required");
  if (!tokens->is_array()) return bad("tokens", "a list of token ids or a list of lists", *tokens);
  const auto& a = tokens->get_array();
  if (!a.empty() && a.front().is_array()) {
    r.batch = true;
    for (const auto& item : a) {
      if (!item.is_array()) return bad("tokens", "a list of lists of token ids", item);
      auto ids = read_ids(item.get_array(), "tokens");
      if (!ids) return std::unexpected(ids.error());
      r.tokens.push_back(std::move(*ids));
    }
  } else {
    auto ids = read_ids(a, "tokens");
    if (!ids) return std::unexpected(ids.error());
    r.tokens.push_back(std::move(*ids));
  }
  auto skip = read_bool(*o, "skip_special_tokens", "skip_special_tokens", true);
  if (!skip) return std::unexpected(skip.error());
  r.skip_special_tokens = *skip;
  return r;
}

}  // namespace servebench::wire
