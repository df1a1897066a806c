#include "servebench/campaign/scenario_kind.hpp"

#include <cmath>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/controlled_hit_rate.hpp"
#include "servebench/campaign/trace_scenario.hpp"
#include "servebench/campaign/ranges.hpp"
#include "servebench/load/conversation.hpp"

namespace servebench::campaign {
namespace {

std::int64_t positive(util::YamlFields& f, const ScenarioSpec& s, const std::string& key, std::int64_t fallback,
                      std::int64_t hi = ranges::k_max_tokens) {
  const std::int64_t v = f.integer(key, fallback);
  if (f.failed() || (v >= 1 && v <= hi)) return v;
  f.note_at(f.node(key), fmt::format("scenario '{}': {} must be in 1..{} (got {})", s.name, key, hi, v));
  return v < 1 ? 1 : hi;
}

// A scenario's longest prompt must fit the same bound as a fixed isl.
void check_isl(util::YamlFields& f, const ScenarioSpec& s) {
  if (f.failed() || s.isl <= ranges::k_max_tokens) return;
  f.note_at(f.self_node(), fmt::format("scenario '{}': its longest prompt is {} tokens; at most {}", s.name, s.isl,
                                       ranges::k_max_tokens));
}

void read_shared_prefix(util::YamlFields& f, ScenarioSpec& s) {
  load::SharedPrefixWorkload& w = s.shared_prefix;
  w.num_groups = positive(f, s, "groups", 8, ranges::k_max_groups);
  w.prompts_per_group = positive(f, s, "prompts_per_group", 16, ranges::k_max_groups);
  w.system_len = positive(f, s, "system_len", 2048);
  w.question_len = positive(f, s, "question_len", 128);
  w.output_len = positive(f, s, "osl", 256);
  s.isl = w.system_len + w.question_len;
  s.osl = w.output_len;
  check_isl(f, s);
}

void read_conversation(util::YamlFields& f, ScenarioSpec& s) {
  load::ConversationWorkload& w = s.conversation;
  if (f.has("conversations")) s.conversations = positive(f, s, "conversations", 1, ranges::k_max_requests);
  w.turns = positive(f, s, "turns", 4, ranges::k_max_turns);
  w.user_len = positive(f, s, "user_len", 128);
  w.reply_len = positive(f, s, "osl", 128);
  const double think = f.number("think_time_s", 0);
  if (!f.failed() && !(think >= 0 && think <= 3600)) {
    f.note_at(f.node("think_time_s"), fmt::format("scenario '{}': think_time_s must be in [0, 3600]", s.name));
  }
  w.think = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(think));
  s.isl = load::turn_input_len(w, w.turns);
  s.osl = w.reply_len;
  check_isl(f, s);
}

void read_controlled(util::YamlFields& f, ScenarioSpec& s) {
  s.isl = positive(f, s, "isl", 0);
  s.osl = positive(f, s, "osl", 0);
  if (!f.failed() && s.isl < 2) f.note_at(f.node("isl"), fmt::format("scenario '{}': isl must be >= 2", s.name));
  if (!f.has("hit_rate")) {
    f.note_at(f.node("kind"), fmt::format("scenario '{}': kind controlled-hit-rate needs hit_rate (in [0, 1])", s.name));
    return;
  }
  s.hit_rate = f.number("hit_rate", 0);
  if (!f.failed() && !(s.hit_rate >= 0 && s.hit_rate <= 1)) {
    f.note_at(f.node("hit_rate"), fmt::format("scenario '{}': hit_rate must be in [0, 1]", s.name));
  }
}

}  // namespace

std::string_view to_string(ScenarioKind k) {
  switch (k) {
    case ScenarioKind::fixed: return "fixed";
    case ScenarioKind::shared_prefix: return "generated-shared-prefix";
    case ScenarioKind::multi_turn: return "multi-turn";
    case ScenarioKind::controlled_hit_rate: return "controlled-hit-rate";
    case ScenarioKind::trace: return "trace";
  }
  return "fixed";
}

