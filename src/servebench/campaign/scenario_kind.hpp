#pragma once
// What a scenario sends (docs/campaign-file.md "Scenario kinds"): `fixed` prompts of isl tokens
// that share nothing (the cold-cache protocol), or workloads that share prefixes on purpose —
// `generated-shared-prefix` (groups × prompts per group behind one system prompt per group) and
// `multi-turn` (closed-loop conversations). For those the protocol still flushes before every
// point, and verifies that the server's hit rate is the workload's expected rate ± 0.02.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>
#include <yaml-cpp/yaml.h>

#include "servebench/campaign/prompt_source.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/load/request_record.hpp"
#include "servebench/stats/summary.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

inline constexpr double k_hit_rate_tolerance = 0.02;

// Reads `kind` and the kind's keys into `s`; for a shared-prefix kind also sets isl (the longest
// prompt) and osl, which the scenario then must not give. Returns false for `fixed` (the caller
// reads isl and osl). Errors are noted on `f`.
bool read_scenario_kind(util::YamlFields& f, ScenarioSpec& s);
// The kind's keys, for the resolved campaign file (nothing for `fixed`).
void emit_scenario_kind(YAML::Emitter& y, const ScenarioSpec& s);

// Requests of one point: protocol.num_prompts at c for `fixed`, groups × prompts_per_group, or
// conversations × turns (conversations default to protocol.num_prompts at c).
std::int64_t scenario_prompts(const ScenarioSpec& s, std::int64_t num_prompts_at_c);
// The hit rate a shared-prefix kind should reach from a flushed cache over a point of `requests`
// measured requests and `warmup` warmup prompts (which share nothing, and fall inside the
// protocol's counter window: it opens at the flush); nullopt for `fixed`.
std::optional<double> expected_hit_rate(const ScenarioSpec& s, std::int64_t requests, std::int64_t warmup);

// The prompts of one attempt of a shared-prefix kind: token ids from the point's seed, warmup
// prompts that share nothing with them. Fails (bad_input) without a server vocabulary.
util::Result<PointPrompts> take_shaped(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                       load::ServerControl& control);

// For controlled-hit-rate: that the target is reachable at every concurrency of the ladder (noted
// on `f` at the scenario's hit_rate). Nothing for the other kinds.
void check_scenario_kind(util::YamlFields& f, const ScenarioSpec& s, const ProtocolSpec& p);

// Whether a measured hit rate passes verification: within the tolerance of the expected rate for
// shared-prefix kinds (when cold_cache flushes), at most max_cache_hit_rate otherwise; nullopt
// when nothing is verified.
std::optional<bool> hit_rate_verified(const ScenarioSpec& s, const ProtocolSpec& p, std::optional<double> expected,
                                      std::optional<double> measured);
// What a shared-prefix kind adds to the ledger record (`workload`): the kind, the expected hit rate,
// the target (controlled-hit-rate), TTFT per turn (multi-turn; turns[i] is record i's turn).
boost::json::object workload_extra(const ScenarioSpec& s, std::optional<double> expected,
                                   std::span<const load::RequestRecord> records, std::span<const std::int32_t> turns,
                                   stats::PercentileMethod method);
// The invalid point's reason: the measured rate against the expected one (or the maximum).
std::string hit_rate_problem(const ProtocolSpec& p, std::optional<double> expected, double measured, int attempts);

}  // namespace servebench::campaign
