#pragma once
// GPU cards (data/hardware.yaml): roofline specs plus the per-GPU efficiency factors the performance
// model applies on top (documented defaults in the file and docs/sim.md; all overridable by SimConfig).
#include <chrono>
#include <string>
#include <vector>

#include "servebench/sim/model_card.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

using Nanos = std::chrono::nanoseconds;

struct Efficiency {
  double bandwidth = 0.8;  // achieved fraction of memory bandwidth
  double mfu = 0.55;       // achieved fraction of dense tensor FLOP/s
  double link = 0.83;      // achieved fraction of NVLink / PCIe bandwidth
  Nanos step_overhead{400'000};     // per forward: CPU scheduling, sampling, launch of the graph
  Nanos eager_layer{60'000};        // per layer when the batch runs outside CUDA graphs
  Nanos all_reduce_base{8'000};     // fixed all-reduce latency
  Nanos hop_latency{1'500};         // per ring hop
  double runtime_reserve_gib = 1.0; // CUDA context, NCCL/all-reduce buffers: taken before weights load
  // GEMM rows (tokens) at which a GEMM reaches half of `mfu` (docs/sim.md "GEMM efficiency").
  double gemm_half_tokens = 64;
  // Engine CPU time not hidden behind the GPU (docs/sim.md "CPU costs"); 0 unless calibrated.
  Nanos per_sequence{0};            // per running sequence per forward (scheduler bookkeeping, sampling)
  Nanos per_request{0};             // a request's time in the front before the scheduler sees it (HTTP parse,
                                    // tokenize): its own latency, in parallel with other requests and steps
};

struct HardwareCard {
  std::string name, label;
  int sm = 0;
  double memory_gb = 0, usable_gib = 0;
  double hbm_tbs = 0;
  double bf16_tflops = 0, fp8_tflops = 0, fp4_tflops = 0;
  double nvlink_gbs = 0;  // bidirectional; 0 = none
  double pcie_gbs = 0;    // per direction
  double internode_gbs = 50;        // per GPU and direction between nodes (one 400 Gb/s NIC per GPU)
  double internode_latency_us = 5;  // per node boundary a collective crosses
  Efficiency efficiency;

  // GPU memory as the serving engine sees it (usable_gib when known, else memory_gb).
  double memory_bytes() const;
  // Peer-to-peer bandwidth per direction in bytes/s before derating: NVLink when present, else PCIe.
  double link_bytes_per_s() const;
  // Dense tensor FLOP/s of a GEMM dtype; FP8/FP4 fall back to BF16 on a GPU without those units
  // (the weights are dequantized, as SGLang/vLLM do for FP4 on Hopper).
  double tensor_flops(GemmDtype gemm) const;
};

// Parses the `gpus:` list; every entry is read strictly (unknown keys are errors).
util::Result<std::vector<HardwareCard>> parse_hardware_cards(const std::string& yaml_text, const std::string& file);
// `overrides` entries merged into `base` by name: a known name has the given keys replaced (the
// `efficiency` block key by key), a new name is appended. Errors name the override file.
util::Result<std::vector<HardwareCard>> merge_hardware_cards(const std::string& base_yaml, const std::string& base_file,
                                                             const std::string& override_yaml,
                                                             const std::string& override_file);
// Loads data/hardware.yaml (the built-in list, with $SERVEBENCH_DATA_DIR/hardware.yaml merged into it
// by name) and picks `name`; fails listing the known names.
util::Result<HardwareCard> load_hardware_card(const std::string& name);

}  // namespace servebench::sim
