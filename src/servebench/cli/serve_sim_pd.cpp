#include "servebench/cli/serve_sim_pd.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/sim/pd_router.hpp"

namespace servebench::cli {

void define_disaggregation_flags(CLI::App& c, sim::DisaggregationConfig& config, PdFlags& pd, const std::string& group) {
  c.add_option("--disaggregation-mode", pd.mode,
               "null | prefill (compute prompts, answer one token) | decode (receive prompts' KV, generate)")
      ->capture_default_str()
      ->check(CLI::IsMember({"null", "prefill", "decode"}))
      ->group(group);
  c.add_option("--disaggregation-transfer-backend", config.transfer_backend,
               "mooncake | nixl | ascend | fake | mori | mooncake_tcp (fake: no transfer time)")
      ->capture_default_str()
      ->group(group);
  c.add_option("--disaggregation-bootstrap-port", config.bootstrap_port, "recorded")->capture_default_str()->group(group);
  c.add_option("--disaggregation-ib-device", config.ib_device, "recorded")->group(group);
  c.add_flag("--disaggregation-decode-enable-radix-cache", config.decode_enable_radix_cache,
             "a decode part keeps a prefix cache (it matches nothing: the whole prompt's KV arrives)")
      ->group(group);
}

void define_router_flags(CLI::App& c, PdFlags& pd, const std::string& group) {
  c.add_flag("--router", pd.router,
             "serve a disaggregated deployment of serve-sim parts as one: prompts to a --prefill part, then "
             "generation on a --decode part (the other simulation flags do not apply)")
      ->group(group);
  c.add_option("--prefill", pd.prefill, "a prefill part's base URL (with --router; repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  c.add_option("--decode", pd.decode, "a decode part's base URL (with --router; repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
}

util::Result<void> apply_disaggregation(const PdFlags& pd, sim::DisaggregationConfig& config) {
  auto mode = sim::parse_disaggregation_mode(pd.mode);
  if (!mode) return std::unexpected(mode.error());
  config.mode = *mode;
  if (pd.router) {
    return util::fail(util::ErrorKind::bad_input,
                      "serve-sim --router fronts a disaggregated deployment's parts; it models no deployment itself");
  }
  if (!pd.prefill.empty() || !pd.decode.empty()) {
    return util::fail(util::ErrorKind::bad_input, "--prefill and --decode name a router's parts: they need --router");
  }
  return {};
}

int serve_router(const PdFlags& pd, const RouterServe& serve, const std::function<void()>& wait_for_signal) {
  if (pd.mode != "null") throw CommandError(k_exit_bad_input, "--router serves parts: it takes no --disaggregation-mode");
  sim::RouterOptions o;
  o.server.host = serve.host;
  o.server.port = static_cast<std::uint16_t>(serve.port);
  o.server.io_threads = std::max(2, serve.io_threads);  // control calls block an IO thread each
  o.prefill_urls = pd.prefill;
  o.decode_urls = pd.decode;
  o.api_key = serve.api_key;
  auto router = unwrap(sim::PdRouter::create(std::move(o)));
  unwrap(router->start());
  fmt::print("servebench serve-sim listening on {}\n", router->base_url());
  fmt::print(stderr, "serve-sim router: prefill {}; decode {}\n", fmt::join(pd.prefill, ", "), fmt::join(pd.decode, ", "));
  std::fflush(stdout);
  std::fflush(stderr);
  wait_for_signal();
  router->stop();
  return k_exit_ok;
}

}  // namespace servebench::cli
