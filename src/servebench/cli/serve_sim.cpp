// `servebench serve-sim`: the embedded simulated SGLang server. SGLang's launch flags in SGLang's
// spelling (the ones the simulation uses change it; every other flag SGLang has is accepted and
// only recorded, so a cookbook command runs by swapping the program name), plus --hw, --model and
// the --sim-* knobs. Prints one "listening on" line, serves until SIGINT/SIGTERM, exits 0.
#include <fmt/format.h>
#include <pthread.h>

#include <csignal>
#include <cstdio>

#include "servebench/cli/command.hpp"
#include "servebench/cli/serve_sim_parser.hpp"
#include "servebench/cli/serve_sim_flags.hpp"
#include "servebench/cli/serve_sim_pd.hpp"
#include "servebench/cli/version.hpp"
#include "servebench/sim/http_front.hpp"
#include "servebench/sim/sim_overrides.hpp"
#include "servebench/util/process_limits.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cli {
namespace {

// --model-path "zai-org/GLM-5.3-Flash" picks the card "glm-5.3-flash": the longest card name that
// starts its lowercased last path component.
util::Result<std::string> card_for(const ServeSimFlags& f) {
  if (!f.model_card.empty()) return f.model_card;
  if (f.model_path.empty()) return std::string("llama-3.1-8b");
  const auto names = sim::model_card_names();
  const std::string base = util::to_lower(f.model_path.substr(f.model_path.find_last_of('/') + 1));
  std::string best;
  for (const auto& name : names) {
    if (base.starts_with(name) && name.size() > best.size()) best = name;
  }
  if (best.empty()) {
    return util::failf(util::ErrorKind::bad_input, "--model-path '{}' matches no model card; pass --model NAME ({})",
                       f.model_path, util::join(names, ", "));
  }
  return best;
}

util::Result<sim::Deployment> resolve(ServeSimFlags& f) {
  auto& k = f.config;
  auto card = card_for(f);
  auto dtype = sim::parse_kv_cache_dtype(f.kv_cache_dtype);
  if (!card) return std::unexpected(card.error());
  if (!dtype) return std::unexpected(dtype.error());
  k.model = *card;
  k.kv_cache_dtype = *dtype;
  auto a2a = sim::parse_moe_a2a_backend(f.moe_a2a_backend);
  if (!a2a) return std::unexpected(a2a.error());
  k.moe_a2a_backend = *a2a;
  if (auto ok = apply_disaggregation(f.pd, k.disaggregation); !ok) return std::unexpected(ok.error());
  if (!f.speculative_algorithm.empty()) {
    auto algorithm = sim::parse_spec_algorithm(f.speculative_algorithm);
    if (!algorithm) return std::unexpected(algorithm.error());
    k.speculative_algorithm = *algorithm;
  }
  k.sim_accept_rates.clear();
  for (const auto part : f.accept_rates.empty() ? std::vector<std::string_view>{} : util::split(f.accept_rates, ',')) {
    auto rate = util::parse_double(util::trim(part), "--sim-accept-rate");
    if (!rate) return std::unexpected(rate.error());
    k.sim_accept_rates.push_back(*rate);
  }
  if (f.step_overhead_us) k.efficiency.step_overhead = util::from_ms(*f.step_overhead_us / 1000);
  if (f.eager_layer_us) k.efficiency.eager_layer = util::from_ms(*f.eager_layer_us / 1000);
  if (f.per_sequence_us) k.efficiency.per_sequence = util::from_ms(*f.per_sequence_us / 1000);
  if (f.per_request_us) k.efficiency.per_request = util::from_ms(*f.per_request_us / 1000);
  if (!f.overrides_file.empty()) {  // the file first, then the explicit --sim-* flags on top
    auto file = sim::read_sim_overrides(f.overrides_file);
    if (!file) return std::unexpected(file.error());
    sim::apply(k.efficiency, file->efficiency);
    k.efficiency = file->efficiency;
  }
  return sim::make_deployment(k);
}

sim::FrontOptions front_options(const ServeSimFlags& f) {
  sim::FrontOptions o;
  o.server.host = f.host;
  o.server.port = static_cast<std::uint16_t>(f.port);
  o.server.io_threads = f.io_threads;
  o.server.body_limit = static_cast<std::size_t>(f.max_body_mb * 1024 * 1024);
  o.server.close_after_response = f.close_after_response;
  o.server.keepalive_timeout = std::chrono::milliseconds(f.keepalive_timeout_ms);
  o.server.max_requests_per_connection = f.max_requests_per_connection;
  o.loop.time_scale = f.time_scale;
  o.loop.decode_log_interval = f.decode_log_interval;
  const bool info = f.log_level == "info" || f.log_level == "debug";
  o.loop.log = info ? stderr : nullptr;
  o.facts.version = std::string(version());
  o.facts.model_path = f.model_path;
  o.facts.served_model_name = f.served_model_name;
  for (const auto& r : f.recorded) {
    if (r.option->count() == 0) continue;
    o.facts.recorded_flags.emplace_back(r.name, r.is_switch        ? ""
                                                : r.values.empty() ? r.value
                                                                   : util::join(r.values, " "));
  }
  o.oracle = f.oracle ? sim::OracleMode::on : sim::OracleMode::off;
  o.stamp = f.stamp_events ? sim::StampEvents::on : sim::StampEvents::off;
  o.generate_output = f.incremental_output ? sim::StreamOutput::incremental : sim::StreamOutput::cumulative;
  o.default_include_usage = f.default_usage;
  o.faults = unwrap(sim::parse_fault_plan(f.faults, f.config.sim_seed));
  o.loop.step_delay = util::from_ms(o.faults.slow_steps_ms);  // the engine loop's fault, not the routes'
  o.api_key = f.api_key;
  o.admin_api_key = f.admin_api_key;
  return o;
}

// SIGINT/SIGTERM are blocked in every thread (set before any starts) and taken with sigwait.
class ShutdownSignals {
 public:
  ShutdownSignals() {
    sigemptyset(&m_set);
    sigaddset(&m_set, SIGINT);
    sigaddset(&m_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
  }
  ~ShutdownSignals() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
  int wait() const {
    int sig = 0;
    sigwait(&m_set, &sig);
    return sig;
  }

 private:
  sigset_t m_set{}, m_old{};
};

void print_startup(const sim::Deployment& d, std::FILE* log) {
  if (log == nullptr) return;
  const auto& m = d.memory;
  fmt::print(log, "Simulating {} on {} x{} (tp {}, pp {}, ep {})\n", d.model.name, d.hardware.name, d.gpus(),
             d.config.tp_size, d.config.pp_size, d.config.ep_size);
  fmt::print(log, "Load weight end. mem usage={:.2f} GB.\n", (m.weight_bytes + m.draft_weight_bytes) / 1e9);
  fmt::print(log, "KV Cache is allocated. #tokens: {}, KV size: {:.2f} GB\n", m.rank_pool_tokens,
             m.kv_pool_bytes / 1e9);
  fmt::print(log,
             "max_total_num_tokens={}, chunked_prefill_size={}, max_prefill_tokens={}, max_running_requests={}, "
             "context_len={}\n",
             m.rank_pool_tokens, d.chunked_prefill_size, d.config.max_prefill_tokens, d.max_running_requests,
             d.context_length);
  std::fflush(log);
}

int serve(ServeSimFlags& f) {
  if (f.pd.router) {
    std::signal(SIGPIPE, SIG_IGN);
    const ShutdownSignals signals;
    return serve_router(f.pd, {f.host, f.port, f.io_threads, f.api_key}, [&signals] { signals.wait(); });
  }
  auto deployment = unwrap(resolve(f));
  const auto options = front_options(f);
  std::signal(SIGPIPE, SIG_IGN);  // a launcher that closed its end of our stdout must not kill us
  util::raise_open_file_limit();
  const ShutdownSignals signals;  // before any thread starts, so every thread inherits the mask
  if (deployment.config.node_rank > 0) {  // a worker rank: rank 0 runs the simulation and serves
    fmt::print("servebench serve-sim worker: node rank {} of {}, joined {} (rank 0 serves)\n", deployment.config.node_rank,
               deployment.config.nnodes, deployment.config.dist_init_addr);
    std::fflush(stdout);
    signals.wait();
    return k_exit_ok;
  }
  print_startup(deployment, options.loop.log);
  sim::SimServer server(std::move(deployment), options);
  unwrap(server.start());
  fmt::print("servebench serve-sim listening on {}\n", server.base_url());
  std::fflush(stdout);
  if (options.loop.log) fmt::print(options.loop.log, "The server is fired up and ready to roll!\n");
  signals.wait();
  server.stop();
  return k_exit_ok;
}

}  // namespace

util::Result<plan::SimLaunch> parse_serve_sim_args(const std::vector<std::string>& args) {
  CLI::App app("serve-sim", "serve-sim");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  ServeSimFlags f;
  define_serve_sim_flags(app, f);
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 takes the words reversed
  } catch (const CLI::ParseError& e) {
    return util::failf(util::ErrorKind::bad_input, "serve-sim: {}", e.what());
  }
  auto deployment = resolve(f);
  if (!deployment) return std::unexpected(deployment.error());
  return plan::SimLaunch{std::move(*deployment), front_options(f).facts};
}

void add_serve_sim(CLI::App& app, CommandFn& selected) {
  auto* cmd = app.add_subcommand("serve-sim",
                                 "the simulated SGLang server: OpenAI-compatible HTTP, timing from a "
                                 "performance model of --hw x --model x parallelism");
  cmd->footer(
      "Flags in the 'recorded only' group are SGLang flags the simulation does not model: they are accepted "
      "so a cookbook command runs unchanged, and listed in /server_info under recorded_flags. "
      "Routes, metrics, the oracle grammar and the time mapping: docs/sim.md.");
  // Like argparse, a flag given twice takes its last value (cookbook commands get assembled from parts).
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto flags = std::make_shared<ServeSimFlags>();
  define_serve_sim_flags(*cmd, *flags);
  cmd->callback([&selected, flags] { selected = [flags] { return serve(*flags); }; });
}

}  // namespace servebench::cli
