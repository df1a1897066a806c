#include "servebench/http/server.hpp"

#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <fmt/format.h>

#include "servebench/http/server_connection.hpp"

namespace servebench::http {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto k_stop_grace = std::chrono::seconds(2);
constexpr auto k_accept_retry = std::chrono::milliseconds(50);

std::string host_port(std::string_view host, std::uint16_t port) {
  return host.find(':') == std::string_view::npos ? fmt::format("{}:{}", host, port)
                                                  : fmt::format("[{}]:{}", host, port);
}

util::Result<tcp::endpoint> listen_endpoint(asio::io_context& ioc, const ServerOptions& options) {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (!ec) return tcp::endpoint(address, options.port);
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve(options.host, std::to_string(options.port), ec);
  if (ec || results.empty()) {
    return util::failf(util::ErrorKind::unreachable, "cannot listen on {}: {}",
                       host_port(options.host, options.port), ec ? ec.message() : "no address");
  }
  return results.begin()->endpoint();
}

}  // namespace

struct Server::Impl {
  explicit Impl(ServerOptions o)
      : options(std::move(o)), ioc(std::max(1, options.io_threads)), acceptor(asio::make_strand(ioc)),
        retry_timer(acceptor.get_executor()) {
    shared->body_limit = options.body_limit;
    shared->header_timeout = options.header_timeout;
    shared->body_timeout = options.body_timeout;
    shared->close_after_response = options.close_after_response;
    shared->keepalive_timeout = options.keepalive_timeout;
    shared->max_requests_per_connection = options.max_requests_per_connection;
  }

  util::Result<void> listen();
  void accept();

  enum class State { created, running, stopped };
  ServerOptions options;
  std::shared_ptr<detail::ServerShared> shared = std::make_shared<detail::ServerShared>();
  asio::io_context ioc;
  tcp::acceptor acceptor;
  asio::steady_timer retry_timer;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::vector<std::thread> threads;
  std::atomic<std::uint64_t> accepted{0};
  std::atomic<std::uint16_t> port{0};
  State state = State::created;
};

util::Result<void> Server::Impl::listen() {
  const auto endpoint = listen_endpoint(ioc, options);
  if (!endpoint) return std::unexpected(endpoint.error());
  const auto failure = [&](const boost::system::error_code& ec) {
    return util::failf(util::ErrorKind::unreachable, "cannot listen on {}: {}",
                       host_port(options.host, options.port), ec.message());
  };
  boost::system::error_code ec;
  if (acceptor.open(endpoint->protocol(), ec); ec) return failure(ec);
  if (acceptor.set_option(tcp::acceptor::reuse_address(true), ec); ec) return failure(ec);
  if (acceptor.bind(*endpoint, ec); ec) return failure(ec);
  if (acceptor.listen(tcp::socket::max_listen_connections, ec); ec) return failure(ec);
  port = acceptor.local_endpoint().port();
  return {};
}

void Server::Impl::accept() {
  acceptor.async_accept(asio::make_strand(ioc), [this](const boost::system::error_code& ec, tcp::socket socket) {
    if (!acceptor.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: back off instead of spinning
      retry_timer.expires_after(k_accept_retry);
      retry_timer.async_wait([this](const boost::system::error_code& wait_ec) {
        if (!wait_ec) accept();
      });
      return;
    }
    accepted.fetch_add(1, std::memory_order_relaxed);
    detail::serve_connection(std::move(socket), shared);
    accept();
  });
}

Server::Server(ServerOptions options) : m_impl(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() { stop(); }

void Server::route(Method method, std::string path, Handler handler) {
  SB_CHECK(m_impl->state == Impl::State::created);
  m_impl->shared->router.add(method, std::move(path), std::move(handler));
}

void Server::route_stream(Method method, std::string path, StreamHandler handler) {
  SB_CHECK(m_impl->state == Impl::State::created);
  m_impl->shared->router.add(method, std::move(path), std::move(handler));
}

void Server::set_gate(Router::Gate gate) {
  SB_CHECK(m_impl->state == Impl::State::created);
  m_impl->shared->router.set_gate(std::move(gate));
}

void Server::set_fallback(Handler handler) {
  SB_CHECK(m_impl->state == Impl::State::created);
  m_impl->shared->router.set_fallback(std::move(handler));
}

util::Result<void> Server::start() {
  SB_CHECK(m_impl->state == Impl::State::created);
  if (auto ok = m_impl->listen(); !ok) return ok;
  m_impl->state = Impl::State::running;
  m_impl->work.emplace(m_impl->ioc.get_executor());
  m_impl->accept();
  for (int i = 0; i < std::max(1, m_impl->options.io_threads); ++i) {
    m_impl->threads.emplace_back([this] { m_impl->ioc.run(); });
  }
  return {};
}

void Server::stop() {
  Impl& impl = *m_impl;
  if (impl.state != Impl::State::running) {
    impl.state = Impl::State::stopped;
    return;
  }
  impl.state = Impl::State::stopped;
  asio::post(impl.acceptor.get_executor(), [&impl] {
    boost::system::error_code ignored;
    impl.acceptor.close(ignored);
    impl.retry_timer.cancel();
  });
  impl.shared->connections.close_all();
  impl.shared->connections.wait_empty(k_stop_grace);
  impl.work.reset();
  impl.ioc.stop();
  for (auto& thread : impl.threads) thread.join();
  impl.threads.clear();
}

std::uint16_t Server::port() const noexcept { return m_impl->port.load(); }

std::string Server::base_url() const { return fmt::format("http://{}", host_port(m_impl->options.host, port())); }

std::uint64_t Server::accepted_connections() const noexcept { return m_impl->accepted.load(); }

std::size_t Server::open_connections() const { return m_impl->shared->connections.size(); }

}  // namespace servebench::http
