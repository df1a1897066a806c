#include "servebench/cli/serve_sim_flags.hpp"

#include <set>

#include "servebench/cli/command.hpp"
#include "servebench/flags/flag_registry.hpp"

namespace servebench::cli {
namespace {

constexpr const char* k_simulated = "SGLang flags the simulation uses";
constexpr const char* k_recorded = "SGLang flags accepted and recorded only (no effect; echoed in /server_info)";
constexpr const char* k_sim = "Simulator";

void define_parallel_and_memory(CLI::App& c, ServeSimFlags& f) {
  auto& k = f.config;
  c.add_option("--tp-size,--tp,--tensor-parallel-size", k.tp_size, "tensor parallel size")->capture_default_str()->group(k_simulated);
  c.add_option("--pp-size,--pp,--pipeline-parallel-size", k.pp_size, "pipeline parallel size")->capture_default_str()->group(k_simulated);
  c.add_option("--ep-size,--ep,--expert-parallel-size", k.ep_size, "expert parallel size (divides --tp-size)")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--dp-size,--dp,--data-parallel-size", k.dp_size,
               "data parallel size (> 1 only with --enable-dp-attention: attention groups within --tp-size)")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--dcp-size,--decode-context-parallel-size", k.dcp_size,
               "decode context parallel size: TP ranks holding the same KV split its tokens (divides --tp-size)")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_flag("--enable-dp-attention", k.enable_dp_attention,
             "attention data-parallel over --dp-size groups of the TP ranks (MLP/MoE stay TP/EP)")
      ->group(k_simulated);
  c.add_option("--nnodes", k.nnodes, "nodes the deployment spans (collectives across them use the card's inter-node link)")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--node-rank", k.node_rank, "this process's node; only rank 0 serves HTTP, the others join and wait")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--dist-init-addr,--nccl-init-addr", k.dist_init_addr, "rank 0's HOST:PORT (recorded; required with --nnodes > 1)")
      ->group(k_simulated);
  c.add_option("--mem-fraction-static", k.mem_fraction_static, "GPU memory for weights + KV (default: SGLang's by TP)")
      ->group(k_simulated);
  c.add_option("--max-running-requests", k.max_running_requests,
               "running-request cap (default: SGLang's from the pool)")
      ->group(k_simulated);
  c.add_option("--chunked-prefill-size", k.chunked_prefill_size,
               "prefill tokens per batch; -1 disables chunking (default by GPU memory: 8192 on H100/H200, 16384 from 160 GiB)")
      ->group(k_simulated);
  c.add_option("--max-prefill-tokens", k.max_prefill_tokens, "prefill token budget per batch")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--max-total-tokens", k.max_total_tokens, "KV pool size override (tokens)")->group(k_simulated);
  c.add_option("--page-size", k.page_size, "KV page size (tokens)")->capture_default_str()->group(k_simulated);
  c.add_option("--kv-cache-dtype", f.kv_cache_dtype, "auto | bf16 | bfloat16 | fp8_e4m3 | fp8_e5m2 | mxfp8 | nvfp4 | fp4_e2m1 | fp4_mx_block16")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--quantization", k.quantization,
               "quantization method; fp8, w8a8_int8, modelopt_fp4, mxfp4, awq, gptq, ... set the weight format "
               "(docs/sim.md), others keep the model card's")
      ->group(k_simulated);
  c.add_option("--context-length", k.context_length, "context length (default: the model card's)")->group(k_simulated);
  c.add_flag("--disable-radix-cache", k.disable_radix_cache, "no prefix cache")->group(k_simulated);
  c.add_flag("--enable-hierarchical-cache", k.enable_hierarchical_cache, "HiCache host tier")->group(k_simulated);
  c.add_option("--hicache-ratio", k.hicache_ratio, "host tier size as a multiple of the device pool")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--hicache-size", k.hicache_size_gb, "host tier size in GB (0: by ratio)")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--cuda-graph-max-bs", k.cuda_graph_max_bs, "largest decode batch run as a CUDA graph (default by GPU memory and TP size: 256 / 512 from TP4 on H100/H200, 512 from 160 GiB)")
      ->group(k_simulated);
  c.add_option("--cuda-graph-max-bs-decode", k.cuda_graph_max_bs_decode,
               "largest decode batch run as a CUDA graph when set apart from prefill graphs (wins over "
               "--cuda-graph-max-bs for decode)")
      ->check(CLI::PositiveNumber)
      ->group(k_simulated);
  c.add_flag("--disable-cuda-graph", k.disable_cuda_graph, "every batch runs eagerly")->group(k_simulated);
  c.add_flag("--enable-mixed-chunk", k.enable_mixed_chunk, "decode rides along with prefill chunks")
      ->group(k_simulated);
  c.add_flag("--disable-overlap-schedule", k.disable_overlap_schedule,
             "the scheduler's CPU work adds to every step instead of hiding behind the GPU's")
      ->group(k_simulated);
  c.add_flag("--enable-two-batch-overlap", k.enable_two_batch_overlap,
             "two micro-batches: one's communication hides behind the other's compute")
      ->group(k_simulated);
  c.add_option("--moe-a2a-backend", f.moe_a2a_backend, "none | deepep (MoE dispatch / combine all-to-all; sets --ep-size to --tp-size)")
      ->capture_default_str()
      ->group(k_simulated);
}

