#include "servebench/sim/server_info_launch.hpp"

#include <array>
#include <string_view>

#include <fmt/format.h>

namespace servebench::sim {
namespace {

// ServerArgs keys whose flags change what the simulator computes (deployment_facts.cpp writes the same
// keys); every other key of the body (host, port, status, derived sizes, ...) is not a launch choice.
constexpr std::array<std::string_view, 32> k_launch_keys{
    "model_path",           "tp_size",
    "pp_size",              "ep_size",
    "dp_size",              "dcp_size",
    "enable_dp_attention",  "mem_fraction_static",
    "max_running_requests", "chunked_prefill_size",
    "max_prefill_tokens",   "context_length",
    "kv_cache_dtype",       "page_size",
    "disable_radix_cache",  "enable_hierarchical_cache",
    "hicache_ratio",        "hicache_size",
    "cuda_graph_max_bs",    "cuda_graph_max_bs_decode", "disable_cuda_graph",
    "enable_mixed_chunk",   "disable_overlap_schedule",
    "enable_two_batch_overlap", "speculative_algorithm",
    "speculative_num_steps", "speculative_eagle_topk",
    "speculative_num_draft_tokens", "speculative_adaptive",
    "max_total_tokens",     "quantization",
    "moe_a2a_backend"};

// serve-sim's own facts (the body's `sim` object) that name its cards.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> k_sim_keys{{
    {"hardware", "--hw"}, {"model", "--model"}, {"engine", "--sim-engine"}, {"weight_dtype", "--sim-weight-dtype"}}};

// Appends `flag` and the value as words; false for a value that is not a scalar.
bool append(std::vector<std::string>& out, std::string_view flag, const boost::json::value& v) {
  if (v.is_null()) return true;
  if (v.is_bool()) {
    if (v.get_bool()) out.emplace_back(flag);
    return true;
  }
  std::string text;
  if (v.is_string()) {
    text = std::string(v.get_string());
  } else if (v.is_int64()) {
    text = fmt::format("{}", v.get_int64());
  } else if (v.is_uint64()) {
    text = fmt::format("{}", v.get_uint64());
  } else if (v.is_double()) {
    text = fmt::format("{}", v.get_double());
  } else {
    return false;
  }
  out.emplace_back(flag);
  out.push_back(std::move(text));
  return true;
}

std::string flag_of(std::string_view key) {
  std::string flag = "--";
  for (const char c : key) flag += c == '_' ? '-' : c;
  return flag;
}

}  // namespace

std::optional<std::vector<std::string>> launch_args_of_server_info(const boost::json::object& info) {
  std::vector<std::string> out;
  bool any = false;
  for (const auto key : k_launch_keys) {
    const auto* v = info.if_contains(key);
    if (v == nullptr) continue;
    any = true;
    append(out, flag_of(key), *v);
  }
  if (const auto* sim = info.if_contains("sim"); sim != nullptr && sim->is_object()) {
    for (const auto& [key, flag] : k_sim_keys) {
      if (const auto* v = sim->get_object().if_contains(key)) any = append(out, flag, *v) || any;
    }
  }
  if (!any) return std::nullopt;
  return out;
}

}  // namespace servebench::sim
