// Health, facts, metrics and cache control: answered on the IO thread from the engine thread's
// published stats, except /flush_cache, which the engine thread itself must do.
#include <fmt/format.h>

#include "servebench/sim/metrics_text.hpp"
#include "servebench/sim/route_errors.hpp"
#include "servebench/sim/routes.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/models_encoder.hpp"

namespace servebench::sim {
namespace {

constexpr std::string_view k_flushed =
    "Cache flushed.\nPlease check backend logs for more details. (When there are running or waiting requests, the "
    "operation will not be performed.)\n";

// SGLang answers 503 while starting or stopping; the simulator's health check generates nothing,
// so polling it never touches the cache.
http::Response health(const SimServer::State& state) {
  if (!state.loop.stats().ready) return json_error(503, "the server is not ready");
  return {200, "", "text/plain"};
}

http::Response server_info(const SimServer::State& state, const http::Server& server) {
  FrontFacts front = state.front;
  front.port = server.port();
  std::string out;
  append_server_info(out, state.facts, state.deployment(), front, state.loop.stats());
  return json_ok(std::move(out));
}

http::Response model_info(const SimServer::State& state) {
  wire::ModelInfo info;
  info.model_path = info.tokenizer_path = state.front.model_path;
  info.model_type = state.deployment().model.name;
  std::string out;
  wire::encode_model_info(out, info);
  return json_ok(std::move(out));
}

http::Response metrics(const SimServer::State& state) {
  std::string out;
  append_metrics_text(out, state.loop.stats(), state.front.served_model_name);
  return {200, std::move(out), "text/plain; version=0.0.4; charset=utf-8"};
}

// ?timeout=<seconds> (newer SGLang): wait up to that long for the engine to idle; 0 by default.
std::chrono::nanoseconds flush_timeout(std::string_view query) {
  for (const auto part : util::split(query, '&')) {
    if (!part.starts_with("timeout=")) continue;
    auto seconds = util::parse_double(part.substr(8), "timeout");
    if (!seconds || *seconds < 0) throw RouteError(400, "timeout: expected a number of seconds >= 0");
    return util::from_seconds(std::min(*seconds, 3600.0));
  }
  return {};
}

void flush_cache(SimServer::State& state, const http::ServerRequest& request, std::shared_ptr<http::Stream> stream) {
  const auto deadline = state.generation.clock->now() + flush_timeout(request.query);
  state.loop.flush(deadline, [stream = std::move(stream)](bool flushed) {
    if (flushed) {
      stream->respond({200, std::string(k_flushed), "text/plain"});
    } else {
      stream->respond(json_error(400,
                                 "Flush cache failed: requests are running or waiting (the cache is flushed "
                                 "only when the server is idle)"));
    }
  });
}

}  // namespace

void add_admin_routes(http::Server& server, SimServer::State& state) {
  const auto get = [&](const char* path, auto fn) {
    server.route(http::Method::get, path, guarded(http::Handler(fn)));
  };
  get("/health", [&state](const http::ServerRequest&) { return health(state); });
  get("/health_generate", [&state](const http::ServerRequest&) { return health(state); });
  get("/v1/models", [&state](const http::ServerRequest&) {
    std::string out;
    append_models(out, state.deployment(), state.front);
    return json_ok(std::move(out));
  });
  for (const char* path : {"/server_info", "/get_server_info"}) {
    get(path, [&state, &server](const http::ServerRequest&) { return server_info(state, server); });
  }
  for (const char* path : {"/model_info", "/get_model_info"}) {
    get(path, [&state](const http::ServerRequest&) { return model_info(state); });
  }
  get("/metrics", [&state](const http::ServerRequest&) { return metrics(state); });
  for (const auto method : {http::Method::get, http::Method::post}) {
    server.route_stream(
        method, "/flush_cache",
        guarded(http::StreamHandler([&state](const http::ServerRequest& r, std::shared_ptr<http::Stream> s) {
          flush_cache(state, r, std::move(s));
        })));
  }
}

}  // namespace servebench::sim
