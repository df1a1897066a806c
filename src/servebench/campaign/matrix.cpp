#include "servebench/campaign/matrix.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

using util::ErrorKind;

template <class T>
bool listed(const std::vector<T>& values, const T& v) {
  return values.empty() || std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace

bool PointFilter::matches(const CampaignSpec& spec, const PlannedPoint& p) const {
  return listed(arms, spec.arms[p.arm].name) && listed(scenarios, spec.scenarios[p.scenario].name) &&
         listed(concurrency, p.concurrency);
}

util::Result<PointFilter> parse_only(std::string_view text, const CampaignSpec& spec) {
  PointFilter f;
  for (const auto item : util::split(text, ',')) {
    const auto t = util::trim(item);
    const auto eq = t.find('=');
    if (eq == std::string_view::npos) {
      return util::failf(ErrorKind::bad_input, "--only item '{}' is not key=value (keys: arm, scenario, c)", t);
    }
    const auto key = util::trim(t.substr(0, eq));
    const std::string value(util::trim(t.substr(eq + 1)));
    if (key == "arm") {
      if (spec.find_arm(value) == nullptr) return util::failf(ErrorKind::bad_input, "--only: no arm '{}' in {}", value, spec.file);
      f.arms.push_back(value);
    } else if (key == "scenario") {
      if (spec.find_scenario(value) == nullptr) {
        return util::failf(ErrorKind::bad_input, "--only: no scenario '{}' in {}", value, spec.file);
      }
      f.scenarios.push_back(value);
    } else if (key == "c" || key == "concurrency") {
      auto c = util::parse_int(value, "--only c");
      if (!c) return std::unexpected(c.error());
      f.concurrency.push_back(*c);
    } else {
      return util::failf(ErrorKind::bad_input, "--only key '{}' is not one of arm, scenario, c", key);
    }
  }
  return f;
}

std::vector<PlannedPoint> expand(const CampaignSpec& spec, const PointFilter& only) {
  std::vector<PlannedPoint> out;
  for (std::size_t a = 0; a < spec.arms.size(); ++a) {
    for (std::size_t s = 0; s < spec.scenarios.size(); ++s) {
      for (const std::int64_t c : spec.scenarios[s].concurrency) {
        PlannedPoint p{a, s, c, 0, std::nullopt};
        if (!only.matches(spec, p)) continue;
        auto n = spec.protocol.num_prompts.eval(c);
        SB_CHECK(n.has_value());  // checked by the spec reader
        p.num_prompts = scenario_prompts(spec.scenarios[s], *n);
        if (spec.protocol.repeats <= 1) {
          out.push_back(p);
          continue;
        }
        for (std::int64_t r = 1; r <= spec.protocol.repeats; ++r) {
          p.repeat = r;
          out.push_back(p);
        }
      }
    }
  }
  return out;
}

results::PointKey key_of(const CampaignSpec& spec, const PlannedPoint& p) {
  return {spec.arms[p.arm].name, spec.scenarios[p.scenario].name, p.concurrency, std::nullopt, p.repeat};
}

PointCap cap_point(std::int64_t isl, std::int64_t osl, std::int64_t concurrency, const ArmLimits& limits) {
  PointCap cap;
  const std::int64_t need = isl + osl;
  if (limits.context_length && need > *limits.context_length) {
    cap.skip_reason = fmt::format("isl+osl {} exceeds context {}", need, *limits.context_length);
    return cap;
  }
  if (limits.kv_pool_tokens && need > *limits.kv_pool_tokens) {
    cap.skip_reason = fmt::format("isl+osl {} exceeds the KV pool of {} tokens", need, *limits.kv_pool_tokens);
    return cap;
  }
  cap.effective = concurrency;
  if (limits.max_running_requests && *limits.max_running_requests < cap.effective) {
    cap.effective = *limits.max_running_requests;
    cap.limited_by = fmt::format("max_running_requests {}", *limits.max_running_requests);
  }
  if (limits.kv_pool_tokens && *limits.kv_pool_tokens / need < cap.effective) {
    cap.effective = *limits.kv_pool_tokens / need;
    cap.limited_by = fmt::format("kv pool {} tokens", *limits.kv_pool_tokens);
  }
  return cap;
}

}  // namespace servebench::campaign
