#pragma once
// Router: method + exact path → handler. Pure (no sockets), so routing is tested on its own.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/http/handler.hpp"

namespace servebench::http {

// "GET" / "POST".
std::string_view method_name(Method method);

// Splits a request target at the first '?': {"/a", "x=1"} for "/a?x=1"; query "" when absent.
std::pair<std::string_view, std::string_view> split_target(std::string_view target);

class Router {
 public:
  // Registers a route; a second registration of the same method and path replaces the first.
  void add(Method method, std::string path, Handler handler);
  void add(Method method, std::string path, StreamHandler handler);
  // Answers requests no route matches (instead of the built-in 404/405 error_response).
  void set_fallback(Handler handler);
  // Runs before any route (e.g. an API-key check): a response it returns is the answer and no
  // route runs; nullopt lets the request through.
  using Gate = std::function<std::optional<Response>(const ServerRequest&)>;
  void set_gate(Gate gate) { m_gate = std::move(gate); }
  std::optional<Response> gate(const ServerRequest& request) const { return m_gate ? m_gate(request) : std::nullopt; }

  struct Match {
    const Handler* handler = nullptr;               // complete-response route
    const StreamHandler* stream_handler = nullptr;  // streamed/deferred route
  };
  // The route for `method` and `path`; both members null when none matches.
  Match find(std::string_view method, std::string_view path) const;
  // The answer to an unmatched request: the fallback's (which may throw), else 405 when the path
  // exists under another method, else 404.
  Response unmatched(const ServerRequest& request) const;

 private:
  struct Route {
    Method method;
    std::string path;
    Handler handler;
    StreamHandler stream_handler;
  };
  Route& slot(Method method, std::string path);

  std::vector<Route> m_routes;  // a handful: a linear scan beats hashing
  Handler m_fallback;
  Gate m_gate;
};

}  // namespace servebench::http
