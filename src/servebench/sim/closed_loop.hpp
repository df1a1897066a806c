#pragma once
// A closed-loop benchmark client on the engine's virtual clock (what `servebench bench` does over
// HTTP, without sockets): keep `concurrency` requests in flight with unique random prompts of `isl`
// tokens and `osl` output tokens (ignore_eos), and measure as bench does: TTFT, TPOT per request
// ((e2e - ttft) / (out - 1)) and output throughput. Used by `sim validate` / `sim calibrate` and the
// calibration tests. Deterministic for the same engine and salt.
#include <cstdint>
#include <vector>

#include "servebench/sim/engine.hpp"

namespace servebench::sim::loop {

struct LoopResult {
  double output_tok_s = 0;
  double mean_ttft_ms = 0, mean_tpot_ms = 0;
  double accept_length = 0;  // completion tokens / verify steps
  std::int64_t completed = 0, retractions = 0, max_running = 0;
  bool invariants_held = true;      // running <= MRR and KV pool within bounds at every step
  double full_batch_decode_ms = 0;  // mean decode-batch time while `concurrency` requests decode
  bool full_batch_cuda_graph = false;
};

// `length` ids in [256, id_limit) drawn from (salt, position): no two prompts share a prefix.
std::vector<std::int32_t> random_prompt(std::int64_t length, std::uint64_t salt, std::int32_t id_limit);

// Bounded: at most 50 M engine steps.
LoopResult run_closed_loop(Engine& engine, std::int64_t isl, std::int64_t osl, int concurrency, int num_prompts,
                           std::uint64_t salt = 1);

}  // namespace servebench::sim::loop
