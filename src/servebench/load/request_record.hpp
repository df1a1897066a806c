#pragma once
// What the runner learns about one request. Times are offsets from the run's origin (the moment
// the measured phase started), taken when the socket read returned, before parsing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

// Why a request failed; `none` for a request that completed. The names are output keys.
enum class RequestError : std::uint8_t {
  none, http_status, connect_refused, reset, timeout, malformed, cancelled, no_tokens,
  stream_error,  // a 2xx stream that carried an error event (the server failed mid-generation)
  stalled,       // no byte for the stall timeout (a hung server, not a slow one)
};
inline constexpr std::size_t k_request_error_kinds = 10;
std::string_view to_string(RequestError e);

struct RequestRecord {
  std::uint32_t index = 0;  // position among the measured requests
  util::Nanos intended{0};  // due time: the schedule offset (open loop) or `released` (closed loop)
  util::Nanos released{0};  // when the concurrency cap let it go (>= intended)
  util::Nanos sent{0};      // sending started: the origin of TTFT and E2E
  util::Nanos written{0};   // the last request byte was written
  std::optional<util::Nanos> first_token, last_token;  // token-bearing chunks
  util::Nanos done{0};      // the response ended (or failed)

  std::int64_t input_tokens_planned = 0;  // 0 when the prompt's length was unknown before sending
  std::optional<std::int64_t> input_tokens_served;   // usage.prompt_tokens or native meta
  std::int64_t output_tokens_requested = 0;
  std::optional<std::int64_t> output_tokens_served;  // usage.completion_tokens or native meta
  std::optional<std::int64_t> cached_tokens;         // prompt_tokens_details.cached_tokens / meta
  std::optional<std::int64_t> spec_verify_ct;        // native meta (sglang, sim)

  std::uint32_t chunks = 0;             // stream events received
  std::uint32_t token_chunks = 0;       // events carrying at least one generated token
  std::uint32_t chunk_tokens = 0;       // tokens the chunks said they carried
  bool chunk_tokens_exact = true;       // false when some chunk did not say how many tokens it had
  util::Nanos read_lag_max{0};          // longest socket-read-to-recorded time of a chunk
  std::uint32_t reconnects = 0;         // sent again on a fresh connection (the server had closed the pooled one)

  RequestError error = RequestError::none;
  int http_status = 0;
  std::string error_message;
  std::string finish_reason;

  // A fleet behind a router (`plan --replicas`): the replica that served the request, the router's
  // reason (static text: "prefix", "least-outstanding", "round-robin", "balance") and the prompt
  // prefix, in tokens, the router had sent that replica before. replica < 0: no router.
  std::int32_t replica = -1;
  std::string_view route;
  std::int64_t route_matched_tokens = 0;

  bool ok() const { return error == RequestError::none; }
  // Server count when known, else the tokens the chunks carried.
  std::int64_t output_tokens() const { return output_tokens_served.value_or(chunk_tokens); }
  // Server count when known, else the planned length.
  std::int64_t input_tokens() const { return input_tokens_served.value_or(input_tokens_planned); }
};

// One token-bearing chunk, pooled per thread: ITL and the 1-s buckets are computed from these.
struct ChunkMark {
  std::int64_t at_ns = 0;      // offset from the run origin
  std::uint32_t request = 0;   // RequestRecord::index
  std::uint32_t tokens = 1;    // tokens in the chunk (1 when the chunk did not say)
};

}  // namespace servebench::load
