#pragma once
// One client request through the router (pd_router.hpp), on the router's loop thread: the prefill
// hop (its answer read to the end and dropped, unless it is an error, which goes to the client as
// the part gave it), then the decode hop, whose answer is relayed as it arrives — a stream chunk by
// chunk, anything else whole. A part that cannot be reached or breaks off answers 502 (a stream
// already started is cut off instead, as the part cut it off). The client leaving cancels the hop in
// progress, which closes its connection, so the part frees the request's slot and KV.
#include <memory>
#include <string>

#include "servebench/http/handler.hpp"
#include "servebench/http/stream_client.hpp"
#include "servebench/sim/pd_router_core.hpp"

namespace servebench::sim {

class PdExchange final : public http::StreamSink, public std::enable_shared_from_this<PdExchange> {
 public:
  PdExchange(PdRouter::Core& core, http::Request upstream, std::shared_ptr<http::Stream> client);
  // Starts the prefill hop (loop thread).
  void start();
  // The client is gone: cancels the hop in progress (loop thread; a no-op once answered).
  void cancel();

  void on_sent(util::TimePoint) override {}
  void on_headers(int status, std::string_view content_type) override;
  void on_body(std::string_view bytes, util::TimePoint) override;
  void on_done(const http::StreamOutcome& outcome) override;

 private:
  enum class Hop { prefill, decode, done };
  bool begin(Hop hop, const RouterPartLink& part);
  void answer(http::Response response);
  void end_stream(bool complete);
  void fail(const http::Url& part, const http::StreamOutcome& outcome);

  PdRouter::Core& m_core;
  http::Request m_upstream;
  std::shared_ptr<http::Stream> m_client;
  Hop m_hop = Hop::prefill;
  const RouterPartLink* m_part = nullptr;
  std::unique_ptr<http::StreamClient> m_prefill, m_decode;
  int m_status = 0;
  std::string m_content_type, m_body;
  bool m_streaming = false;
};

}  // namespace servebench::sim
