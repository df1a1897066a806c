// POST /v1/completions, /v1/chat/completions, /generate: parse (wire), plan, hand the generation to
// the engine thread. Nothing here waits: the answer streams from the engine thread.
#include <fmt/format.h>

#include "servebench/sim/route_errors.hpp"
#include "servebench/sim/routes.hpp"

namespace servebench::sim {
namespace {

std::string response_id(wire::ServerRoute route, std::uint64_t n) {
  switch (route) {
    case wire::ServerRoute::completions:
      return fmt::format("cmpl-{:016x}", n);
    case wire::ServerRoute::chat_completions:
      return fmt::format("chatcmpl-{:016x}", n);
    case wire::ServerRoute::generate:
      break;
  }
  return fmt::format("{:032x}", n);  // SGLang's rid: a hex uuid
}

void start_generation(SimServer::State& state, wire::ServerRoute route, const http::ServerRequest& request,
                      const std::shared_ptr<http::Stream>& stream) {
  auto parsed = wire::parse_inference_request(route, request.body);
  if (!parsed) throw RouteError(400, parsed.error().message);
  std::optional<std::string> tool;
  if (!parsed->tool_names.empty() && state.plan.oracle == OracleMode::on) tool = parsed->tool_names.front();
  auto plan = plan_request(*parsed, state.tokenizer, state.plan, tool);
  const std::uint64_t n = state.next_id.fetch_add(1, std::memory_order_relaxed);
  auto generation = std::make_shared<Generation>(std::move(plan), stream, state.generation, response_id(route, n),
                                                 SimServer::State::unix_now());
  // A client that leaves mid-stream frees its slot and KV at the engine's next iteration.
  stream->on_close([&loop = state.loop, weak = std::weak_ptr<Generation>(generation)] { loop.cancel(weak); });
  state.loop.submit(std::move(generation));
}

http::StreamHandler generation_route(SimServer::State& state, wire::ServerRoute route) {
  return state.faults.wrap(
      guarded([&state, route](const http::ServerRequest& request, std::shared_ptr<http::Stream> stream) {
        start_generation(state, route, request, stream);
      }));
}

}  // namespace

void add_inference_routes(http::Server& server, SimServer::State& state) {
  server.route_stream(http::Method::post, "/v1/completions", generation_route(state, wire::ServerRoute::completions));
  server.route_stream(http::Method::post, "/v1/chat/completions",
                      generation_route(state, wire::ServerRoute::chat_completions));
  server.route_stream(http::Method::post, "/generate", generation_route(state, wire::ServerRoute::generate));
}

}  // namespace servebench::sim
