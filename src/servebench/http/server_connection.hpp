#pragma once
// Private to the http module (server.cpp, server_connection.cpp): pulls in Asio.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <boost/asio/ip/tcp.hpp>

#include "servebench/http/router.hpp"

namespace servebench::http::detail {

class ServerConnection;

// The live connections of one server, so stop() can close them all and wait until they are gone.
class ConnectionSet {
 public:
  // False once close_all() ran: the caller drops the connection instead of serving it.
  bool insert(const std::shared_ptr<ServerConnection>& connection);
  void erase(const ServerConnection* connection) noexcept;
  // Asks every live connection to close (on its strand) and refuses later insertions.
  void close_all();
  // Waits until no connection is left; false when `within` passed first.
  bool wait_empty(std::chrono::milliseconds within);
  std::size_t size() const;

 private:
  mutable std::mutex m_mutex;
  std::condition_variable m_empty;
  std::unordered_map<const ServerConnection*, std::weak_ptr<ServerConnection>> m_live;
  bool m_closing = false;
};

// What the connections of one server share; outlives all of them.
struct ServerShared {
  Router router;
  std::size_t body_limit = 0;
  std::chrono::milliseconds header_timeout{0}, body_timeout{0};
  bool close_after_response = false;
  std::chrono::milliseconds keepalive_timeout{0};
  std::int64_t max_requests_per_connection = 0;
  ConnectionSet connections;
};

// Serves HTTP/1.1 on an accepted socket (whose executor is a strand) until either side closes.
void serve_connection(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerShared> shared);

}  // namespace servebench::http::detail
