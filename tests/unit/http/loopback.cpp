#include "loopback.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <future>

#include "servebench/http/url.hpp"
#include "support/wait_for.hpp"

namespace servebench::http::test {

bool eventually(const std::function<bool()>& predicate, std::chrono::milliseconds within) {
  return servebench::testing::wait_until(predicate, within, 1ms);
}

ClientLoop::ClientLoop(const std::string& base_url, StreamClientOptions options) {
  auto url = parse_url(base_url);
  if (!url) throw std::runtime_error(url.error().message);
  auto created = StreamClient::create(loop, *url, options);
  if (!created) throw std::runtime_error(created.error().message);
  client = std::move(*created);
  loop.start();
}

ClientLoop::~ClientLoop() {
  run([](StreamClient& c) { c.cancel_all(); });
  loop.stop();
  client.reset();
}

void ClientLoop::run(std::function<void(StreamClient&)> fn) {
  std::promise<void> done;
  loop.post([&] {
    fn(*client);
    done.set_value();
  });
  done.get_future().wait_for(10s);
}

void ClientLoop::start(Request request, StreamSink& sink, std::chrono::nanoseconds timeout,
                       std::chrono::nanoseconds stall) {
  loop.post([this, &sink, timeout, stall, request = std::move(request)]() mutable {
    client->start(std::move(request), sink, timeout, stall);
  });
}

namespace {

sockaddr_in loopback_address(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

void set_receive_timeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = timeout.count() / 1000;
  tv.tv_usec = (timeout.count() % 1000) * 1000;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

}  // namespace

int raw_connect(std::uint16_t port, std::chrono::milliseconds receive_timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const sockaddr_in address = loopback_address(port);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  set_receive_timeout(fd, receive_timeout);
  return fd;
}

void raw_send(int fd, std::string_view bytes) { ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL); }

void raw_close(int fd) { ::close(fd); }

std::string raw_read_until(int fd, std::string_view needle) {
  std::string got;
  char buffer[64 * 1024];
  for (int reads = 0; reads < 100000; ++reads) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;  // EOF, error or receive timeout
    got.append(buffer, static_cast<std::size_t>(n));
    // Search only where the needle can newly appear, so long reads stay linear.
    const std::size_t from = got.size() - static_cast<std::size_t>(n);
    const std::size_t start = from > needle.size() ? from - needle.size() : 0;
    if (!needle.empty() && got.find(needle, start) != std::string::npos) break;
  }
  return got;
}

std::string raw_exchange(std::uint16_t port, const std::string& bytes, std::chrono::milliseconds within) {
  const int fd = raw_connect(port, within);
  if (fd < 0) return {};
  ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  std::string got = raw_read_until(fd, {});
  ::close(fd);
  return got;
}

Listener::Listener() {
  m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = loopback_address(0);
  ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::listen(m_fd, 1024);  // hundreds of clients may connect at once
  socklen_t length = sizeof address;
  ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length);
  m_port = ntohs(address.sin_port);
}

Listener::~Listener() { ::close(m_fd); }

int Listener::accept_request(std::chrono::milliseconds within) {
  pollfd p{m_fd, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(within.count())) <= 0) return -1;
  const int fd = ::accept(m_fd, nullptr, nullptr);
  if (fd < 0) return -1;
  set_receive_timeout(fd, 3000ms);
  raw_read_until(fd, "\r\n\r\n");
  return fd;
}

void raw_reset(int fd) {
  const linger abort_on_close{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  ::close(fd);
}

RawServer::RawServer(std::string reply, int connections, bool keep_open) {
  m_listen_fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = loopback_address(0);
  ::bind(m_listen_fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::listen(m_listen_fd, 16);
  socklen_t length = sizeof address;
  ::getsockname(m_listen_fd, reinterpret_cast<sockaddr*>(&address), &length);
  m_port = ntohs(address.sin_port);
  m_thread = std::thread([this, reply = std::move(reply), connections, keep_open] {
    for (int served = 0, ticks = 0; served < connections && ticks < 100 && !m_stop; ++ticks) {  // ≤ 10 s
      pollfd p{m_listen_fd, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const int fd = ::accept(m_listen_fd, nullptr, nullptr);
      if (fd < 0) return;  // the listening socket was shut down
      ++m_accepted;
      ++served;
      set_receive_timeout(fd, 3000ms);
      raw_read_until(fd, "\r\n\r\n");
      ::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL);
      if (keep_open) {
        m_open_fds.push_back(fd);
      } else {
        ::close(fd);
      }
    }
  });
}

RawServer::~RawServer() {
  m_stop = true;
  ::shutdown(m_listen_fd, SHUT_RDWR);
  m_thread.join();
  ::close(m_listen_fd);
  for (const int fd : m_open_fds) ::close(fd);
}

}  // namespace servebench::http::test
