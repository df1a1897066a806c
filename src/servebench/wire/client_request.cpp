#include "servebench/wire/client_request.hpp"

#include <array>

#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"
#include "servebench/wire/json_writer.hpp"

namespace servebench::wire {
namespace {

using util::ErrorKind;

constexpr std::array<std::pair<Backend, std::string_view>, 10> k_backend_names{{
    {Backend::sglang, "sglang"},
    {Backend::sglang_oai, "sglang-oai"},
    {Backend::sglang_oai_chat, "sglang-oai-chat"},
    {Backend::vllm, "vllm"},
    {Backend::vllm_chat, "vllm-chat"},
    {Backend::llamacpp, "llamacpp"},
    {Backend::trtllm, "trtllm"},
    {Backend::openai, "openai"},
    {Backend::openai_chat, "openai-chat"},
    {Backend::sim, "sim"},
}};

// Writes body members, leaving out those the caller's extra body replaces.
class BodyWriter {
 public:
  BodyWriter(std::string& out, const boost::json::object* extra) : m_json(out), m_extra(extra) {}
  JsonWriter& json() { return m_json; }
  bool wanted(std::string_view key) const { return m_extra == nullptr || !m_extra->contains(key); }
  template <class T>
  void member(std::string_view key, const T& value) {
    if (wanted(key)) m_json.member(key, value);
  }
  void stop_list(std::string_view key, const std::vector<std::string>& stop) {
    if (stop.empty() || !wanted(key)) return;
    m_json.key(key);
    m_json.begin_array();
    for (const auto& s : stop) m_json.string(s);
    m_json.end_array();
  }
  void extra_members() {
    if (m_extra == nullptr) return;
    for (const auto& kv : *m_extra) {
      m_json.key(kv.key());
      m_json.raw(util::to_json_text(kv.value()));
    }
  }

