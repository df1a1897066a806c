#include "servebench/campaign/trace_scenario.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/load/synthetic_workload.hpp"

namespace servebench::campaign {

void read_trace_keys(util::YamlFields& f, ScenarioSpec& s) {
  const auto path = f.optional_string("trace");
  if (!path || path->empty()) {
    f.note_at(f.node("kind"), fmt::format("scenario '{}': kind trace needs 'trace' (a Mooncake-format JSONL)", s.name));
    return;
  }
  s.trace = *path;
  if (f.has("osl")) f.note_at(f.node("osl"), fmt::format("scenario '{}': a trace gives every output length; remove osl", s.name));
  load::TraceOptions& o = s.trace_options;
  o.block_size = f.integer("block_size", o.block_size);
  if (!f.failed() && (o.block_size < 1 || o.block_size > (1 << 20))) {
    f.note_at(f.node("block_size"), fmt::format("scenario '{}': block_size must be in 1..1048576", s.name));
  }
  o.time_scale = f.number("time_scale", o.time_scale);
  if (!f.failed() && !(o.time_scale >= 0 && o.time_scale <= 1e6)) {
    f.note_at(f.node("time_scale"), fmt::format("scenario '{}': time_scale must be in [0, 1e6]", s.name));
  }
  if (f.has("max_requests")) {
    o.max_requests = f.integer("max_requests", 1);
    if (!f.failed() && *o.max_requests < 1) f.note_at(f.node("max_requests"), "max_requests must be >= 1");
  }
  if (f.has("max_duration_s")) {
    o.max_duration_s = f.number("max_duration_s", 0);
    if (!f.failed() && !(*o.max_duration_s >= 0)) f.note_at(f.node("max_duration_s"), "max_duration_s must be >= 0");
  }
}

util::Result<void> resolve_trace(ScenarioSpec& s, const std::filesystem::path& base_dir) {
  if (s.trace.is_relative()) s.trace = (base_dir / s.trace).lexically_normal();
  auto requests = load::read_trace(s.trace, s.trace_options);
  if (!requests) return util::failf(util::ErrorKind::bad_input, "scenario '{}': {}", s.name, requests.error().message);
  s.trace_requests = std::move(*requests);
  s.isl = s.osl = 0;
  for (const auto& r : s.trace_requests) {
    s.isl = std::max(s.isl, r.input_length);
    s.osl = std::max(s.osl, r.output_length);
  }
  return {};
}

void emit_trace_keys(YAML::Emitter& y, const ScenarioSpec& s) {
  const auto& o = s.trace_options;
  y << YAML::Key << "trace" << YAML::Value << s.trace.string() << YAML::Key << "block_size" << YAML::Value
    << o.block_size << YAML::Key << "time_scale" << YAML::Value << fmt::format("{}", o.time_scale);
  if (o.max_requests) y << YAML::Key << "max_requests" << YAML::Value << *o.max_requests;
  if (o.max_duration_s) y << YAML::Key << "max_duration_s" << YAML::Value << fmt::format("{}", *o.max_duration_s);
}

double trace_expected_hit_rate(const ScenarioSpec& s, std::int64_t warmup) {
  if (s.trace_requests.empty()) return 0;
  double tokens = 0;
  for (const auto& r : s.trace_requests) tokens += static_cast<double>(r.input_length);
  const double cached = load::trace_sharing(s.trace_requests, s.trace_options) * tokens;
  const double warm = static_cast<double>(warmup * s.trace_requests.front().input_length);
  return cached / (tokens + warm);
}

util::Result<PointPrompts> take_trace(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                      const load::Vocabulary& vocab) {
  auto built = load::trace_prompts(s.trace_requests, s.trace_options, vocab, seed);
  if (!built) return std::unexpected(built.error());
  PointPrompts out;
  out.measured = std::move(built->prompts);
  out.send_offsets = std::move(built->offsets);
  if (r.warmup > 0) {
    const auto& first = s.trace_requests.front();
    auto warm = load::make_random_prompts({.pattern = load::IdPattern::random, .num_prompts = r.warmup,
                                           .input_len = first.input_length, .output_len = first.output_length,
                                           .range_ratio = 1.0, .seed = seed ^ 0x9e3779b97f4a7c15ULL},
                                          vocab);
    if (!warm) return std::unexpected(warm.error());
    out.warmup = std::move(*warm);
  }
  return out;
}

}  // namespace servebench::campaign
