#pragma once
// The `trace` scenario kind (docs/campaign-file.md): a Mooncake/AIPerf JSONL trace replayed at its
// timestamps (load/trace.hpp) — each point sends the whole (truncated) trace, open loop, with the
// point's concurrency as the cap on requests in flight; blocks with the same hash id carry the
// same tokens, so the protocol verifies the server's hit rate against the trace's own sharing.
#include <cstdint>
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "servebench/campaign/prompt_source.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

// The kind's keys (trace, block_size, time_scale, max_requests, max_duration_s) into `s`; the
// path stays as written until resolve_trace.
void read_trace_keys(util::YamlFields& f, ScenarioSpec& s);
// Resolves the path against the campaign file's directory and reads the trace: sets
// trace_requests, isl (the longest prompt) and osl (the longest output). Fails (bad_input).
util::Result<void> resolve_trace(ScenarioSpec& s, const std::filesystem::path& base_dir);
void emit_trace_keys(YAML::Emitter& y, const ScenarioSpec& s);

// The theoretical hit rate over the counter window: the trace's sharing, with `warmup` prompts of
// the first request's length counted as misses.
double trace_expected_hit_rate(const ScenarioSpec& s, std::int64_t warmup);
// One attempt's prompts and send times (token content from `seed`).
util::Result<PointPrompts> take_trace(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                      const load::Vocabulary& vocab);

}  // namespace servebench::campaign
