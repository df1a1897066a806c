#include "servebench/http/server_stream.hpp"

#include <sys/socket.h>
#include <sys/uio.h>

#include <array>
#include <charconv>

#include "servebench/http/error_response.hpp"

namespace servebench::http::detail {
namespace {

// Chunked transfer coding (RFC 9112 §7.1): "<hex size>\r\n<bytes>\r\n", ended by "0\r\n\r\n".
// The response header itself is rendered by Beast; only the chunk frames are written here.
void append_chunk(std::string& out, std::string_view chunk) {
  std::array<char, 20> size{};
  const auto end = std::to_chars(size.data(), size.data() + size.size(), chunk.size(), 16).ptr;
  out.append(size.data(), end);
  out.append("\r\n");
  out.append(chunk);
  out.append("\r\n");
}
constexpr std::string_view k_last_chunk = "0\r\n\r\n";

}  // namespace

StreamCore::StreamCore(std::weak_ptr<StreamOwner> owner, std::string_view header)
    : m_owner(std::move(owner)), m_header(header) {}

void StreamCore::send(std::string_view chunk) {
  if (chunk.empty()) return;  // an empty chunk would end the response
  std::lock_guard lock(m_mutex);
  if (closed() || m_final_queued || m_mode == Mode::responding) return;
  if (m_direct_fd >= 0) return write_direct_locked(chunk, false);
  start_streaming_locked();
  append_chunk(m_pending, chunk);
  request_flush_locked();
}

void StreamCore::write_direct_locked(std::string_view chunk, bool last) {
  std::array<char, 20> size{};
  char* end = std::to_chars(size.data(), size.data() + size.size() - 2, chunk.size(), 16).ptr;
  *end++ = '\r';
  *end++ = '\n';
  const std::size_t head = chunk.empty() ? 0 : static_cast<std::size_t>(end - size.data());
  const std::size_t trail = chunk.empty() ? 0 : 2;
  std::array<iovec, 4> iov{iovec{size.data(), head}, iovec{const_cast<char*>(chunk.data()), chunk.size()},
                           iovec{const_cast<char*>("\r\n"), trail},
                           iovec{const_cast<char*>(k_last_chunk.data()), last ? k_last_chunk.size() : 0}};
  msghdr msg{};
  msg.msg_iov = iov.data();
  msg.msg_iovlen = iov.size();
  const ssize_t sent = ::sendmsg(m_direct_fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
  const std::size_t total = head + chunk.size() + trail + iov[3].iov_len;
  const std::size_t done = sent > 0 ? static_cast<std::size_t>(sent) : 0;
  if (last) {
    m_final_queued = true;
    m_direct_fd = -1;  // the connection ends the exchange (and writes what the socket did not take)
  }
  if (done == total) {
    m_ended_direct = last;
    if (last) request_flush_locked();
    return;
  }
  // The socket is full (a slow client) or failing: queue the rest; the connection writes it (or
  // fails on it and closes) and decides when producers may write directly again.
  m_direct_fd = -1;
  std::string frame;
  if (!chunk.empty()) append_chunk(frame, chunk);
  if (last) frame.append(k_last_chunk);
  m_pending.append(frame, done);
  request_flush_locked();
}

void StreamCore::finish() { finish_with({}); }

void StreamCore::finish_with(std::string_view chunk) {
  std::lock_guard lock(m_mutex);
  if (closed() || m_final_queued || m_mode == Mode::responding) return;
  if (m_direct_fd >= 0) return write_direct_locked(chunk, true);
  start_streaming_locked();
  if (!chunk.empty()) append_chunk(m_pending, chunk);
  m_pending.append(k_last_chunk);
  m_final_queued = true;
  request_flush_locked();
}

void StreamCore::respond(Response response) {
  {
    std::lock_guard lock(m_mutex);
    if (closed() || m_mode != Mode::undecided) return;
    m_mode = Mode::responding;
    m_response = std::move(response);
  }
  notify(StreamEvent::respond);
}

void StreamCore::on_close(std::function<void()> fn) {
  {
    std::lock_guard lock(m_mutex);
    if (!closed()) {
      m_on_close = std::move(fn);
      return;
    }
  }
  fn();
}

void StreamCore::fail(std::string_view message) {
  bool abort = false;
  {
    std::lock_guard lock(m_mutex);
    if (closed() || m_mode == Mode::responding) return;
    abort = m_mode == Mode::streaming;
  }
  if (abort) {
    notify(StreamEvent::abort);
  } else {
    respond(error_response(500, message));
  }
}

void StreamCore::producer_released() {
  {
    std::lock_guard lock(m_mutex);
    if (closed() || m_final_queued || m_mode == Mode::responding) return;
  }
  notify(StreamEvent::abort);
}

bool StreamCore::take_pending(std::string& out, bool& last, int direct_fd) {
  std::lock_guard lock(m_mutex);
  m_flush_requested = false;
  last = false;
  if (m_pending.empty()) {
    last = m_ended_direct;
    if (direct_fd >= 0 && !closed() && m_mode == Mode::streaming && !m_final_queued) m_direct_fd = direct_fd;
    return false;
  }
  m_direct_fd = -1;     // the connection writes: producers queue behind it, in order
  out.swap(m_pending);  // m_pending inherits out's capacity: no allocation in steady state
  last = m_final_queued;
  return true;
}

std::optional<Response> StreamCore::take_response() {
  std::lock_guard lock(m_mutex);
  return std::exchange(m_response, std::nullopt);
}

void StreamCore::close() {
  std::function<void()> fn;
  {
    std::lock_guard lock(m_mutex);
    if (closed()) return;
    m_closed.store(true, std::memory_order_release);
    m_direct_fd = -1;  // before the connection closes the socket: no producer touches it again
    fn = std::move(m_on_close);
    m_pending.clear();
  }
  if (fn) fn();
}

void StreamCore::request_flush_locked() {
  if (m_flush_requested) return;
  m_flush_requested = true;
  if (auto owner = m_owner.lock()) owner->notify(shared_from_this(), StreamEvent::flush);
}

void StreamCore::start_streaming_locked() {
  if (m_mode != Mode::undecided) return;
  m_mode = Mode::streaming;
  m_pending.append(m_header);
}

void StreamCore::notify(StreamEvent event) {
  if (auto owner = m_owner.lock()) owner->notify(shared_from_this(), event);
}

}  // namespace servebench::http::detail
