#pragma once
// PdRouter: the minimal router of a prefill/decode-disaggregated deployment of simulated servers
// (`servebench serve-sim --router --prefill URL --decode URL`), so the whole path runs on one
// machine (docs/sim.md "Disaggregation: the router"). An inference request (/v1/completions,
// /v1/chat/completions, /generate) goes to a prefill server as it came — which computes the prompt
// and answers one token — then, once that answer is complete, to a decode server, which receives
// the prompt's KV over its modelled link and generates; the decode server's answer is relayed to
// the client byte for byte as it arrives. Parts are taken round-robin. Control routes speak for the
// deployment: /health (every part healthy), /server_info (wire::encode_router_server_info), /metrics
// (pd_router_metrics.hpp), /flush_cache (every part), /v1/models and /model_info (the first decode
// part's), tokenize/detokenize (the first prefill part's). It works with serve-sim parts only: a
// real SGLang deployment has SGLang's router, which passes bootstrap fields this one does not.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "servebench/http/server.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

struct RouterOptions {
  http::ServerOptions server;  // host, port (0: ephemeral), IO threads, body limit
  std::vector<std::string> prefill_urls, decode_urls;  // at least one each
  std::string api_key;  // as serve-sim's --api-key; the client's Authorization is passed to the parts
  std::chrono::milliseconds control_timeout{30'000};  // one control call to one part (plus a flush's wait)
};

class PdRouter {
 public:
  // Checks the URLs (bad_input naming the one that is not http://host:port); binds nothing yet.
  static util::Result<std::unique_ptr<PdRouter>> create(RouterOptions options);
  ~PdRouter();  // stop()
  PdRouter(const PdRouter&) = delete;
  PdRouter& operator=(const PdRouter&) = delete;

  // Binds and starts serving; fails (unreachable) naming the address it could not bind.
  util::Result<void> start();
  // Closes every client connection (their upstream requests are cancelled), then stops.
  void stop();
  std::string base_url() const;

  struct Core;

 private:
  explicit PdRouter(std::unique_ptr<Core> core, const http::ServerOptions& server);
  std::unique_ptr<Core> m_core;
  http::Server m_server;
};

}  // namespace servebench::sim