void define_speculative_and_server(CLI::App& c, ServeSimFlags& f) {
  auto& k = f.config;
  c.add_option("--speculative-algorithm", f.speculative_algorithm, "EAGLE | EAGLE3 | NEXTN (MTP)")->group(k_simulated);
  c.add_option("--speculative-num-steps", k.speculative_num_steps, "draft steps")->group(k_simulated);
  c.add_option("--speculative-eagle-topk", k.speculative_eagle_topk, "draft branching")->group(k_simulated);
  c.add_option("--speculative-num-draft-tokens", k.speculative_num_draft_tokens, "tokens verified per step")
      ->group(k_simulated);
  c.add_flag("--speculative-adaptive", k.speculative_adaptive, "adaptive draft depth (see --sim-adaptive-*)")
      ->group(k_simulated);
  c.add_option("--host", f.host, "address to bind")->capture_default_str()->group(k_simulated);
  c.add_option("--port", f.port, "port to bind; 0 picks a free one (see the \"listening on\" line)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535))
      ->group(k_simulated);
  c.add_option("--api-key", f.api_key, "requests need Authorization: Bearer KEY (/health and /metrics are open)")
      ->group(k_simulated);
  c.add_option("--admin-api-key", f.admin_api_key, "/flush_cache needs Authorization: Bearer KEY")->group(k_simulated);
  c.add_option("--log-level", f.log_level, "info prints SGLang's Prefill/Decode batch lines to stderr")
      ->capture_default_str()
      ->check(CLI::IsMember({"debug", "info", "warning", "error", "critical"}))
      ->group(k_simulated);
  c.add_option("--decode-log-interval", f.decode_log_interval, "print every Nth decode batch")
      ->capture_default_str()
      ->group(k_simulated);
  c.add_option("--model-path", f.model_path, "served as the model name; picks the card when --model is absent")
      ->group(k_simulated);
  c.add_option("--served-model-name", f.served_model_name, "model id in responses and /v1/models")->group(k_simulated);
  c.add_flag("--incremental-streaming-output,--stream-output", f.incremental_output,
             "/generate streams deltas, not cumulative output")
      ->group(k_simulated);
  c.add_flag("--stream-response-default-include-usage", f.default_usage, "usage chunk without stream_options")
      ->group(k_simulated);
  define_disaggregation_flags(c, k.disaggregation, f.pd, k_simulated);
  define_router_flags(c, f.pd, k_sim);
}

void define_sim_flags(CLI::App& c, ServeSimFlags& f) {
  auto& k = f.config;
  c.add_option("--hw", k.hardware, "GPU card from data/hardware.yaml")->capture_default_str()->group(k_sim);
  c.add_option("--model", f.model_card, "model card from data/models/ (default llama-3.1-8b, or from --model-path)")
      ->group(k_sim);
  c.add_option("--sim-weight-dtype", k.weight_dtype,
               "the checkpoint's weight format when not the card's: bf16 | fp16 | fp8 | int8 | nvfp4 | mxfp4 | int4")
      ->group(k_sim);
  c.add_option("--sim-engine", k.engine, "whose physics: sglang | vllm | llamacpp (data/engines/; the HTTP dialect stays SGLang's)")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-time-scale", f.time_scale,
               "real seconds per simulated second: 1 real time, 0.1 ten times faster, 0 as fast as possible")
      ->capture_default_str()
      ->check(finite_range(0, 1000))
      ->group(k_sim);
  c.add_flag("--sim-stamp-events", f.stamp_events, "every stream chunk carries sb_emit_ns (steady clock at send)")
      ->group(k_sim);
  c.add_flag("--sim-oracle", f.oracle, "answer word problems (docs/sim.md grammar) and call the first tool")
      ->group(k_sim);
  c.add_option("--sim-seed", k.sim_seed, "seed of sampled outputs and speculative acceptance")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-accept-rate", f.accept_rates,
               "draft acceptance: one alpha, or comma-separated rates per position (default: the model "
               "card's draft.accept_rates, else 0.7)")
      ->group(k_sim);
  c.add_option("--sim-accept-length", k.sim_accept_length,
               "draft acceptance as mean tokens per verify step (one alpha solved at the draft steps)")
      ->group(k_sim);
  c.add_option("--sim-eos-probability", k.sim_eos_probability,
               "per-token stop chance after min_tokens without ignore_eos")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-init-new-token-ratio", k.init_new_token_ratio,
               "decode headroom reserved at admission (SGLang's 0.7)")
      ->capture_default_str()
      ->group(k_sim);
  c.add_flag("--sim-flush-keeps-host-tier", k.flush_keeps_host_tier,
             "flush_cache leaves the host tier (an older SGLang's trap)")
      ->group(k_sim);
  c.add_option("--sim-adaptive-cap-from-batch", k.adaptive.cap_from_batch,
               "adaptive drafting: cap steps from this batch size")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-adaptive-cap-steps", k.adaptive.cap_steps, "adaptive drafting: the capped step count")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-adaptive-off-from-batch", k.adaptive.off_from_batch,
               "adaptive drafting: off from this batch size")
      ->capture_default_str()
      ->group(k_sim);
  c.add_option("--sim-bandwidth-efficiency", k.efficiency.bandwidth, "override the card's HBM efficiency")
      ->group(k_sim);
  c.add_option("--sim-mfu", k.efficiency.mfu, "override the card's tensor-core efficiency")->group(k_sim);
  c.add_option("--sim-link-efficiency", k.efficiency.link, "override the card's NVLink/PCIe efficiency")->group(k_sim);
  c.add_option("--sim-step-overhead-us", f.step_overhead_us, "override the per-forward overhead (µs)")->group(k_sim);
  c.add_option("--sim-eager-layer-us", f.eager_layer_us, "override the per-layer cost outside CUDA graphs (µs)")
      ->group(k_sim);
  c.add_option("--sim-overrides", f.overrides_file, "card-override YAML from `servebench sim calibrate` (flags win)")
      ->group(k_sim);
  c.add_option("--sim-per-sequence-us", f.per_sequence_us, "engine CPU time per running sequence per forward (µs)")
      ->check(CLI::NonNegativeNumber)
      ->group(k_sim);
  c.add_option("--sim-per-request-us", f.per_request_us, "a request's time in the front (HTTP, tokenizer) before the scheduler sees it; delays only that request (µs)")
      ->check(CLI::NonNegativeNumber)
      ->group(k_sim);
  c.add_option("--sim-routing-skew", k.efficiency.routing_skew, "override the model card's MoE routing skew (Zipf s)")
      ->check(CLI::Range(0.0, 4.0))
      ->group(k_sim);
  c.add_option("--sim-io-threads", f.io_threads, "HTTP IO threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 64))
      ->group(k_sim);
  c.add_option("--sim-max-body-mb", f.max_body_mb, "request bodies above this answer 413")
      ->capture_default_str()
      ->check(finite_range(0.001, 4096))
      ->group(k_sim);
  c.add_option("--sim-fault", f.faults,
               "misbehave on inference routes, seeded by --sim-seed (repeatable): http-5xx:RATE, "
               "disconnect-mid-stream:RATE, stall:RATE:SECONDS, malformed-chunk:RATE, crash-after:N, slow-headers:MS, slow-steps:MS")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(k_sim);
  c.add_flag("--sim-close-after-response", f.close_after_response,
             "close each connection right after its response, unannounced (as llama-server does)")
      ->group(k_sim);
  c.add_option("--sim-keepalive-timeout-ms", f.keepalive_timeout_ms,
               "close a keep-alive connection idle this long, unannounced (as uvicorn does; 0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber)
      ->group(k_sim);
  c.add_option("--sim-max-requests-per-connection", f.max_requests_per_connection,
               "the Nth response on a connection says Connection: close (as nginx does; 0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber)
      ->group(k_sim);
}

// Every SGLang flag (the flag list, data/flags/sglang.tsv) the options above do not cover: accepted,
// recorded, echoed.
void define_recorded_flags(CLI::App& c, ServeSimFlags& f) {
  const auto registry = flags::flag_registry(flags::Dialect::sglang);
  if (!registry) return;  // a broken data file: the command reports it when run
  std::set<std::string> taken;
  for (const CLI::Option* o : c.get_options()) {
    for (const auto& name : o->get_lnames()) taken.insert("--" + name);
  }
  for (const flags::FlagSpec& spec : (*registry)->flags()) {
    if (taken.contains(spec.name)) continue;
    std::string names = spec.name;
    for (const auto& alias : spec.aliases) {
      if (!taken.contains(alias)) names += "," + alias;
    }
    auto& r = f.recorded.emplace_back();
    r.name = spec.name;
    const std::string help = spec.notes.empty() ? "recorded only" : "recorded only: " + spec.notes;
    if (spec.arity == flags::FlagArity::none) {
      r.is_switch = true;
      r.option = c.add_flag(names, help);
    } else if (spec.arity == flags::FlagArity::many) {
      r.option = c.add_option(names, r.values, help);
    } else {
      r.option = c.add_option(names, r.value, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
    r.option->group(k_recorded);
  }
}

}  // namespace

void define_serve_sim_flags(CLI::App& c, ServeSimFlags& f) {
  define_parallel_and_memory(c, f);
  define_speculative_and_server(c, f);
  define_sim_flags(c, f);
  define_recorded_flags(c, f);
}

}  // namespace servebench::cli
