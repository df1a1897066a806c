#pragma once
// Private to the http module. StreamCore: the state one streamed or deferred exchange shares
// between the producer (any thread) and its connection (one strand). The producer appends framed
// bytes under a mutex and asks the connection to flush. Once the header is out and the
// connection has nothing in flight, the connection lets the core write directly: a chunk then
// goes to the socket from the producer's thread in one non-blocking sendmsg (size line, data and
// CRLF gathered, no copy, no post, no wake-up of an IO thread); whatever the socket does not take
// at once is queued and handed back to the connection. The fd is used only under the mutex and
// only while the core is open; the connection closes the core before it closes the socket.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "servebench/http/handler.hpp"

namespace servebench::http::detail {

class StreamCore;

enum class StreamEvent { flush, respond, abort };

// The connection side, implemented by the server connection: `notify` is thread-safe and runs
// the event on the connection's strand later.
class StreamOwner {
 public:
  virtual void notify(std::shared_ptr<StreamCore> core, StreamEvent event) = 0;

 protected:
  ~StreamOwner() = default;
};

class StreamCore : public std::enable_shared_from_this<StreamCore> {
 public:
  // `header` is the rendered response header sent before the first chunk; it must outlive the core.
  StreamCore(std::weak_ptr<StreamOwner> owner, std::string_view header);

  // Producer side, any thread (see http::Stream).
  void send(std::string_view chunk);
  void finish();
  void finish_with(std::string_view chunk);
  void respond(Response response);
  void on_close(std::function<void()> fn);
  bool closed() const noexcept { return m_closed.load(std::memory_order_acquire); }
  // The handler threw: a 500 when nothing was sent yet, else the connection is aborted.
  void fail(std::string_view message);
  // Every producer handle is gone; without finish()/respond() the exchange can never end well.
  void producer_released();

  // Connection side, on its strand.
  // Moves the queued bytes into the empty `out`; `last` tells whether they end the response.
  // False when nothing is queued: then `last` tells whether a producer wrote the end itself (the
  // exchange is over), and otherwise, when `direct_fd` ≥ 0 and the response is streaming, producers
  // write straight to that socket until the next queued byte.
  bool take_pending(std::string& out, bool& last, int direct_fd = -1);
  std::optional<Response> take_response();
  // The exchange ended (written, client gone, server stopping): runs on_close once.
  void close();

 private:
  enum class Mode { undecided, streaming, responding };
  // Under m_mutex: asks the connection for one flush unless one is already on its way.
  void request_flush_locked();
  // Under m_mutex, in direct mode: writes one chunk frame (then the end of the response, when
  // `last`) to the socket in one sendmsg; queues what it did not take.
  void write_direct_locked(std::string_view chunk, bool last);
  void start_streaming_locked();
  void notify(StreamEvent event);

  std::weak_ptr<StreamOwner> m_owner;
  std::string_view m_header;
  // Recursive: the last reference to the connection can be dropped inside send() (its notify, at
  // server shutdown), and the connection's destructor closes this core on that same thread.
  std::recursive_mutex m_mutex;
  Mode m_mode = Mode::undecided;
  std::string m_pending;  // framed bytes not yet handed to the connection
  std::optional<Response> m_response;
  bool m_flush_requested = false;
  bool m_final_queued = false;  // the terminating chunk is in m_pending, taken, or written directly
  bool m_ended_direct = false;  // a producer wrote the terminating chunk itself
  int m_direct_fd = -1;         // ≥ 0: the connection lets producers write to this socket
  std::atomic<bool> m_closed{false};
  std::function<void()> m_on_close;
};

// What handlers hold: forwards to the core; the last copy's destruction tells the core.
class StreamHandle final : public Stream {
 public:
  explicit StreamHandle(std::shared_ptr<StreamCore> core) : m_core(std::move(core)) {}
  ~StreamHandle() override { m_core->producer_released(); }
  void send(std::string_view chunk) override { m_core->send(chunk); }
  void finish() override { m_core->finish(); }
  void finish_with(std::string_view chunk) override { m_core->finish_with(chunk); }
  void respond(Response response) override { m_core->respond(std::move(response)); }
  void on_close(std::function<void()> fn) override { m_core->on_close(std::move(fn)); }
  bool closed() const noexcept override { return m_core->closed(); }

 private:
  std::shared_ptr<StreamCore> m_core;
};

}  // namespace servebench::http::detail
