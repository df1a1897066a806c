#pragma once
// SseDecoder: incremental Server-Sent Events parser (WHATWG "event stream interpretation").
// Bytes in (split anywhere), events out; no sockets, no clocks. Steady state allocates nothing:
// internal buffers keep their capacity and events are views into them.
//
// Framing: lines end with "\n", "\r\n" or "\r"; "data:" lines of one event are joined with '\n';
// "event:" sets the type, "id:" the last event id (it persists across events, as the spec says);
// lines starting with ':' are comments; unknown fields and "retry:" are ignored; a blank line
// dispatches the event, unless it had no data line. Input that ends mid-event dispatches nothing.
// A UTF-8 byte order mark is not stripped (OpenAI-compatible servers never send one).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace servebench::http {

struct SseEvent {
  std::string_view type;  // the "event:" value; empty when absent (the spec's default "message")
  std::string_view data;  // every "data:" value of the event, joined with '\n'
  std::string_view id;    // the last "id:" value seen in the stream so far; empty when none
};

class SseDecoder {
 public:
  static constexpr std::size_t k_default_max_event_bytes = std::size_t{1} << 20;

  // An event (pending line + data so far) larger than `max_event_bytes` puts the decoder in the
  // failed state, so a peer that never ends a line cannot grow memory without bound.
  explicit SseDecoder(std::size_t max_event_bytes = k_default_max_event_bytes);

  // Consumes `bytes` and calls on_event(const SseEvent&) for every event they complete. The
  // event's views stay valid during the call only. Returns false once the decoder has failed.
  template <class OnEvent>
  bool feed(std::string_view bytes, OnEvent&& on_event) {
    while (const auto event = next(bytes)) on_event(*event);
    return !failed();
  }

  // Pull form: consumes bytes from the front of `bytes` until an event completes and returns it
  // (views valid until the next call). nullopt when `bytes` is used up or the decoder failed.
  std::optional<SseEvent> next(std::string_view& bytes);

  // True after an event outgrew the limit; further input is ignored until reset().
  bool failed() const noexcept { return m_failed; }
  // True when bytes of an event that has not been dispatched are held (a torn tail).
  bool has_partial() const noexcept;
  // Forgets partial input, the last event id and the failed state; keeps buffer capacity.
  void reset() noexcept;

 private:
  bool process_line(std::string_view line);  // true when the line dispatches an event
  bool grow_within_limit(std::size_t extra);
  SseEvent make_event();

  std::size_t m_max_event_bytes;
  std::string m_line;  // a line split across inputs
  std::string m_data;  // data lines, each followed by '\n'
  std::string m_type;
  std::string m_id;
  bool m_skip_lf = false;      // the previous input ended with '\r': a leading '\n' belongs to it
  bool m_dispatched = false;   // the last returned event still views m_data/m_type
  bool m_failed = false;
};

}  // namespace servebench::http
