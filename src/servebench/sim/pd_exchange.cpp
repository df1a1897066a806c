#include "servebench/sim/pd_exchange.hpp"

#include <fmt/format.h>

#include "servebench/sim/route_errors.hpp"

namespace servebench::sim {
namespace {

constexpr std::size_t k_max_error_body = 64 * 1024;  // of a prefill part's refusal, relayed to the client

const RouterPartLink& pick(const std::vector<RouterPartLink>& parts, std::atomic<std::uint64_t>& next) {
  return parts[next.fetch_add(1, std::memory_order_relaxed) % parts.size()];
}

}  // namespace

PdExchange::PdExchange(PdRouter::Core& core, http::Request upstream, std::shared_ptr<http::Stream> client)
    : m_core(core), m_upstream(std::move(upstream)), m_client(std::move(client)) {}

void PdExchange::start() {
  if (!begin(Hop::prefill, pick(m_core.prefill, m_core.next_prefill))) m_core.retire(this);
}

bool PdExchange::begin(Hop hop, const RouterPartLink& part) {
  m_hop = hop;
  m_part = &part;
  m_status = 0;
  m_content_type.clear();
  m_body.clear();
  auto client = http::StreamClient::create(m_core.loop, part.url);
  if (!client) {
    answer(json_error(502, fmt::format("{}: {}", part.url.text, client.error().message)));
    return false;
  }
  auto& slot = hop == Hop::prefill ? m_prefill : m_decode;
  slot = std::move(*client);
  slot->start(m_upstream, *this);
  return true;
}

void PdExchange::cancel() {
  if (m_hop == Hop::done) return;
  if (auto& client = m_hop == Hop::prefill ? m_prefill : m_decode) client->cancel_all();
}

void PdExchange::on_headers(int status, std::string_view content_type) {
  m_status = status;
  m_content_type = std::string(content_type);
  m_streaming = m_hop == Hop::decode && status == 200 && content_type.starts_with("text/event-stream");
}

void PdExchange::on_body(std::string_view bytes, util::TimePoint) {
  if (m_streaming) {
    m_client->send(bytes);  // SSE events as the decode server framed them; the server re-chunks them
  } else if (m_hop == Hop::decode || (m_status != 200 && m_body.size() < k_max_error_body)) {
    m_body.append(bytes);  // the prefill part's one-token answer itself is not kept
  }
}

void PdExchange::on_done(const http::StreamOutcome& outcome) {
  using http::StreamResult;
  const bool complete = outcome.result == StreamResult::ok;
  if (m_hop == Hop::prefill) {
    if (complete) {  // the prompt's KV is ready: the decode server takes it over
      if (begin(Hop::decode, pick(m_core.decode, m_core.next_decode))) return;
    } else if (outcome.result == StreamResult::http_status) {
      answer({m_status, std::move(m_body), m_content_type});
    } else {
      fail(m_part->url, outcome);
    }
  } else if (m_streaming) {
    end_stream(complete);
  } else if (complete || outcome.result == StreamResult::http_status) {
    answer({m_status, std::move(m_body), m_content_type});
  } else {
    fail(m_part->url, outcome);
  }
  m_hop = Hop::done;
  m_core.retire(this);
}

void PdExchange::answer(http::Response response) {
  m_hop = Hop::done;
  if (m_client) m_client->respond(std::move(response));
  m_client.reset();
}

void PdExchange::end_stream(bool complete) {
  if (m_client && complete) m_client->finish();
  m_client.reset();  // without finish(): the client's connection closes, as the decode part's did
}

void PdExchange::fail(const http::Url& part, const http::StreamOutcome& outcome) {
  if (outcome.result == http::StreamResult::cancelled) {
    m_client.reset();
    return;
  }
  answer(json_error(502, fmt::format("{} server {}: {}", m_hop == Hop::prefill ? "prefill" : "decode", part.text,
                                     outcome.message.empty() ? std::string(http::to_string(outcome.result))
                                                             : outcome.message)));
}

}  // namespace servebench::sim