bool read_scenario_kind(util::YamlFields& f, ScenarioSpec& s) {
  const std::string kind = f.string("kind", "fixed");
  if (kind == "fixed") return false;
  if (kind == "generated-shared-prefix") {
    s.kind = ScenarioKind::shared_prefix;
    read_shared_prefix(f, s);
  } else if (kind == "multi-turn") {
    s.kind = ScenarioKind::multi_turn;
    read_conversation(f, s);
  } else if (kind == "trace") {
    s.kind = ScenarioKind::trace;
    read_trace_keys(f, s);
  } else if (kind == "controlled-hit-rate") {
    s.kind = ScenarioKind::controlled_hit_rate;
    read_controlled(f, s);
    return true;  // it has its own isl
  } else {
    f.note_at(f.node("kind"), fmt::format("scenario '{}': kind '{}' is not fixed, generated-shared-prefix, multi-turn, "
                                          "controlled-hit-rate or trace", s.name, kind));
    return false;
  }
  if (f.has("isl")) {
    f.note_at(f.node("isl"), fmt::format("scenario '{}': isl follows from the {} keys; remove it", s.name, kind));
  }
  return true;
}

void emit_scenario_kind(YAML::Emitter& y, const ScenarioSpec& s) {
  if (s.kind == ScenarioKind::fixed) return;
  y << YAML::Key << "kind" << YAML::Value << std::string(to_string(s.kind));
  if (s.kind == ScenarioKind::controlled_hit_rate) {
    y << YAML::Key << "hit_rate" << YAML::Value << fmt::format("{}", s.hit_rate);
    return;
  }
  if (s.kind == ScenarioKind::trace) return emit_trace_keys(y, s);
  if (s.kind == ScenarioKind::shared_prefix) {
    const auto& w = s.shared_prefix;
    y << YAML::Key << "groups" << YAML::Value << w.num_groups << YAML::Key << "prompts_per_group" << YAML::Value
      << w.prompts_per_group << YAML::Key << "system_len" << YAML::Value << w.system_len << YAML::Key
      << "question_len" << YAML::Value << w.question_len;
    return;
  }
  const auto& w = s.conversation;
  if (s.conversations) y << YAML::Key << "conversations" << YAML::Value << *s.conversations;
  y << YAML::Key << "turns" << YAML::Value << w.turns << YAML::Key << "user_len" << YAML::Value << w.user_len
    << YAML::Key << "think_time_s" << YAML::Value
    << fmt::format("{}", std::chrono::duration<double>(w.think).count());
}

std::int64_t scenario_prompts(const ScenarioSpec& s, std::int64_t num_prompts_at_c) {
  switch (s.kind) {
    case ScenarioKind::fixed:
    case ScenarioKind::controlled_hit_rate: return num_prompts_at_c;
    case ScenarioKind::shared_prefix: return s.shared_prefix.num_groups * s.shared_prefix.prompts_per_group;
    case ScenarioKind::multi_turn: return s.conversations.value_or(num_prompts_at_c) * s.conversation.turns;
    case ScenarioKind::trace: return std::ssize(s.trace_requests);
  }
  return num_prompts_at_c;
}

std::optional<double> expected_hit_rate(const ScenarioSpec& s, std::int64_t requests, std::int64_t warmup) {
  double measured_tokens = 0, warmup_tokens = 0, rate = 0;
  if (s.kind == ScenarioKind::trace) return trace_expected_hit_rate(s, warmup);
  if (s.kind == ScenarioKind::controlled_hit_rate) {
    // Exact already: the plan counts the warmup prompts as misses.
    auto plan = plan_controlled(s.hit_rate, s.isl, requests, warmup);
    return plan ? std::optional<double>(plan->expected) : std::nullopt;
  }
  if (s.kind == ScenarioKind::shared_prefix) {
    const auto& w = s.shared_prefix;
    measured_tokens = static_cast<double>(requests * (w.system_len + w.question_len));
    warmup_tokens = static_cast<double>(warmup * (w.system_len + w.question_len));
    rate = load::expected_hit_rate(w);
  } else if (s.kind == ScenarioKind::multi_turn) {
    const auto& w = s.conversation;
    double per_conversation = 0;
    for (std::int64_t t = 1; t <= w.turns; ++t) per_conversation += static_cast<double>(load::turn_input_len(w, t));
    const std::int64_t conversations = requests / w.turns;  // whole conversations only
    measured_tokens = static_cast<double>(conversations) * per_conversation;
    warmup_tokens = static_cast<double>(warmup * w.user_len);
    rate = load::expected_hit_rate(w);
  } else {
    return std::nullopt;
  }
  return measured_tokens > 0 ? rate * measured_tokens / (measured_tokens + warmup_tokens) : 0.0;
}

