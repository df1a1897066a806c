#pragma once
// The campaign file (docs/campaign-file.md): arms × scenarios × concurrency ladder under one
// measurement protocol. Read strictly (unknown keys, wrong types, bad expressions, duplicate names
// are errors naming file:line:col) and completely before anything is launched.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/num_prompts.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/flags/command.hpp"
#include "servebench/load/conversation.hpp"
#include "servebench/load/trace.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/stats/summary.hpp"
#include "servebench/util/result.hpp"
#include "servebench/wire/client_request.hpp"

namespace servebench::campaign {

// The placeholder a launch command or base_url holds for the port the arm is given.
inline constexpr std::string_view k_port = "{port}";

enum class RequestApi { completions, chat, generate };
std::string_view to_string(RequestApi a);

struct RequestSpec {
  RequestApi api = RequestApi::completions;
  bool stream = true, ignore_eos = true;
  double temperature = 0;
  std::uint64_t seed = 42;
  std::chrono::seconds timeout{3600}, stall_timeout{300};  // whole request; silence between bytes. 0: none
};

enum class PromptSourceKind { random_ids, corpus };
std::string_view to_string(PromptSourceKind k);

struct PromptSourceSpec {
  PromptSourceKind kind = PromptSourceKind::random_ids;
  std::filesystem::path path;  // corpus text file, absolute
};

inline constexpr std::int64_t k_max_repeats = 100;

struct ProtocolSpec {
  bool cold_cache = true;                   // wait idle + flush before every attempt
  std::optional<double> max_cache_hit_rate = 0.01;  // nullopt: not verified
  int retries = 1;                          // re-flush + re-run after a failed verification
  std::int64_t repeats = 1;                 // each point measured this many times (repeat_spread.hpp)
  NumPromptsExpr num_prompts;               // "max(8, 2*c)"
  std::int64_t warmup_requests = 2;
  stats::PercentileMethod percentile = stats::PercentileMethod::nearest_rank;
  double client_lag_limit = 0.10;           // of the median TPOT (load::k_default_client_lag_limit)
  RequestSpec request;
  PromptSourceSpec prompts;
  // Recycling corpus windows is safe only when every point is flushed and verified.
  bool verifies() const { return cold_cache && max_cache_hit_rate.has_value(); }
};

enum class ToolCallProbe { when_declared, on, off };  // when_declared: the launch has --tool-call-parser

struct GateSpec {
  bool enabled = true, required = true;
  std::int64_t problems = 8;            // arithmetic word problems
  double min_accuracy = 0.75, min_natural_stop_rate = 0.75;
  std::int64_t max_tokens = 256;        // per probe answer
  ToolCallProbe tool_call = ToolCallProbe::when_declared;
  std::uint64_t seed = 7;               // which problems are generated
  std::filesystem::path dataset;        // a GSM8K-format JSONL (gsm8k.hpp); empty: the built-in problems
};

enum class RestoreCheck { facts, health };
std::string_view to_string(RestoreCheck c);

// The in-service server an arm's hooks stop and restore (in_service.hpp).
struct InServiceSpec {
  std::string url;
  RestoreCheck check = RestoreCheck::facts;
  std::chrono::seconds restore_timeout{300};  // how long to wait after `after` for /health
};

struct RecipeKey {  // written by `recipe campaign`; copied into server_facts.json
  std::string catalog, select;
};

// The parts of a prefill/decode-disaggregated arm (pd_arm.hpp), in launch order.
enum class PdPart { prefill, decode, router };
std::string_view to_string(PdPart p);  // "prefill", "decode", "router"
inline constexpr PdPart k_pd_parts[] = {PdPart::prefill, PdPart::decode, PdPart::router};

struct PdLaunch {
  std::string prefill, decode, router;  // launch commands, each with {port}
  const std::string& command(PdPart p) const { return p == PdPart::prefill ? prefill : p == PdPart::decode ? decode : router; }
};

struct ArmSpec {
  std::string name;
  engines::Engine engine = engines::Engine::sim;
  std::optional<std::string> launch;  // nullopt: attach to base_url (or a disaggregated arm's parts)
  std::optional<PdLaunch> pd;         // a disaggregated arm: its parts' commands instead of `launch`
  std::string base_url;               // may hold {port} when launch does
  std::vector<flags::EnvVar> env;       // given to the launched server; recorded in server_facts.json
  // The environment variable holding the server's API key, sent as `Authorization: Bearer` on every
  // request and control call; "" sends none. The key itself is never in the spec.
  std::string api_key_env;
  int gpus = 1;
  int nodes = 1;                      // machines the server spans (cluster executors, docs/scale-out.md)
  std::string model;                  // requests name it; empty: the server's first model
  std::chrono::seconds ready_timeout{600}, stop_timeout{30};
  std::string before, after;          // shell hooks; after runs on every exit path once before ran
  GateSpec gate;
  std::optional<RecipeKey> recipe;
  std::optional<InServiceSpec> in_service;
  // The campaign launches the server(s): `launch` or a disaggregated arm's parts.
  bool launched() const { return launch.has_value() || pd.has_value(); }
};

enum class ScenarioKind { fixed, shared_prefix, multi_turn, controlled_hit_rate, trace };  // scenario_kind.hpp
std::string_view to_string(ScenarioKind k);

struct ScenarioSpec {
  std::string name;
  std::int64_t isl = 0, osl = 0;  // shared-prefix kinds: the longest prompt and the output per request
  std::vector<std::int64_t> concurrency;  // ascending as written
  ScenarioKind kind = ScenarioKind::fixed;
  load::SharedPrefixWorkload shared_prefix{};   // generated-shared-prefix (seeded per point)
  load::ConversationWorkload conversation{};    // multi-turn (seeded per point)
  std::optional<std::int64_t> conversations{};  // multi-turn; nullopt: protocol.num_prompts at c
  double hit_rate = 0;                          // controlled-hit-rate: the target in [0, 1]
  std::filesystem::path trace;                  // trace: the Mooncake/AIPerf JSONL, absolute
  load::TraceOptions trace_options{};           // trace: block size, time scale, truncation
  std::vector<load::TraceRequest> trace_requests;  // trace: read with the campaign file (after truncation)
};

struct BaselineSpec {
  std::string name;
  std::filesystem::path ledger;  // absolute
};

struct TelemetrySpec {
  std::chrono::seconds interval{30};
};

struct CampaignSpec {
  std::string file;  // as given, for messages
  std::string name, model;
  std::string api_key_env;  // the arms' default (ArmSpec::api_key_env)
  ProtocolSpec protocol;
  std::vector<ArmSpec> arms;
  std::vector<ScenarioSpec> scenarios;
  std::optional<BaselineSpec> baseline;
  TelemetrySpec telemetry;
  std::vector<std::string> assets;  // absolute paths or globs (docs/campaign-file.md `assets`)

