#include "servebench/wire/response_encoder.hpp"

#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"
#include "servebench/wire/json_writer.hpp"

namespace servebench::wire {
namespace {

std::string_view object_name(ResponseKind kind, bool stream) {
  if (kind == ResponseKind::chat) return stream ? "chat.completion.chunk" : "chat.completion";
  return "text_completion";
}

void write_header(JsonWriter& json, ResponseKind kind, bool stream, const ResponseHeader& h) {
  json.member("id", h.id);
  json.member("object", object_name(kind, stream));
  json.member("created", h.created);
  json.member("model", h.model);
}

void write_finish(JsonWriter& json, FinishReason finish) {
  json.key("finish_reason");
  if (finish == FinishReason::none) {
    json.null();
  } else {
    json.string(to_string(finish));
  }
}

void write_usage(JsonWriter& json, const Usage& u) {
  const std::int64_t prompt = u.prompt_tokens.value_or(0);
  const std::int64_t completion = u.completion_tokens.value_or(0);
  json.key("usage");
  json.begin_object();
  json.member("prompt_tokens", prompt);
  json.member("completion_tokens", completion);
  json.member("total_tokens", prompt + completion);
  json.key("prompt_tokens_details");
  if (u.cached_tokens) {
    json.begin_object();
    json.member("cached_tokens", *u.cached_tokens);
    json.end_object();
  } else {
    json.null();
  }
  json.end_object();
}

void write_tail(JsonWriter& json, const Usage* usage, std::optional<std::int64_t> emit_ns) {
  if (usage != nullptr) write_usage(json, *usage);
  if (emit_ns) json.member("sb_emit_ns", *emit_ns);
}

void write_optional(JsonWriter& json, std::string_view key, const std::optional<std::int64_t>& v) {
  json.key(key);
  if (v) {
    json.integer(*v);
  } else {
    json.null();
  }
}

void write_matched(JsonWriter& json, const std::optional<MatchedStop>& matched) {
  json.key("matched");
  if (!matched) {
    json.null();
  } else if (const auto* id = std::get_if<std::int64_t>(&*matched)) {
    json.integer(*id);
  } else {
    json.string(std::get<std::string>(*matched));
  }
}

void write_meta_finish(JsonWriter& json, const SglangMeta& m) {
  json.key("finish_reason");
  if (m.finish == FinishReason::none) {
    json.null();
    return;
  }
  json.begin_object();
  json.member("type", to_string(m.finish));
  if (m.finish == FinishReason::length) write_optional(json, "length", m.finish_length);
  if (m.finish == FinishReason::stop) write_matched(json, m.finish_matched);
  json.end_object();
}

void write_meta(JsonWriter& json, std::string_view id, const SglangMeta& m) {
  json.key("meta_info");
  json.begin_object();
  json.member("id", id);
  write_meta_finish(json, m);
  write_optional(json, "prompt_tokens", m.prompt_tokens);
  write_optional(json, "completion_tokens", m.completion_tokens);
  write_optional(json, "cached_tokens", m.cached_tokens);
  json.key("cached_tokens_details");
  if (m.cached_device || m.cached_host || m.cached_storage) {
    json.begin_object();
    json.member("device", m.cached_device.value_or(0));
    json.member("host", m.cached_host.value_or(0));
    if (m.cached_storage) json.member("storage", *m.cached_storage);
    json.end_object();
  } else {
    json.null();
  }
  if (m.spec_verify_ct) json.member("spec_verify_ct", *m.spec_verify_ct);
  if (m.e2e_latency) json.member("e2e_latency", util::to_seconds(*m.e2e_latency));
  json.end_object();
}

void write_ids(JsonWriter& json, std::span<const std::int32_t> ids) {
  json.begin_array();
  for (const auto id : ids) json.integer(id);
  json.end_array();
}

void write_generate(JsonWriter& json, const GenerateOutput& output) {
  json.begin_object();
  if (output.index) json.member("index", *output.index);
  json.member("text", output.text);
  json.key("output_ids");
  write_ids(json, output.output_ids);
  write_meta(json, output.id, output.meta);
  if (output.emit_ns) json.member("sb_emit_ns", *output.emit_ns);
  json.end_object();
}

// [{"index":0,"id","type":"function","function":{"name","arguments"}}] under "tool_calls".
void write_tool_calls(JsonWriter& json, const ToolCall& call) {
  json.key("tool_calls");
  json.begin_array();
  json.begin_object();
  json.member("index", 0);
  json.member("id", call.id);
  json.member("type", "function");
  json.key("function");
  json.begin_object();
  json.member("name", call.name);
  json.member("arguments", call.arguments);
  json.end_object();
  json.end_object();
  json.end_array();
}

// One streamed chunk with a single choice; `write_choice` writes the members between "index" and
// "logprobs" ("text", or a chat "delta").
template <class WriteChoice>
void write_chunk(std::string& out, ResponseKind kind, const ResponseHeader& header, std::int64_t index,
                 FinishReason finish, const Usage* usage, std::optional<std::int64_t> emit_ns,
                 WriteChoice write_choice) {
  JsonWriter json(out);
  json.begin_object();
  write_header(json, kind, true, header);
  json.key("choices");
  json.begin_array();
  json.begin_object();
  json.member("index", index);
  write_choice(json);
  json.key("logprobs");
  json.null();
  write_finish(json, finish);
  json.end_object();
  json.end_array();
  write_tail(json, usage, emit_ns);
  json.end_object();
}

// A non-stream body: `write_choices` writes the members of the "choices" array.
template <class WriteChoices>
void write_response(std::string& out, ResponseKind kind, const ResponseHeader& header, const Usage& usage,
                    WriteChoices write_choices) {
  JsonWriter json(out);
  json.begin_object();
  write_header(json, kind, false, header);
  json.key("choices");
  json.begin_array();
  write_choices(json);
  json.end_array();
  write_usage(json, usage);
  json.end_object();
}

void write_response_choice(JsonWriter& json, ResponseKind kind, std::int64_t index, const ResponseChoice& choice) {
  json.begin_object();
  json.member("index", index);
  if (kind == ResponseKind::chat) {
    json.key("message");
    json.begin_object();
    json.member("role", "assistant");
    json.member("content", choice.text);
    json.end_object();
  } else {
    json.member("text", choice.text);
  }
  json.key("logprobs");
  json.null();
  write_finish(json, choice.finish);
  json.end_object();
}

}  // namespace

void encode_completion_chunk(std::string& out, const ResponseHeader& header, const ChunkBody& body) {
  write_chunk(out, ResponseKind::completion, header, body.index, body.finish, body.usage, body.emit_ns,
              [&](JsonWriter& json) { json.member("text", body.text); });
}

void encode_chat_chunk(std::string& out, const ResponseHeader& header, const ChunkBody& body) {
  write_chunk(out, ResponseKind::chat, header, body.index, body.finish, body.usage, body.emit_ns,
              [&](JsonWriter& json) {
                json.key("delta");
                json.begin_object();
                if (!body.text.empty() || body.finish == FinishReason::none) json.member("content", body.text);
                json.end_object();
              });
}

void encode_chat_role_chunk(std::string& out, const ResponseHeader& header, std::optional<std::int64_t> emit_ns) {
  write_chunk(out, ResponseKind::chat, header, 0, FinishReason::none, nullptr, emit_ns, [](JsonWriter& json) {
    json.key("delta");
    json.begin_object();
    json.member("role", "assistant");
    json.member("content", "");
    json.end_object();
  });
}

void encode_tool_call_chunk(std::string& out, const ResponseHeader& header, const ToolCall& call,
                            std::optional<std::int64_t> emit_ns) {
  write_chunk(out, ResponseKind::chat, header, 0, FinishReason::tool_calls, nullptr, emit_ns,
              [&](JsonWriter& json) {
                json.key("delta");
                json.begin_object();
                write_tool_calls(json, call);
                json.end_object();
              });
}

void encode_usage_chunk(std::string& out, ResponseKind kind, const ResponseHeader& header, const Usage& usage,
                        std::optional<std::int64_t> emit_ns) {
  JsonWriter json(out);
  json.begin_object();
  write_header(json, kind, true, header);
  json.key("choices");
  json.begin_array();
  json.end_array();
  write_tail(json, &usage, emit_ns);
  json.end_object();
}

void encode_completion_response(std::string& out, ResponseKind kind, const ResponseHeader& header,
                                std::string_view text, FinishReason finish, const Usage& usage) {
  const ResponseChoice choice{text, finish};
  encode_batch_completion_response(out, kind, header, std::span(&choice, 1), usage);
}

void encode_batch_completion_response(std::string& out, ResponseKind kind, const ResponseHeader& header,
                                      std::span<const ResponseChoice> choices, const Usage& usage) {
  SB_CHECK(!choices.empty());
  write_response(out, kind, header, usage, [&](JsonWriter& json) {
    for (std::size_t i = 0; i < choices.size(); ++i) {
      write_response_choice(json, kind, static_cast<std::int64_t>(i), choices[i]);
    }
  });
}

void encode_tool_call_response(std::string& out, const ResponseHeader& header, const ToolCall& call,
                               const Usage& usage) {
  write_response(out, ResponseKind::chat, header, usage, [&](JsonWriter& json) {
    json.begin_object();
    json.member("index", 0);
    json.key("message");
    json.begin_object();
    json.member("role", "assistant");
    json.key("content");
    json.null();
    write_tool_calls(json, call);
    json.end_object();
    json.key("logprobs");
    json.null();
    write_finish(json, FinishReason::tool_calls);
    json.end_object();
  });
}

void encode_generate(std::string& out, const GenerateOutput& output) {
  JsonWriter json(out);
  write_generate(json, output);
}

void encode_generate_batch(std::string& out, std::span<const GenerateOutput> outputs) {
  JsonWriter json(out);
  json.begin_array();
  for (const auto& output : outputs) write_generate(json, output);
  json.end_array();
}

void encode_error(std::string& out, std::string_view message, int code, std::string_view type) {
  JsonWriter json(out);
  json.begin_object();
  json.member("object", "error");
  json.member("message", message);
  json.member("type", type);
  json.key("param");
  json.null();
  json.member("code", code);
  json.end_object();
}

void encode_tokenize_response(std::string& out, std::span<const std::int32_t> tokens, std::int64_t max_model_len) {
  JsonWriter json(out);
  json.begin_object();
  json.key("tokens");
  write_ids(json, tokens);
  json.member("count", static_cast<std::int64_t>(tokens.size()));
  json.member("max_model_len", max_model_len);
  json.end_object();
}

void encode_batch_tokenize_response(std::string& out, std::span<const std::vector<std::int32_t>> tokens,
                                    std::int64_t max_model_len) {
  JsonWriter json(out);
  json.begin_object();
  json.key("tokens");
  json.begin_array();
  for (const auto& ids : tokens) write_ids(json, ids);
  json.end_array();
  json.key("count");
  json.begin_array();
  for (const auto& ids : tokens) json.integer(static_cast<std::int64_t>(ids.size()));
  json.end_array();
  json.member("max_model_len", max_model_len);
  json.end_object();
}

void encode_detokenize_response(std::string& out, std::string_view text) {
  JsonWriter json(out);
  json.begin_object();
  json.member("text", text);
  json.end_object();
}

void encode_batch_detokenize_response(std::string& out, std::span<const std::string> texts) {
  JsonWriter json(out);
  json.begin_object();
  json.key("text");
  json.begin_array();
  for (const auto& text : texts) json.string(text);
  json.end_array();
  json.end_object();
}

}  // namespace servebench::wire
