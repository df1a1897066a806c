#pragma once
// Exchange: one blocking HTTP request/response against one server. The control plane (flush,
// metrics scrape, server facts, tokenize, health) uses this seam, so engine adapters can be
// tested against recorded responses without sockets. The measured load path does not use it.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::http {

enum class Method { get, post };

struct Request {
  Method method = Method::get;
  std::string target;  // path + query, e.g. "/flush_cache?timeout=30"
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. {"Authorization", "Bearer …"}
};

struct Response {
  int status = 0;
  std::string body;
  std::string content_type;
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  // Sends `request` and returns the whole response (any status). Fails with
  // ErrorKind::unreachable when the server cannot be connected to, and ErrorKind::failed on
  // timeout or a broken connection; the message names the URL and the reason.
  virtual util::Result<Response> send(const Request& request, std::chrono::milliseconds timeout) = 0;
  // "http://127.0.0.1:30000" — for messages.
  virtual const std::string& base_url() const = 0;
};

}  // namespace servebench::http
