#include "servebench/engines/basic_adapter.hpp"

#include <boost/json.hpp>

#include "servebench/engines/control_call.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/wire/json_writer.hpp"

namespace servebench::engines {

util::Error BasicAdapter::unsupported(const http::Exchange& ex, std::string_view what,
                                      std::string_view alternative) const {
  return util::Error{util::ErrorKind::failed, fmt::format("{} at {} does not support {}: {}", to_string(m_engine),
                                                          ex.base_url(), what, alternative)};
}

util::Result<void> BasicAdapter::flush(http::Exchange& ex, util::TimePoint) {
  return std::unexpected(unsupported(ex, "a cache flush",
                                     "use unique prompts (cold_cache: false), or name the server's real engine"));
}

util::Result<void> BasicAdapter::wait_idle(http::Exchange& ex, util::TimePoint) {
  return std::unexpected(unsupported(ex, "an idle check", "name the server's real engine"));
}

util::Result<Counters> BasicAdapter::snapshot(http::Exchange& ex) {
  return std::unexpected(unsupported(ex, "server-side counters", "hit rate cannot be verified on this engine"));
}

util::Result<double> BasicAdapter::hit_rate(const Counters&, const Counters&) const {
  return util::failf(util::ErrorKind::failed, "{} exports no prefix-cache counters", to_string(m_engine));
}

std::optional<double> BasicAdapter::accept_length(const Counters&, const Counters&) const { return std::nullopt; }

util::Result<wire::ServerFacts> BasicAdapter::facts(http::Exchange& ex) {
  wire::ServerFacts facts;
  facts.engine = std::string(to_string(m_engine));
  std::string raw = "{";
  if (auto models = read_models(ex, facts, raw); !models) return std::unexpected(models.error());
  facts.raw_json = raw + "}";
  return facts;
}

util::Result<wire::TokenIds> BasicAdapter::tokenize(http::Exchange& ex, std::string_view, SpecialTokens) {
  return std::unexpected(unsupported(ex, "tokenize", "send text prompts and read usage.prompt_tokens"));
}

util::Result<std::string> BasicAdapter::detokenize(http::Exchange& ex, std::span<const std::int32_t>) {
  return std::unexpected(unsupported(ex, "detokenize", "use text prompts"));
}

util::Result<std::optional<std::int64_t>> BasicAdapter::vocab_size(http::Exchange&) {
  return std::optional<std::int64_t>{};
}

util::Result<std::string> BasicAdapter::models(http::Exchange& ex) {
  wire::ServerFacts facts;
  std::string raw;
  if (auto models = read_models(ex, facts, raw); !models) return std::unexpected(models.error());
  return facts.model;
}

util::Result<Health> BasicAdapter::health(http::Exchange& ex) {
  auto r = call(ex, http::Method::get, "/health");
  if (!r) return std::unexpected(r.error());
  Health h;
  h.status = r->status;
  h.ready = r->status == 200;
  if (!h.ready) h.detail = r->body;
  return h;
}

util::Result<boost::json::value> BasicAdapter::read_models(http::Exchange& ex, wire::ServerFacts& facts,
                                                           std::string& raw) const {
  auto v = get_json(ex, "/v1/models");
  if (!v) return std::unexpected(v.error());
  append_raw(raw, "/v1/models", *v);
  const auto* data = v->is_object() ? v->get_object().if_contains("data") : nullptr;
  if (data == nullptr || !data->is_array() || data->get_array().empty() || !data->get_array()[0].is_object()) {
    return util::failf(util::ErrorKind::failed, "GET {}/v1/models: no model in data[]", ex.base_url());
  }
  const auto& first = data->get_array()[0].get_object();
  facts.model = util::json_string(first, "id").value_or("");
  if (auto len = util::json_int(first, "max_model_len")) facts.context_length = *len;
  return std::move(*v);
}

void append_raw(std::string& raw, std::string_view route, const boost::json::value& body) {
  if (raw.size() > 1) raw.push_back(',');
  wire::append_json_string(raw, route);
  raw.push_back(':');
  util::append_json_text(raw, body);
}

util::Result<wire::TokenIds> token_ids_of(const boost::json::value* array, std::string_view what) {
  if (array == nullptr || !array->is_array()) return util::failf(util::ErrorKind::failed, "{}: no token list", what);
  wire::TokenIds ids;
  for (const auto& t : array->get_array()) {
    const boost::json::value* id = t.is_object() ? t.get_object().if_contains("id") : &t;
    if (id == nullptr || !id->is_int64()) return util::failf(util::ErrorKind::failed, "{}: a token is not an id", what);
    ids.push_back(static_cast<std::int32_t>(id->get_int64()));
  }
  return ids;
}

std::string token_array(std::span<const std::int32_t> tokens) {
  std::string out;
  wire::JsonWriter json(out);
  json.begin_array();
  for (const auto t : tokens) json.integer(t);
  json.end_array();
  return out;
}

util::Result<wire::TokenIds> post_tokenize(http::Exchange& ex, const TokenizeRoute& r, std::string_view text,
                                     SpecialTokens special) {
  std::string body;
  wire::JsonWriter json(body);
  json.begin_object();
  json.member(r.text_key, text);
  if (!r.special_key.empty()) json.member(r.special_key, special == SpecialTokens::add);
  json.end_object();
  auto v = post_json(ex, r.route, body);
  if (!v) return std::unexpected(v.error());
  return token_ids_of(v->is_object() ? v->get_object().if_contains("tokens") : nullptr,
                      fmt::format("POST {}", r.route));
}

util::Result<std::string> post_detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens,
                                          std::string_view text_key) {
  auto v = post_json(ex, "/detokenize", "{\"tokens\":" + token_array(tokens) + "}");
  if (!v) return std::unexpected(v.error());
  auto text = v->is_object() ? util::json_string(v->get_object(), text_key) : std::nullopt;
  if (!text) return util::failf(util::ErrorKind::failed, "POST /detokenize: no \"{}\" in the response", text_key);
  return *text;
}

}  // namespace servebench::engines