  const ArmSpec* find_arm(std::string_view name) const;
  const ScenarioSpec* find_scenario(std::string_view name) const;
};

// Reads and validates a campaign file; relative paths resolve against its directory. Fails (bad_input,
// "file:line:col: message") for YAML errors, unknown keys, wrong types, bad num_prompts expressions
// (evaluated at every concurrency), duplicate names, empty ladders, launch/base_url/{port} misfits.
util::Result<CampaignSpec> read_campaign(const std::filesystem::path& file);
// The same from text; `name` is used in messages, `base_dir` resolves relative paths.
util::Result<CampaignSpec> parse_campaign(const std::string& text, const std::string& name,
                                          const std::filesystem::path& base_dir);

// The resolved spec as YAML (every default written out, paths absolute): DIR/campaign.yaml. It
// parses back to an equal spec.
std::string resolved_yaml(const CampaignSpec& spec);
// DIR/campaign.yaml read back. Fails (bad_input) when the directory has none or it does not parse.
util::Result<CampaignSpec> read_resolved_campaign(const results::RunLayout& run);

// The generation backend the load generator uses for the arm under `api` (the spec reader has
// already refused `generate` for engines without SGLang's native route).
wire::Backend backend_of(const ArmSpec& arm, RequestApi api);

}  // namespace servebench::campaign
