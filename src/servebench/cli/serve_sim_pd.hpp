#pragma once
// serve-sim's prefill/decode-disaggregation flags (SGLang's --disaggregation-*, which make a server a
// prefill or a decode part) and its router mode (`--router --prefill URL --decode URL`, which serves
// a deployment of such parts as one): docs/sim.md "Disaggregation".
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "servebench/sim/disaggregation.hpp"

namespace servebench::cli {

struct PdFlags {
  std::string mode = "null";  // --disaggregation-mode, parsed by resolve()
  bool router = false;
  std::vector<std::string> prefill, decode;  // the router's parts (repeatable)
};

void define_disaggregation_flags(CLI::App& c, sim::DisaggregationConfig& config, PdFlags& pd, const std::string& group);
void define_router_flags(CLI::App& c, PdFlags& pd, const std::string& group);
// A deployment's flags: the mode into `config`; bad_input for router flags (a router is no deployment).
util::Result<void> apply_disaggregation(const PdFlags& pd, sim::DisaggregationConfig& config);

struct RouterServe {
  std::string host;
  int port = 0, io_threads = 2;
  std::string api_key;
};
// Runs the router until SIGINT/SIGTERM (the caller has blocked both): prints the same "listening on"
// line as serve-sim, so a campaign finds its port. Exit 2 for bad part URLs or flags that make no
// sense with --router, 3 when the address cannot be bound.
int serve_router(const PdFlags& pd, const RouterServe& serve, const std::function<void()>& wait_for_signal);

}  // namespace servebench::cli
