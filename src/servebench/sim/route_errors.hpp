#pragma once
// The one wrapper that turns a failing route handler into an HTTP error: a RouteError becomes its
// status with SGLang's JSON error body ({"object":"error","message":...,"code":...}); any other
// exception becomes a 500 with its message. One of the two places exceptions may cross.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "servebench/http/handler.hpp"

namespace servebench::sim {

// A request the simulator refuses (bad JSON, a field out of range, ...).
class RouteError : public std::runtime_error {
 public:
  RouteError(int status, const std::string& message) : std::runtime_error(message), m_status(status) {}
  int status() const { return m_status; }

 private:
  int m_status;
};

// 200 with a JSON body (every route that answers at once).
inline http::Response json_ok(std::string body) { return {200, std::move(body), "application/json"}; }

// `status` with SGLang's JSON error body.
http::Response json_error(int status, std::string_view message);

// SGLang's API-key middleware: nullopt lets `r` through; otherwise the 401 to send. /health*
// and /metrics are open; /flush_cache wants `admin_key` when there is one, every other route
// `api_key` when there is one, as `Authorization: Bearer <key>`.
std::optional<http::Response> check_api_key(const http::ServerRequest& r, const std::string& api_key,
                                            const std::string& admin_key);

http::Handler guarded(http::Handler handler);
// An exception answers the stream (when nothing was sent yet; else the scaffolding closes it).
http::StreamHandler guarded(http::StreamHandler handler);

}  // namespace servebench::sim
