#include "servebench/campaign/controlled_hit_rate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "servebench/load/synthetic_workload.hpp"

namespace servebench::campaign {

util::Result<ControlledPlan> plan_controlled(double h, std::int64_t isl, std::int64_t measured, std::int64_t warmup) {
  if (!(h >= 0 && h <= 1)) return util::failf(util::ErrorKind::bad_input, "hit_rate {} is not in [0, 1]", h);
  if (isl < 2 || measured < 1) return util::fail(util::ErrorKind::bad_input, "a controlled hit rate needs isl >= 2");
  if (h == 0) return ControlledPlan{0, 0.0};
  if (warmup < 1) {
    return util::fail(util::ErrorKind::bad_input,
                      "a controlled hit rate above 0 needs protocol.warmup_requests >= 1: the first warmup prompt "
                      "puts the shared prefix into the cache before the measured requests");
  }
  const auto n = static_cast<double>(measured), total = static_cast<double>(measured + warmup);
  const auto len = static_cast<double>(isl);
  const auto prefix = static_cast<std::int64_t>(std::llround(h * total * len / n));
  const double max_rate = n * (len - 1) / (total * len);
  if (prefix > isl - 1) {
    return util::failf(util::ErrorKind::bad_input,
                       "hit_rate {} is above the {:.4f} that {} measured and {} warmup prompts of {} tokens can reach "
                       "(the warmup prompts miss); lower it, or raise isl or num_prompts", h, max_rate, measured, warmup, isl);
  }
  const std::int64_t l = std::max<std::int64_t>(prefix, 1);
  return ControlledPlan{l, n * static_cast<double>(l) / (total * len)};
}

util::Result<PointPrompts> take_controlled(const ScenarioSpec& s, const PromptRequest& r, std::uint64_t seed,
                                           const load::Vocabulary& vocab) {
  auto plan = plan_controlled(s.hit_rate, s.isl, r.count, r.warmup);
  if (!plan) return std::unexpected(plan.error());
  PointPrompts out;
  const std::int64_t primers = plan->prefix_len > 0 ? 1 : 0;
  if (plan->prefix_len == 0) {
    auto measured = load::make_random_prompts(
        {.pattern = load::IdPattern::random, .num_prompts = r.count, .input_len = s.isl, .output_len = s.osl, .range_ratio = 1.0, .seed = seed}, vocab);
    if (!measured) return std::unexpected(measured.error());
    out.measured = std::move(*measured);
  } else {
    // One group: the primer and the measured prompts share the prefix, each its own rest.
    load::SharedPrefixWorkload w;
    w.num_groups = 1;
    w.prompts_per_group = r.count + 1;
    w.system_len = plan->prefix_len;
    w.question_len = s.isl - plan->prefix_len;
    w.output_len = s.osl;
    w.seed = seed;
    auto all = load::make_shared_prefix_prompts(w, vocab);
    if (!all) return std::unexpected(all.error());
    out.warmup.push_back(std::move(all->front()));
    out.measured.assign(std::make_move_iterator(all->begin() + 1), std::make_move_iterator(all->end()));
  }
  if (r.warmup > primers) {
    auto rest = load::make_random_prompts({.pattern = load::IdPattern::random, .num_prompts = r.warmup - primers, .input_len = s.isl, .output_len = s.osl,
                                           .range_ratio = 1.0, .seed = seed ^ 0x9e3779b97f4a7c15ULL},
                                          vocab);
    if (!rest) return std::unexpected(rest.error());
    for (auto& p : *rest) out.warmup.push_back(std::move(p));
  }
  return out;
}

}  // namespace servebench::campaign
