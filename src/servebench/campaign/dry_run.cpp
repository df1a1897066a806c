// `campaign run --dry-run`: the expanded matrix in run order, with caps, touching nothing.
#include <map>

#include <fmt/format.h>

#include "servebench/campaign/run_directory.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/campaign/runner.hpp"
#include "servebench/campaign/server_facts.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

std::optional<std::int64_t> flag_value(const flags::NormalizedCommand& c, std::initializer_list<std::string_view> names) {
  for (const auto& f : c.flags) {
    for (const auto name : names) {
      if (f.name == name && f.value) {
        if (auto v = util::parse_int(*f.value, name)) return *v;
      }
    }
  }
  return std::nullopt;
}

// What the launch flags say (the KV pool is known only once the server runs).
ArmLimits launch_limits(const ArmSpec& arm) {
  if (!arm.launch && !arm.pd) return {};
  // A disaggregated arm's requests live on its decode part: its pool and cap bound them.
  auto c = flags::normalize_command(engines::dialect_of(arm.engine), arm.pd ? arm.pd->decode : *arm.launch, arm.env);
  if (!c) return {};
  return {flag_value(*c, {"--context-length", "--max-model-len"}), flag_value(*c, {"--max-total-tokens"}),
          flag_value(*c, {"--max-running-requests", "--max-num-seqs"})};
}

std::string limits_origin(bool from_facts) {
  return from_facts ? "server_facts.json of an earlier run" : "launch flags; the KV pool is known only at launch";
}

}  // namespace

std::string dry_run_text(const CampaignSpec& spec, const RunOptions& options) {
  const auto planned = expand(spec, options.only);
  std::map<results::PointKey, results::PointStatus> latest;
  const results::RunLayout run(options.out);
  if (auto ledger = results::read_ledger(run.ledger())) {
    for (const auto& r : ledger->latest()) latest[results::key_of(r)] = r.status;
  }
  std::string out = fmt::format("campaign {} ({}): {} points in run order; run directory {}\n", spec.name, spec.file,
                                planned.size(), options.out.string());
  out += fmt::format("protocol: cold cache {}, max hit rate {}, retries {}, num_prompts \"{}\", warmup {}, prompts {}\n",
                     spec.protocol.cold_cache ? "yes" : "no",
                     spec.protocol.max_cache_hit_rate ? fmt::format("{}", *spec.protocol.max_cache_hit_rate) : "not verified",
                     spec.protocol.retries, spec.protocol.num_prompts.text(), spec.protocol.warmup_requests,
                     to_string(spec.protocol.prompts.kind));
  std::size_t current_arm = spec.arms.size();
  ArmLimits limits;
  for (const auto& p : planned) {
    const ArmSpec& arm = spec.arms[p.arm];
    if (p.arm != current_arm) {
      current_arm = p.arm;
      const auto from_facts = read_limits(run.server_facts(arm.name));
      limits = from_facts.value_or(launch_limits(arm));
      out += fmt::format("arm {} ({}, {}): caps from {}\n", arm.name, engines::to_string(arm.engine),
                         arm.launch ? "launch" : arm.pd ? "disaggregated: prefill, decode, router" : "attach " + arm.base_url,
                         limits_origin(from_facts.has_value()));
    }
    const ScenarioSpec& s = spec.scenarios[p.scenario];
    const PointCap cap = cap_point(s.isl, s.osl, p.concurrency, limits);
    std::string capped = !cap.skip_reason.empty() ? "skip: " + cap.skip_reason
                         : cap.limited_by.empty() ? fmt::format("eff {}", cap.effective)
                                                  : fmt::format("eff {} ({})", cap.effective, cap.limited_by);
    const auto it = latest.find(key_of(spec, p));
    std::string state = "to run";
    if (it != latest.end()) {
      const bool settled = it->second == results::PointStatus::ok || it->second == results::PointStatus::skipped ||
                           (it->second == results::PointStatus::invalid && !options.rerun_invalid);
      state = fmt::format("{} ({})", settled ? "settled" : "to rerun", results::to_string(it->second));
    }
    out += fmt::format("  {:<40} isl {:>7} osl {:>5} c {:>4} prompts {:>5}  {:<45} {}\n",
                       results::point_id(key_of(spec, p)), s.isl, s.osl, p.concurrency, p.num_prompts, capped, state);
  }
  return out;
}

}  // namespace servebench::campaign
