#pragma once
// RequestSink: follows one request's response on a loop thread — SSE framing, chunk parsing and
// recording — without allocating per chunk once its buffers have grown. A sink is reused for many
// requests (reset between them); the runner keeps a small pool per thread.
#include <cstdint>
#include <functional>
#include <string>

#include "servebench/http/sse_decoder.hpp"
#include "servebench/http/stream_client.hpp"
#include "servebench/load/client_health.hpp"
#include "servebench/load/request_record.hpp"
#include "servebench/wire/chunk_parser.hpp"

namespace servebench::load {

// Per-thread destination of what sinks record: pooled chunks and lag histograms.
struct ThreadRecorder {
  std::vector<ChunkMark> chunks;
  LagHistograms lags;
  util::Nanos burn_per_read{0};  // a planted fault: CPU burnt after each read (tests of the gate)
};

enum class Streaming { sse, whole_body };

class RequestSink final : public http::StreamSink {
 public:
  using DoneFn = std::function<void(RequestSink&)>;  // called once, from on_done, after recording

  RequestSink(ThreadRecorder& recorder, const util::Clock& clock, util::TimePoint origin, Streaming streaming,
              DoneFn on_finished);

  // Prepares the sink for `record` (which must outlive the request).
  void begin(RequestRecord& record);
  RequestRecord& record() { return *m_record; }

  void on_sent(util::TimePoint sent_at) override;
  void on_headers(int status, std::string_view content_type) override;
  void on_body(std::string_view bytes, util::TimePoint received_at) override;
  void on_done(const http::StreamOutcome& outcome) override;

 private:
  void burn(util::TimePoint received_at);
  void handle_event(std::string_view data, util::TimePoint received_at);
  void apply(const wire::Chunk& chunk, util::TimePoint received_at);
  void fail_once(RequestError error, std::string message);
  void finish_whole_body(util::TimePoint at);
  util::Nanos since_origin(util::TimePoint t) const { return t - m_origin; }

  ThreadRecorder& m_recorder;
  const util::Clock& m_clock;
  util::TimePoint m_origin;
  Streaming m_streaming;
  DoneFn m_on_finished;
  http::SseDecoder m_decoder;
  wire::ChunkParser m_parser;
  wire::Chunk m_chunk;
  std::string m_body;  // whole-body responses only
  RequestRecord* m_record = nullptr;
  int m_status = 0;
  bool m_saw_done = false;
};

}  // namespace servebench::load
