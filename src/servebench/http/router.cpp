#include "servebench/http/router.hpp"

#include <fmt/format.h>

#include "servebench/http/error_response.hpp"

namespace servebench::http {

std::string_view method_name(Method method) { return method == Method::get ? "GET" : "POST"; }

std::pair<std::string_view, std::string_view> split_target(std::string_view target) {
  const std::size_t mark = target.find('?');
  if (mark == std::string_view::npos) return {target, {}};
  return {target.substr(0, mark), target.substr(mark + 1)};
}

void Router::add(Method method, std::string path, Handler handler) {
  Route& route = slot(method, std::move(path));
  route.handler = std::move(handler);
  route.stream_handler = nullptr;
}

void Router::add(Method method, std::string path, StreamHandler handler) {
  Route& route = slot(method, std::move(path));
  route.handler = nullptr;
  route.stream_handler = std::move(handler);
}

void Router::set_fallback(Handler handler) { m_fallback = std::move(handler); }

Router::Match Router::find(std::string_view method, std::string_view path) const {
  for (const Route& route : m_routes) {
    if (route.path == path && method_name(route.method) == method) {
      return route.handler ? Match{&route.handler, nullptr} : Match{nullptr, &route.stream_handler};
    }
  }
  return {};
}

Response Router::unmatched(const ServerRequest& request) const {
  if (m_fallback) return m_fallback(request);
  for (const Route& route : m_routes) {
    if (route.path == request.path) {
      return error_response(405, fmt::format("method {} not allowed for {}", request.method, request.path));
    }
  }
  return error_response(404, fmt::format("no route for {} {}", request.method, request.path));
}

Router::Route& Router::slot(Method method, std::string path) {
  for (Route& route : m_routes) {
    if (route.method == method && route.path == path) return route;
  }
  return m_routes.emplace_back(Route{method, std::move(path), nullptr, nullptr});
}

}  // namespace servebench::http