 private:
  JsonWriter m_json;
  const boost::json::object* m_extra;
};

void write_ids(JsonWriter& json, const TokenIds& ids) {
  json.begin_array();
  for (const auto id : ids) json.integer(id);
  json.end_array();
}

void write_prompt(BodyWriter& body, const Prompt& prompt) {
  if (!body.wanted("prompt")) return;
  body.json().key("prompt");
  if (const auto* ids = std::get_if<TokenIds>(&prompt)) {
    write_ids(body.json(), *ids);
  } else {
    body.json().string(std::get<std::string>(prompt));
  }
}

void write_messages(BodyWriter& body, const Prompt& prompt) {
  if (!body.wanted("messages")) return;
  JsonWriter& json = body.json();
  json.key("messages");
  json.begin_array();
  if (const auto* text = std::get_if<std::string>(&prompt)) {
    json.begin_object();
    json.member("role", "user");
    json.member("content", *text);
    json.end_object();
  } else {
    for (const auto& m : std::get<std::vector<ChatMessage>>(prompt)) {
      json.begin_object();
      json.member("role", m.role);
      json.member("content", m.content);
      json.end_object();
    }
  }
  json.end_array();
}

void write_openai(Backend backend, const GenerationRequest& r, BodyWriter& body) {
  const BackendFeatures f = features_of(backend);
  body.member("model", r.model);
  if (route_of(backend) == Route::chat_completions) {
    write_messages(body, r.prompt);
  } else {
    write_prompt(body, r.prompt);
  }
  body.member("max_tokens", r.max_tokens);
  if (r.min_tokens && f.min_tokens) body.member("min_tokens", *r.min_tokens);
  if (r.ignore_eos) body.member("ignore_eos", true);
  if (r.temperature) body.member("temperature", *r.temperature);
  if (r.seed) body.member("seed", static_cast<std::int64_t>(*r.seed));
  body.stop_list("stop", r.stop);
  body.member("stream", r.stream);
  const bool continuous = r.continuous_usage && f.continuous_usage;
  if (r.stream && (r.include_usage || continuous) && f.include_usage && body.wanted("stream_options")) {
    JsonWriter& json = body.json();
    json.key("stream_options");
    json.begin_object();
    json.member("include_usage", r.include_usage || continuous);
    if (continuous) json.member("continuous_usage_stats", true);
    json.end_object();
  }
  if (!r.cache_prompt && f.cache_prompt) body.member("cache_prompt", false);
}

// SGLang native /generate: input_ids or text, and sampling_params.
void write_generate(const GenerationRequest& r, BodyWriter& body) {
  JsonWriter& json = body.json();
  if (const auto* ids = std::get_if<TokenIds>(&r.prompt)) {
    if (body.wanted("input_ids")) {
      json.key("input_ids");
      write_ids(json, *ids);
    }
  } else {
    body.member("text", std::get<std::string>(r.prompt));
  }
  if (body.wanted("sampling_params")) {
    json.key("sampling_params");
    json.begin_object();
    json.member("max_new_tokens", r.max_tokens);
    if (r.min_tokens) json.member("min_new_tokens", *r.min_tokens);
    if (r.ignore_eos) json.member("ignore_eos", true);
    if (r.temperature) json.member("temperature", *r.temperature);
    if (r.seed) json.member("sampling_seed", static_cast<std::int64_t>(*r.seed));
    if (!r.stop.empty()) {
      json.key("stop");
      json.begin_array();
      for (const auto& s : r.stop) json.string(s);
      json.end_array();
    }
    json.end_object();
  }
  body.member("stream", r.stream);
}

util::Result<void> check_prompt_fits(Backend backend, const Prompt& prompt) {
  const Route route = route_of(backend);
  const bool messages = std::holds_alternative<std::vector<ChatMessage>>(prompt);
  if (messages && route != Route::chat_completions) {
    return util::failf(ErrorKind::bad_input, "backend {} takes a text or token-id prompt, not chat messages",
                       to_string(backend));
  }
  if (std::holds_alternative<TokenIds>(prompt) && route == Route::chat_completions) {
    return util::failf(ErrorKind::bad_input, "backend {} takes chat messages or text, not token ids; use a "
                       "completions backend for token-id prompts", to_string(backend));
  }
  return {};
}

}  // namespace

std::string_view to_string(Backend b) {
  for (const auto& [backend, name] : k_backend_names) {
    if (backend == b) return name;
  }
  SB_CHECK(false);
  return {};
}

util::Result<Backend> parse_backend(std::string_view name) {
  for (const auto& [backend, n] : k_backend_names) {
    if (n == name) return backend;
  }
  return util::failf(ErrorKind::bad_input,
                     "unknown backend '{}'; expected sglang, sglang-oai, sglang-oai-chat, vllm, vllm-chat, llamacpp, "
                     "trtllm, openai, openai-chat or sim", name);
}

Route route_of(Backend b) {
  switch (b) {
    case Backend::sglang:
    case Backend::sim: return Route::generate;
    case Backend::sglang_oai_chat:
    case Backend::vllm_chat:
    case Backend::openai_chat: return Route::chat_completions;
    default: return Route::completions;
  }
}

std::string_view path_of(Route r) {
  switch (r) {
    case Route::completions: return "/v1/completions";
    case Route::chat_completions: return "/v1/chat/completions";
    case Route::generate: return "/generate";
  }
  return "";
}

BackendFeatures features_of(Backend b) {
  switch (b) {
    case Backend::sglang:
    case Backend::sim: return {.min_tokens = true};
    case Backend::sglang_oai:
    case Backend::sglang_oai_chat:
    case Backend::vllm:
    case Backend::vllm_chat:
    case Backend::trtllm: return {.min_tokens = true, .continuous_usage = true, .include_usage = true};
    case Backend::llamacpp: return {.include_usage = true, .cache_prompt = true};
    case Backend::openai:
    case Backend::openai_chat: return {.include_usage = true};
  }
  return {};
}

util::Result<void> build_request_body(Backend backend, const GenerationRequest& request, std::string& out) {
  if (auto fits = check_prompt_fits(backend, request.prompt); !fits) return fits;
  std::optional<boost::json::value> extra;
  if (!request.extra_body.empty()) {
    auto parsed = util::parse_json(request.extra_body, "extra body");
    if (!parsed) return std::unexpected(util::Error{ErrorKind::bad_input, parsed.error().message});
    if (!parsed->is_object()) return util::fail(ErrorKind::bad_input, "extra body must be a JSON object");
    extra = std::move(*parsed);
  }
  out.clear();
  BodyWriter body(out, extra ? &extra->get_object() : nullptr);
  body.json().begin_object();
  if (route_of(backend) == Route::generate) {
    write_generate(request, body);
  } else {
    write_openai(backend, request, body);
  }
  body.extra_members();
  body.json().end_object();
  return {};
}

}  // namespace servebench::wire