util::Result<PointPrompts> take_shaped(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                       load::ServerControl& control) {
  const auto vocab = control.vocabulary();
  if (!vocab) return util::fail(util::ErrorKind::bad_input, "the server reports no vocabulary for token-id prompts");
  if (s.kind == ScenarioKind::controlled_hit_rate) return take_controlled(s, r, seed, *vocab);
  if (s.kind == ScenarioKind::trace) return take_trace(s, r, seed, *vocab);
  PointPrompts out;
  util::Result<std::vector<load::Prompt>> measured;
  std::int64_t warm_len = 0;
  if (s.kind == ScenarioKind::shared_prefix) {
    load::SharedPrefixWorkload w = s.shared_prefix;
    w.seed = seed;
    measured = load::make_shared_prefix_prompts(w, *vocab);
    warm_len = w.system_len + w.question_len;
  } else {
    load::ConversationWorkload w = s.conversation;
    w.conversations = r.count / w.turns;
    w.seed = seed;
    measured = load::make_conversation_prompts(w, *vocab);
    warm_len = w.user_len;
  }
  if (!measured) return std::unexpected(measured.error());
  out.measured = std::move(*measured);
  if (r.warmup > 0) {
    auto warm = load::make_random_prompts(
        {.num_prompts = r.warmup, .input_len = warm_len, .output_len = s.osl, .seed = seed ^ 0x9e3779b97f4a7c15ULL},
        *vocab);
    if (!warm) return std::unexpected(warm.error());
    out.warmup = std::move(*warm);
  }
  return out;
}

void check_scenario_kind(util::YamlFields& f, const ScenarioSpec& s, const ProtocolSpec& p) {
  if (s.kind != ScenarioKind::controlled_hit_rate || f.failed()) return;
  for (const std::int64_t c : s.concurrency) {
    auto n = p.num_prompts.eval(c);
    if (!n) return;
    if (auto plan = plan_controlled(s.hit_rate, s.isl, *n, p.warmup_requests); !plan) {
      return f.note_at(f.node("hit_rate"), fmt::format("scenario '{}' at concurrency {}: {}", s.name, c, plan.error().message));
    }
  }
}

std::optional<bool> hit_rate_verified(const ScenarioSpec& s, const ProtocolSpec& p, std::optional<double> expected,
                                      std::optional<double> measured) {
  if (s.kind != ScenarioKind::fixed) {
    if (!p.cold_cache || !expected) return std::nullopt;
    return measured && std::abs(*measured - *expected) <= k_hit_rate_tolerance;
  }
  if (!p.max_cache_hit_rate) return std::nullopt;
  return measured && *measured <= *p.max_cache_hit_rate;
}

boost::json::object workload_extra(const ScenarioSpec& s, std::optional<double> expected,
                                   std::span<const load::RequestRecord> records, std::span<const std::int32_t> turns,
                                   stats::PercentileMethod method) {
  boost::json::object o{{"kind", to_string(s.kind)}, {"expected_hit_rate", expected.value_or(0)}};
  if (s.kind == ScenarioKind::controlled_hit_rate) o["target_hit_rate"] = s.hit_rate;
  if (s.kind == ScenarioKind::multi_turn) o["ttft_ms_by_turn"] = load::to_json(load::ttft_by_turn(records, turns, method));
  return o;
}

std::string hit_rate_problem(const ProtocolSpec& p, std::optional<double> expected, double measured, int attempts) {
  const std::string tries = fmt::format("after {} attempt{}", attempts, attempts == 1 ? "" : "s");
  if (expected) {
    return fmt::format("cache hit rate {:.4g} is not the workload's {:.4g} ± {} {}", measured, *expected,
                       k_hit_rate_tolerance, tries);
  }
  return fmt::format("cache hit rate {:.4g} > {} {}", measured, p.max_cache_hit_rate.value_or(0), tries);
}

}  // namespace servebench::campaign
