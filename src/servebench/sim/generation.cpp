#include "servebench/sim/generation.hpp"

#include <algorithm>

#include "servebench/http/sse_encoder.hpp"

namespace servebench::sim {
namespace {

constexpr std::size_t k_text_reserve_tokens = 1024;  // reserved up front; longer outputs grow
constexpr std::size_t k_bytes_per_token = 6;

wire::FinishReason to_wire(FinishReason r) {
  switch (r) {
    case FinishReason::none:
      return wire::FinishReason::none;
    case FinishReason::length:
      return wire::FinishReason::length;
    case FinishReason::stop:
      return wire::FinishReason::stop;
    case FinishReason::abort:
      return wire::FinishReason::abort;
  }
  return wire::FinishReason::other;
}

http::Response json_response(int status, std::string body) { return {status, std::move(body), "application/json"}; }

}  // namespace

Generation::Generation(RequestPlan plan, std::shared_ptr<http::Stream> stream, const GenerationContext& context,
                       std::string id, std::int64_t created)
    : m_plan(std::move(plan)),
      m_stream(std::move(stream)),
      m_context(&context),
      m_id(std::move(id)),
      m_created(created),
      m_items(m_plan.items.size()) {
  for (const auto& s : m_plan.stop) m_stop_holdback = std::max(m_stop_holdback, s.size() - 1);
  for (std::size_t i = 0; i < m_items.size(); ++i) {
    const auto tokens = static_cast<std::size_t>(std::max<std::int64_t>(m_plan.items[i].sampling.max_tokens, 1));
    const auto reserve = std::min(tokens, k_text_reserve_tokens);
    m_items[i].text.reserve(reserve * k_bytes_per_token);
    if (m_plan.route == wire::ServerRoute::generate) m_items[i].output.reserve(reserve);
  }
}

std::vector<SimRequest> Generation::take_requests() { return std::move(m_plan.items); }

void Generation::accepted(std::span<const RequestId> ids, ChunkBuffers& buffers) {
  m_ids.assign(ids.begin(), ids.end());
  m_open_items = ids.size();
  // The role-only chunk goes out at once (as vLLM does), so a client that counts it as the
  // first token shows a TTFT of ~0 instead of hiding the mistake.
  if (!m_plan.stream || m_plan.route != wire::ServerRoute::chat_completions) return;
  buffers.json.clear();
  buffers.frame.clear();
  wire::encode_chat_role_chunk(buffers.json, header(), stamp());
  http::append_sse_data(buffers.frame, buffers.json);
  m_stream->send(buffers.frame);
}

void Generation::rejected(std::string_view message) {
  std::string body;
  wire::encode_error(body, message, 400, "BadRequestError");
  m_stream->respond(json_response(400, std::move(body)));
}

bool Generation::on_event(std::size_t index, const TokenEvent& event, VirtualTime now, ChunkBuffers& buffers) {
  Item& item = m_items.at(index);
  item.meta = *event.meta;
  const std::optional<std::size_t> stop = append_output(item, event);
  if (stop) {
    item.finish = wire::FinishReason::stop;
    item.matched = m_plan.stop[*stop];
  } else if (event.finish != FinishReason::none) {
    item.finish = to_wire(event.finish);
    if (event.finish == FinishReason::stop && !event.tokens.empty()) item.matched = std::int64_t{event.tokens.back()};
  }
  if (item.finish != wire::FinishReason::none) {
    item.finished_at = now;
    --m_open_items;
  }
  if (!m_plan.stream) {
    if (m_open_items == 0) respond_whole();
  } else if (!m_stream->closed()) {  // a client that left gets nothing more; its cancel is on the way
    buffers.frame.clear();
    stream_chunk(index, buffers);
    if (m_open_items == 0) finish_stream(buffers);
    if (m_items.size() > 1) {
      m_outbox.append(buffers.frame);
      m_outbox_last = m_open_items == 0;
    } else if (m_open_items == 0) {
      m_stream->finish_with(buffers.frame);  // the last chunk and the end of the response: one write
    } else if (!buffers.frame.empty()) {
      m_stream->send(buffers.frame);
    }
  }
  return stop && event.finish == FinishReason::none;
}

void Generation::flush() {
  if (m_outbox_last) {
    m_stream->finish_with(m_outbox);
  } else if (!m_outbox.empty()) {
    m_stream->send(m_outbox);
  }
  m_outbox.clear();
  m_outbox_last = false;
}

// Detokenizes the new tokens onto the item's text; when a stop string now matches, returns its
// place in the plan's list (the earliest match wins; the text is cut where it starts, as OpenAI
// servers leave the stop string out).
std::optional<std::size_t> Generation::append_output(Item& item, const TokenEvent& event) {
  if (m_plan.route == wire::ServerRoute::generate)
    item.output.insert(item.output.end(), event.tokens.begin(), event.tokens.end());
  const std::size_t before = item.text.size();
  const auto decoded = m_context->tokenizer->decode_into(event.tokens, SpecialTokens::skip, item.text);
  SB_CHECK(decoded.has_value());  // the engine only emits ids of its own vocabulary
  const std::size_t from = before > m_stop_holdback ? before - m_stop_holdback : 0;
  std::size_t cut = std::string::npos;
  std::optional<std::size_t> matched;
  for (std::size_t i = 0; i < m_plan.stop.size(); ++i) {
    const std::size_t at = item.text.find(m_plan.stop[i], from);
    if (at < cut) {
      cut = at;
      matched = i;
    }
  }
  if (matched) item.text.resize(cut);
  return matched;
}

// While an item runs, its last (longest stop - 1) bytes are held back: they may begin a match.
std::size_t Generation::streamable_end(const Item& item) const {
  if (item.finish != wire::FinishReason::none) return item.text.size();
  if (item.text.size() <= m_stop_holdback) return item.text_sent;
  return std::max(item.text_sent, item.text.size() - m_stop_holdback);
}

void Generation::stream_chunk(std::size_t index, ChunkBuffers& buffers) {
  buffers.json.clear();
  if (m_plan.route == wire::ServerRoute::generate) {
    wire::encode_generate(buffers.json, next_generate_output(index, false));
  } else {
    encode_openai_chunk(index, buffers);
  }
  if (!buffers.json.empty()) http::append_sse_data(buffers.frame, buffers.json);
}

void Generation::encode_openai_chunk(std::size_t index, ChunkBuffers& buffers) {
  Item& item = m_items[index];
  const bool done = item.finish != wire::FinishReason::none;
  if (m_plan.tool_call) {  // a tool-call parser holds the call's text back and sends it whole
    if (!done) return;
    const std::string call_id = "call_" + m_id;
    wire::encode_tool_call_chunk(buffers.json, header(), {call_id, *m_plan.tool_call, "{}"}, stamp());
    return;
  }
  const std::size_t end = streamable_end(item);
  const std::string_view delta = std::string_view(item.text).substr(item.text_sent, end - item.text_sent);
  if (delta.empty() && !done) return;
  item.text_sent = end;
  const wire::Usage usage = usage_of(item);
  const wire::ChunkBody body{delta, item.finish, m_plan.continuous_usage ? &usage : nullptr, stamp(),
                            static_cast<std::int64_t>(index)};
  if (response_kind() == wire::ResponseKind::chat) {
    wire::encode_chat_chunk(buffers.json, header(), body);
  } else {
    wire::encode_completion_chunk(buffers.json, header(), body);
  }
}

// The /generate object for item `index`'s output so far (`whole`: all of it, not stamped); marks
// what it carries as sent.
wire::GenerateOutput Generation::next_generate_output(std::size_t index, bool whole) {
  Item& item = m_items[index];
  const bool incremental = !whole && m_context->generate_output == StreamOutput::incremental;
  const std::size_t end = whole ? item.text.size() : streamable_end(item);
  const std::size_t text_from = incremental ? item.text_sent : 0;
  const std::size_t ids_from = incremental ? item.ids_sent : 0;
  wire::GenerateOutput out;
  out.id = m_id;
  out.text = std::string_view(item.text).substr(text_from, end - text_from);
  out.output_ids = std::span(item.output).subspan(ids_from);
  out.meta = meta_of(item);
  if (!whole) out.emit_ns = stamp();
  if (m_plan.batch) out.index = static_cast<std::int64_t>(index);
  item.text_sent = end;
  item.ids_sent = item.output.size();
  return out;
}

void Generation::finish_stream(ChunkBuffers& buffers) {
  if (m_plan.include_usage && m_plan.route != wire::ServerRoute::generate) {
    buffers.json.clear();
    wire::encode_usage_chunk(buffers.json, response_kind(), header(), total_usage(), stamp());
    http::append_sse_data(buffers.frame, buffers.json);
  }
  http::append_sse_done(buffers.frame);
}

// The whole answer at once: one body for all items (a batch's choices or /generate objects in
// prompt order, usage summed).
void Generation::respond_whole() {
  std::string body;
  if (m_plan.route == wire::ServerRoute::generate) {
    std::vector<wire::GenerateOutput> outputs;
    for (std::size_t i = 0; i < m_items.size(); ++i) outputs.push_back(next_generate_output(i, true));
    if (m_plan.batch) {
      wire::encode_generate_batch(body, outputs);
    } else {
      wire::encode_generate(body, outputs.front());
    }
  } else if (m_plan.tool_call) {
    const std::string call_id = "call_" + m_id;
    wire::encode_tool_call_response(body, header(), {call_id, *m_plan.tool_call, "{}"}, total_usage());
  } else {
    std::vector<wire::ResponseChoice> choices;
    for (const Item& item : m_items) choices.push_back({item.text, item.finish});
    wire::encode_batch_completion_response(body, response_kind(), header(), choices, total_usage());
  }
  m_stream->respond(json_response(200, std::move(body)));
}

wire::Usage Generation::usage_of(const Item& item) const {
  return {item.meta.prompt_tokens, item.meta.completion_tokens, item.meta.cached_tokens()};
}

wire::Usage Generation::total_usage() const {
  wire::Usage total{0, 0, 0};
  for (const Item& item : m_items) {
    *total.prompt_tokens += item.meta.prompt_tokens;
    *total.completion_tokens += item.meta.completion_tokens;
    *total.cached_tokens += item.meta.cached_tokens();
  }
  return total;
}

wire::SglangMeta Generation::meta_of(const Item& item) const {
  const RequestMeta& m = item.meta;
  wire::SglangMeta out;
  out.prompt_tokens = m.prompt_tokens;
  out.completion_tokens = m.completion_tokens;
  out.cached_tokens = m.cached_tokens();
  out.cached_device = m.cached_device;
  out.cached_host = m.cached_host;
  if (m_context->speculative) out.spec_verify_ct = m.spec_verify_ct;
  out.finish = item.finish;
  if (item.finish == wire::FinishReason::length) out.finish_length = m.completion_tokens;
  if (item.finish == wire::FinishReason::stop) out.finish_matched = item.matched;
  if (item.finish != wire::FinishReason::none) out.e2e_latency = item.finished_at - m.arrival;
  return out;
}

std::optional<std::int64_t> Generation::stamp() const {
  if (m_context->stamp == StampEvents::off) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(m_context->clock->now().time_since_epoch()).count();
}

}  // namespace servebench::sim
