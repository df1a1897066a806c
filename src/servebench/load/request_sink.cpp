#include "servebench/load/request_sink.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace servebench::load {
namespace {

RequestError error_of(http::StreamResult r) {
  switch (r) {
    case http::StreamResult::ok: return RequestError::none;
    case http::StreamResult::http_status: return RequestError::http_status;
    case http::StreamResult::connect_refused: return RequestError::connect_refused;
    case http::StreamResult::reset: return RequestError::reset;
    case http::StreamResult::timeout: return RequestError::timeout;
    case http::StreamResult::stalled: return RequestError::stalled;
    case http::StreamResult::malformed: return RequestError::malformed;
    case http::StreamResult::cancelled: return RequestError::cancelled;
  }
  return RequestError::malformed;
}

std::string first_bytes(std::string_view s, std::size_t n = 200) {
  std::string out(s.substr(0, n));
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

}  // namespace

RequestSink::RequestSink(ThreadRecorder& recorder, const util::Clock& clock, util::TimePoint origin,
                         Streaming streaming, DoneFn on_finished)
    : m_recorder(recorder), m_clock(clock), m_origin(origin), m_streaming(streaming),
      m_on_finished(std::move(on_finished)) {}

void RequestSink::begin(RequestRecord& record) {
  m_record = &record;
  m_decoder.reset();
  m_parser.reset();
  m_body.clear();
  m_status = 0;
  m_saw_done = false;
}

void RequestSink::on_sent(util::TimePoint sent_at) { m_record->written = since_origin(sent_at); }

void RequestSink::on_headers(int status, std::string_view) {
  m_status = status;
  m_record->http_status = status;
}

void RequestSink::on_body(std::string_view bytes, util::TimePoint received_at) {
  if (m_status < 200 || m_status >= 300) return;  // the error body comes with on_done
  if (m_streaming == Streaming::whole_body) {
    m_body.append(bytes);
    return;
  }
  std::string_view rest = bytes;
  while (auto event = m_decoder.next(rest)) handle_event(event->data, received_at);
  if (m_decoder.failed()) fail_once(RequestError::malformed, "an SSE event exceeded the size limit");
  if (m_recorder.burn_per_read.count() > 0) burn(received_at);
  const util::Nanos lag = m_clock.now() - received_at;
  m_recorder.lags.read_lag.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, lag.count())));
  m_record->read_lag_max = std::max(m_record->read_lag_max, lag);
}

void RequestSink::burn(util::TimePoint received_at) {
  while (m_clock.now() - received_at < m_recorder.burn_per_read) {
  }
}

void RequestSink::handle_event(std::string_view data, util::TimePoint received_at) {
  ++m_record->chunks;
  if (m_saw_done) return;
  if (auto ok = m_parser.parse_event(data, m_chunk); !ok) {
    fail_once(RequestError::malformed, ok.error().message);
    return;
  }
  if (m_chunk.done) {
    m_saw_done = true;
    return;
  }
  apply(m_chunk, received_at);
}

void RequestSink::apply(const wire::Chunk& c, util::TimePoint received_at) {
  RequestRecord& r = *m_record;
  if (c.error) fail_once(RequestError::stream_error, fmt::format("error in stream: {}", c.error->message));
  if (c.token_bearing) {
    const util::Nanos at = since_origin(received_at);
    if (!r.first_token) r.first_token = at;
    r.last_token = at;
    ++r.token_chunks;
    const auto tokens = static_cast<std::uint32_t>(std::max<std::int64_t>(1, c.tokens));
    r.chunk_tokens += tokens;
    if (c.source == wire::TokenCountSource::assumed_one) r.chunk_tokens_exact = false;
    m_recorder.chunks.push_back({at.count(), r.index, tokens});
  }
  if (c.usage) {
    if (c.usage->prompt_tokens) r.input_tokens_served = c.usage->prompt_tokens;
    if (c.usage->completion_tokens) r.output_tokens_served = c.usage->completion_tokens;
    if (c.usage->cached_tokens) r.cached_tokens = c.usage->cached_tokens;
  }
  if (c.meta) {
    if (c.meta->prompt_tokens) r.input_tokens_served = c.meta->prompt_tokens;
    if (c.meta->completion_tokens) r.output_tokens_served = c.meta->completion_tokens;
    if (c.meta->cached_tokens) r.cached_tokens = c.meta->cached_tokens;
    if (c.meta->spec_verify_ct) r.spec_verify_ct = c.meta->spec_verify_ct;
  }
  if (c.finish != wire::FinishReason::none && r.finish_reason.empty()) r.finish_reason = wire::to_string(c.finish);
  if (c.emit_ns) {
    const std::int64_t added = received_at.time_since_epoch().count() - *c.emit_ns;
    if (added >= 0) m_recorder.lags.client_added.record(static_cast<std::uint64_t>(added));
  }
}

void RequestSink::fail_once(RequestError error, std::string message) {
  if (m_record->error != RequestError::none) return;
  m_record->error = error;
  m_record->error_message = std::move(message);
}

void RequestSink::finish_whole_body(util::TimePoint at) {
  if (auto ok = m_parser.parse_response(m_body, m_chunk); !ok) {
    fail_once(RequestError::malformed, ok.error().message);
    return;
  }
  ++m_record->chunks;
  apply(m_chunk, at);
}

void RequestSink::on_done(const http::StreamOutcome& outcome) {
  const util::TimePoint now = m_clock.now();
  RequestRecord& r = *m_record;
  r.done = since_origin(now);
  r.reconnects = static_cast<std::uint32_t>(outcome.reconnects);
  const RequestError kind = error_of(outcome.result);
  if (kind == RequestError::http_status) {
    fail_once(kind, fmt::format("HTTP {}: {}", outcome.status, first_bytes(outcome.error_body)));
  } else if (kind != RequestError::none) {
    fail_once(kind, outcome.message);
  } else if (m_streaming == Streaming::whole_body) {
    finish_whole_body(now);
  }
  if (r.ok() && r.token_chunks == 0) fail_once(RequestError::no_tokens, "the response carried no generated token");
  m_on_finished(*this);
}

}  // namespace servebench::load
