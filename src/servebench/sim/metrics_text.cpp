#include "servebench/sim/metrics_text.hpp"

#include <fmt/format.h>

#include "servebench/wire/metric_names.hpp"

namespace servebench::sim {
namespace {

enum class Kind { counter, gauge };

struct PromMetric {
  std::string_view name;
  Kind kind;
  std::string_view help;
  double value;
};

// Label values escape backslash, double quote and newline (exposition format).
void append_label_value(std::string& out, std::string_view v) {
  for (char c : v) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

void append_metric(std::string& out, const PromMetric& m, std::string_view model_name) {
  fmt::format_to(std::back_inserter(out), "# HELP {} {}\n# TYPE {} {}\n{}{{model_name=\"", m.name, m.help, m.name,
                 m.kind == Kind::counter ? "counter" : "gauge", m.name);
  append_label_value(out, model_name);
  fmt::format_to(std::back_inserter(out), "\"}} {}\n", m.value);
}

double num(std::int64_t v) { return static_cast<double>(v); }

// A Prometheus histogram: cumulative buckets, then _sum and _count.
void append_step_lateness(std::string& out, const StepLateness& l, std::string_view model_name) {
  const std::string_view name = wire::sglang_metric::k_sim_step_lateness_seconds;
  fmt::format_to(std::back_inserter(out),
                 "# HELP {} How late the engine loop handed out a step's chunks against its schedule (simulator).\n"
                 "# TYPE {} histogram\n",
                 name, name);
  const auto sample = [&](std::string_view suffix, std::string_view le, double value) {
    fmt::format_to(std::back_inserter(out), "{}{}{{model_name=\"", name, suffix);
    append_label_value(out, model_name);
    out += '"';
    if (!le.empty()) fmt::format_to(std::back_inserter(out), ",le=\"{}\"", le);
    fmt::format_to(std::back_inserter(out), "}} {}\n", value);
  };
  for (std::size_t i = 0; i < StepLateness::k_edges_s.size(); ++i) {
    sample("_bucket", fmt::format("{}", StepLateness::k_edges_s[i]), static_cast<double>(l.cumulative(i)));
  }
  sample("_bucket", "+Inf", static_cast<double>(l.steps));
  sample("_sum", "", l.sum_s);
  sample("_count", "", static_cast<double>(l.steps));
}

}  // namespace

void append_metrics_text(std::string& out, const ServerStats& stats, std::string_view model_name) {
  namespace metric = wire::sglang_metric;
  const EngineCounters& c = stats.counters;
  const PromMetric metrics[] = {
      {metric::k_prompt_tokens_total, Kind::counter, "Number of prefill tokens processed (finished requests).",
       num(c.prompt_tokens_total)},
      {metric::k_cached_tokens_total, Kind::counter,
       "Number of prompt tokens served from the prefix cache (device + host).", num(c.cached_tokens_total)},
      {metric::k_generation_tokens_total, Kind::counter, "Number of generation tokens processed.",
       num(c.generation_tokens_total)},
      {metric::k_num_requests_total, Kind::counter, "Number of requests finished.", num(c.requests_finished_total)},
      {metric::k_spec_verify_ct_total, Kind::counter,
       "Speculative verify steps (simulator; accept length = 1 + accepted / verify steps).",
       num(c.spec_verify_steps_total)},
      {metric::k_spec_accepted_tokens_total, Kind::counter, "Accepted draft tokens, bonus token excluded (simulator).",
       num(c.spec_accepted_tokens_total)},
      {metric::k_num_retracted_reqs_total, Kind::counter, "Requests retracted because the KV pool was full.",
       num(c.retractions_total)},
      {metric::k_num_running_reqs, Kind::gauge, "The number of running requests.", num(c.running)},
      {metric::k_num_queue_reqs, Kind::gauge, "The number of requests in the waiting queue.", num(c.queued)},
      {metric::k_num_used_tokens, Kind::gauge, "The number of KV-cache tokens in use.", num(c.used_tokens)},
      {metric::k_token_usage, Kind::gauge, "The token usage of the KV pool.", c.token_usage},
      {metric::k_max_total_num_tokens, Kind::gauge, "Maximum total number of tokens in the KV pool.",
       num(c.max_total_num_tokens)},
      {metric::k_gen_throughput, Kind::gauge, "The generation throughput (token/s) of the last decode-log window.",
       stats.gen_throughput},
      {metric::k_spec_accept_length, Kind::gauge, "The average acceptance length since start (0 without speculation).",
       stats.accept_length},
      {metric::k_kv_transfers_total, Kind::counter,
       "Prompts whose KV this decode server received from a prefill server (simulator).", num(c.kv_transfers_total)},
      {metric::k_kv_transfer_tokens_total, Kind::counter, "Prompt tokens whose KV was received (simulator).",
       num(c.kv_transfer_tokens_total)},
      {metric::k_kv_transfer_seconds_total, Kind::counter,
       "Virtual seconds from KV allocation until the transferred KV arrived, summed (simulator).",
       static_cast<double>(c.kv_transfer_ns_total) / 1e9},
  };
  for (const PromMetric& m : metrics) append_metric(out, m, model_name);
  append_step_lateness(out, stats.step_lateness, model_name);
}

}  // namespace servebench::sim
