#pragma once
// An Exchange that adds `Authorization: Bearer <key>` to every request of the one it wraps (the
// servers' --api-key). The key lives only here and in the request on the wire.
#include <memory>
#include <string>

#include "servebench/http/exchange.hpp"

namespace servebench::http {

class BearerExchange final : public Exchange {
 public:
  // `key` empty: requests pass unchanged.
  BearerExchange(std::unique_ptr<Exchange> inner, std::string key) : m_inner(std::move(inner)), m_key(std::move(key)) {}
  util::Result<Response> send(const Request& request, std::chrono::milliseconds timeout) override {
    if (m_key.empty()) return m_inner->send(request, timeout);
    Request r = request;
    r.headers.emplace_back("Authorization", "Bearer " + m_key);
    return m_inner->send(r, timeout);
  }
  const std::string& base_url() const override { return m_inner->base_url(); }

 private:
  std::unique_ptr<Exchange> m_inner;
  std::string m_key;
};

}  // namespace servebench::http
