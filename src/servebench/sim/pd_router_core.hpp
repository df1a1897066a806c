#pragma once
// Private to the router (pd_router*.cpp): the state its routes and exchanges share. The proxied
// exchanges live on one event loop thread; control routes run on the server's IO threads and use
// one blocking client per part (internally locked).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "servebench/http/blocking_client.hpp"
#include "servebench/http/event_loop.hpp"
#include "servebench/http/handler.hpp"
#include "servebench/http/url.hpp"
#include "servebench/sim/pd_router.hpp"

namespace servebench::sim {

class PdExchange;

struct RouterPartLink {
  http::Url url;
  std::unique_ptr<http::BlockingClient> control;
};

struct PdRouter::Core {
  RouterOptions options;
  std::vector<RouterPartLink> prefill, decode;
  http::EventLoop loop;
  std::atomic<std::uint64_t> next_prefill{0}, next_decode{0};
  std::atomic<std::int64_t> in_flight{0};  // client requests accepted and not answered yet
  // Loop thread only: the exchanges in progress, kept alive until they retire.
  std::unordered_map<const PdExchange*, std::shared_ptr<PdExchange>> live;

  // Loop thread: takes a client's inference request (`upstream` is what the parts will get).
  void start_exchange(http::Request upstream, std::shared_ptr<http::Stream> client);
  // Loop thread: forgets a finished exchange (its clients are destroyed outside their callbacks).
  void retire(const PdExchange* exchange);
};

// The control routes (pd_router_control.cpp).
void add_router_control_routes(http::Server& server, PdRouter::Core& core);

}  // namespace servebench::sim
