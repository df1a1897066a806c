#include "servebench/sim/route_errors.hpp"

#include "servebench/wire/response_encoder.hpp"

namespace servebench::sim {
namespace {

std::string_view error_type(int status) {
  switch (status) {
    case 400:
      return "BadRequestError";
    case 401:
      return "AuthenticationError";
    case 404:
      return "NotFoundError";
    case 413:
      return "RequestTooLargeError";
    default:
      return "InternalServerError";
  }
}

}  // namespace

http::Response json_error(int status, std::string_view message) {
  std::string body;
  wire::encode_error(body, message, status, error_type(status));
  return {status, std::move(body), "application/json"};
}

std::optional<http::Response> check_api_key(const http::ServerRequest& r, const std::string& api_key,
                                            const std::string& admin_key) {
  if (r.path.starts_with("/health") || r.path == "/metrics") return std::nullopt;
  const bool admin = r.path == "/flush_cache";
  const std::string& key = admin && !admin_key.empty() ? admin_key : api_key;
  if (key.empty()) return std::nullopt;
  if (r.header("authorization") == "Bearer " + key) return std::nullopt;
  return json_error(401, admin && !admin_key.empty() ? "Unauthorized: this route needs the --admin-api-key"
                                                     : "Unauthorized: send Authorization: Bearer <--api-key>");
}

http::Handler guarded(http::Handler handler) {
  return [handler = std::move(handler)](const http::ServerRequest& request) -> http::Response {
    try {
      return handler(request);
    } catch (const RouteError& e) {
      return json_error(e.status(), e.what());
    } catch (const std::exception& e) {
      return json_error(500, e.what());
    }
  };
}

http::StreamHandler guarded(http::StreamHandler handler) {
  return [handler = std::move(handler)](const http::ServerRequest& request, std::shared_ptr<http::Stream> stream) {
    try {
      handler(request, stream);
    } catch (const RouteError& e) {
      stream->respond(json_error(e.status(), e.what()));
    } catch (const std::exception& e) {
      stream->respond(json_error(500, e.what()));
    }
  };
}

}  // namespace servebench::sim
