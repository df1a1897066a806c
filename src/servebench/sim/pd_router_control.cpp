// The router's control routes (pd_router.hpp): each asks its parts, on the IO thread, with one
// blocking client per part, and answers for the deployment as a whole.
#include <fmt/format.h>

#include "servebench/sim/metrics_text.hpp"
#include "servebench/sim/pd_router_core.hpp"
#include "servebench/sim/pd_router_metrics.hpp"
#include "servebench/sim/route_errors.hpp"
#include "servebench/wire/disaggregation_facts.hpp"

namespace servebench::sim {
namespace {

using Parts = std::vector<RouterPartLink>;

// One control call to one part, with the client's key passed on; a part that cannot be reached is
// a 502 naming it.
util::Result<http::Response> ask(PdRouter::Core& core, RouterPartLink& part, const http::ServerRequest& r,
                                 http::Method method, std::chrono::milliseconds extra = {}) {
  http::Request q;
  q.method = method;
  q.target = r.target;
  q.body = r.body;
  if (const auto type = r.header("Content-Type"); !type.empty()) q.content_type = std::string(type);
  if (const auto auth = r.header("Authorization"); !auth.empty()) q.headers.emplace_back("Authorization", std::string(auth));
  return part.control->send(q, core.options.control_timeout + extra);
}

http::Response unreachable(const RouterPartLink& part, const util::Error& e) {
  return json_error(502, fmt::format("{}: {}", part.url.text, e.message));
}

http::Response health(PdRouter::Core& core, const http::ServerRequest& r) {
  for (Parts* parts : {&core.prefill, &core.decode}) {
    for (auto& part : *parts) {
      auto answer = ask(core, part, r, http::Method::get);
      if (!answer) return json_error(503, fmt::format("{}: {}", part.url.text, answer.error().message));
      if (answer->status != 200) return json_error(503, fmt::format("{} answered {}", part.url.text, answer->status));
    }
  }
  return {200, "", "text/plain"};
}

http::Response server_info(PdRouter::Core& core, const http::ServerRequest& r) {
  std::vector<wire::RouterPart> prefill, decode;
  for (auto [parts, into] : {std::pair{&core.prefill, &prefill}, std::pair{&core.decode, &decode}}) {
    for (auto& part : *parts) {
      auto answer = ask(core, part, r, http::Method::get);
      into->push_back({part.url.text, answer && answer->status == 200 ? answer->body : std::string()});
    }
  }
  return {200, wire::encode_router_server_info(prefill, decode), "application/json"};
}

http::Response metrics(PdRouter::Core& core, const http::ServerRequest& r) {
  std::vector<std::vector<wire::Sample>> prefill, decode;
  for (auto [parts, into] : {std::pair{&core.prefill, &prefill}, std::pair{&core.decode, &decode}}) {
    for (auto& part : *parts) {
      auto answer = ask(core, part, r, http::Method::get);
      if (!answer) return unreachable(part, answer.error());
      if (answer->status != 200) return {answer->status, answer->body, answer->content_type};
      into->push_back(wire::parse_prometheus(answer->body));
    }
  }
  std::string out;
  append_metrics_text(out, router_stats(prefill, decode, core.in_flight.load(std::memory_order_relaxed)), "pd-router");
  return {200, std::move(out), "text/plain; version=0.0.4; charset=utf-8"};
}

// Every part flushes (each waits for its own idle, ?timeout= passed on); the first refusal answers.
http::Response flush_cache(PdRouter::Core& core, const http::ServerRequest& r) {
  std::string body;
  for (Parts* parts : {&core.prefill, &core.decode}) {
    for (auto& part : *parts) {
      auto answer = ask(core, part, r, http::Method::post, std::chrono::minutes(60));
      if (!answer) return unreachable(part, answer.error());
      if (answer->status != 200) return {answer->status, answer->body, answer->content_type};
      body = answer->body;
    }
  }
  return {200, body, "text/plain"};
}

// Passed to the first part of one side as it came.
http::Handler forward(PdRouter::Core& core, Parts& parts, http::Method method) {
  return [&core, &parts, method](const http::ServerRequest& r) {
    auto answer = ask(core, parts.front(), r, method);
    if (!answer) return unreachable(parts.front(), answer.error());
    return *answer;
  };
}

}  // namespace

void add_router_control_routes(http::Server& server, PdRouter::Core& core) {
  const auto get = [&](const char* path, http::Handler fn) { server.route(http::Method::get, path, guarded(std::move(fn))); };
  get("/health", [&core](const http::ServerRequest& r) { return health(core, r); });
  get("/health_generate", [&core](const http::ServerRequest& r) { return health(core, r); });
  for (const char* path : {"/server_info", "/get_server_info"}) {
    get(path, [&core](const http::ServerRequest& r) { return server_info(core, r); });
  }
  get("/metrics", [&core](const http::ServerRequest& r) { return metrics(core, r); });
  for (const char* path : {"/v1/models", "/model_info", "/get_model_info"}) {
    get(path, forward(core, core.decode, http::Method::get));
  }
  for (const auto method : {http::Method::get, http::Method::post}) {
    server.route(method, "/flush_cache", guarded(http::Handler([&core](const http::ServerRequest& r) { return flush_cache(core, r); })));
  }
  for (const char* path : {"/tokenize", "/v1/tokenize", "/detokenize", "/v1/detokenize"}) {
    server.route(http::Method::post, path, guarded(forward(core, core.prefill, http::Method::post)));
  }
}

}  // namespace servebench::sim
