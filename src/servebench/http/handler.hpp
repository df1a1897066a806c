#pragma once
// What a route handler of http::Server sees: the request, and for answers that are streamed or
// computed later on another thread, a Stream. No Asio/Beast here: the simulator includes this.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/http/exchange.hpp"

namespace servebench::http {

struct ServerRequest {
  std::string method;  // as received: "GET", "POST", …
  std::string target;  // path + query as received: "/flush_cache?timeout=30"
  std::string path;    // target before '?': "/flush_cache"
  std::string query;   // target after '?' (without it): "timeout=30"; "" when none
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;

  // Value of the first header called `name` (case-insensitive); "" when absent.
  std::string_view header(std::string_view name) const;
};

// One exchange whose answer comes later. Shared by the connection and the producer; every member
// is thread-safe, never blocks on the network, and is a no-op once the exchange has closed.
class Stream {
 public:
  virtual ~Stream() = default;
  // Queues `chunk` (already framed, e.g. by append_sse_data) as the next piece of a chunked
  // "200 text/event-stream" response; the first call sends the header. Chunks are written in
  // order; chunks queued behind a slow client are coalesced into one write.
  virtual void send(std::string_view chunk) = 0;
  // Ends a streamed response (an empty stream when nothing was sent).
  virtual void finish() = 0;
  // send(chunk) then finish(), in one write when the socket takes it: a producer that knows its
  // last chunk saves the end a write of its own. `chunk` may be empty.
  virtual void finish_with(std::string_view chunk) {
    if (!chunk.empty()) send(chunk);
    finish();
  }
  // Answers with a complete response instead of a stream; ignored after send() or finish().
  virtual void respond(Response response) = 0;
  // Registers the one callback run when the exchange ends: written completely, client gone,
  // server stopping, or every producer handle dropped without finish(). It runs once, on an IO
  // thread (at once on the caller's thread if already closed), and must be quick — e.g. flag the
  // request as cancelled for the producer's own thread.
  virtual void on_close(std::function<void()> fn) = 0;
  // True once the exchange has ended, for producers that poll instead of registering on_close.
  virtual bool closed() const noexcept = 0;
};

// Answers at once, on the IO thread. An exception becomes a 500 error_response with its message.
using Handler = std::function<Response(const ServerRequest&)>;
// Takes the exchange and answers through `stream`, from any thread. An exception thrown before
// anything was sent becomes a 500; after that it closes the connection. Dropping every copy of
// `stream` without finish() or respond() closes the connection (the client sees a reset).
using StreamHandler = std::function<void(const ServerRequest&, std::shared_ptr<Stream> stream)>;

}  // namespace servebench::http
