#include "servebench/sim/wire_extras.hpp"

#include <fmt/format.h>

#include <boost/json.hpp>

#include "servebench/api/json_writer.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::sim::wire {
namespace {

namespace json = boost::json;

// Parses JSON this process encoded; failing is a bug.
json::object parse_own(std::string_view text) {
  auto v = util::parse_json(text, "encoded response");
  SB_CHECK(v && v->is_object());
  return std::move(v->get_object());
}

std::int64_t int_at(const json::object& o, std::string_view key) { return util::json_int(o, key).value_or(0); }

json::array tool_calls(const ToolCall& call) {
  json::object function{{"name", call.name}, {"arguments", call.arguments}};
  json::object entry{{"index", 0}, {"id", call.call_id}, {"type", "function"}, {"function", std::move(function)}};
  return json::array{std::move(entry)};
}

json::object& first_choice(json::object& o) { return o.at("choices").as_array().at(0).as_object(); }

}  // namespace

void set_choice_index(std::string& json_text, std::size_t index) {
  constexpr std::string_view k_zero = "\"index\":0";
  const auto at = json_text.find(k_zero);
  SB_CHECK(at != std::string::npos);
  json_text.replace(at, k_zero.size(), fmt::format("\"index\":{}", index));
}

void add_generate_index(std::string& json_text, std::size_t index) {
  SB_CHECK(!json_text.empty() && json_text.front() == '{');
  json_text.insert(1, fmt::format("\"index\":{},", index));
}

std::string join_choices(std::span<const std::string> responses) {
  SB_CHECK(!responses.empty());
  json::object joined = parse_own(responses.front());
  auto& choices = joined.at("choices").as_array();
  auto& usage = joined.at("usage").as_object();
  for (std::size_t i = 1; i < responses.size(); ++i) {
    json::object item = parse_own(responses[i]);
    json::object choice = std::move(first_choice(item));
    choice["index"] = static_cast<std::int64_t>(i);
    choices.push_back(std::move(choice));
    const auto& u = item.at("usage").as_object();
    for (std::string_view key : {"prompt_tokens", "completion_tokens", "total_tokens"}) {
      usage[key] = int_at(usage, key) + int_at(u, key);
    }
    const auto* details = u.if_contains("prompt_tokens_details");
    auto* joined_details = usage.if_contains("prompt_tokens_details");
    if (details && details->is_object() && joined_details && joined_details->is_object()) {
      auto& d = joined_details->as_object();
      d["cached_tokens"] = int_at(d, "cached_tokens") + int_at(details->as_object(), "cached_tokens");
    }
  }
  return util::to_json_text(joined);
}

std::optional<std::string> first_tool_name(std::string_view body) {
  auto v = util::parse_json(body, "request body");
  if (!v || !v->is_object()) return std::nullopt;
  const auto* tools = v->as_object().if_contains("tools");
  if (tools == nullptr || !tools->is_array() || tools->as_array().empty()) return std::nullopt;
  const auto* tool = tools->as_array().front().if_object();
  const auto* function = tool ? tool->if_contains("function") : nullptr;
  if (function == nullptr || !function->is_object()) return std::nullopt;
  return util::json_string(function->as_object(), "name");
}

void encode_tool_call_chunk(std::string& out, const api::ResponseHeader& header, const ToolCall& call,
                            std::optional<std::int64_t> emit_ns) {
  std::string chunk;
  api::encode_chat_chunk(chunk, header, api::ChunkBody{"", api::FinishReason::tool_calls, nullptr, emit_ns});
  json::object o = parse_own(chunk);
  first_choice(o)["delta"] = json::object{{"tool_calls", tool_calls(call)}};
  util::append_json_text(out, o);
}

void encode_tool_call_response(std::string& out, const api::ResponseHeader& header, const ToolCall& call,
                               const api::Usage& usage) {
  std::string body;
  api::encode_completion_response(body, api::ResponseKind::chat, header, "", api::FinishReason::tool_calls, usage);
  json::object o = parse_own(body);
  first_choice(o)["message"] =
      json::object{{"role", "assistant"}, {"content", nullptr}, {"tool_calls", tool_calls(call)}};
  util::append_json_text(out, o);
}

void encode_batch_tokenize(std::string& out, std::span<const std::vector<std::int32_t>> tokens,
                           std::int64_t max_model_len) {
  api::JsonWriter w(out);
  w.begin_object();
  w.key("tokens");
  w.begin_array();
  for (const auto& ids : tokens) {
    w.begin_array();
    for (const auto id : ids) w.integer(id);
    w.end_array();
  }
  w.end_array();
  w.key("count");
  w.begin_array();
  for (const auto& ids : tokens) w.integer(static_cast<std::int64_t>(ids.size()));
  w.end_array();
  w.member("max_model_len", max_model_len);
  w.end_object();
}

void encode_batch_detokenize(std::string& out, std::span<const std::string> texts) {
  api::JsonWriter w(out);
  w.begin_object();
  w.key("text");
  w.begin_array();
  for (const auto& t : texts) w.string(t);
  w.end_array();
  w.end_object();
}

}  // namespace servebench::sim::wire
