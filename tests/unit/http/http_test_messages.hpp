#pragma once
// The requests and responses the http tests send and answer with: JSON GET/POST requests and
// plain-text responses.
#include <string>
#include <utility>

#include "servebench/http/handler.hpp"
#include "servebench/http/exchange.hpp"

namespace servebench::http {

inline Request get_request(std::string target) {
  return Request{Method::get, std::move(target), "", "application/json", {}};
}

inline Request post_request(std::string target, std::string body) {
  return Request{Method::post, std::move(target), std::move(body), "application/json", {}};
}

inline Response text_response(std::string body, int status = 200) {
  return Response{status, std::move(body), "text/plain"};
}

}  // namespace servebench::http
