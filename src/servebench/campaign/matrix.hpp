#pragma once
// The campaign matrix: arms × scenarios × concurrency, in the order it runs (arm by arm, so each
// server launches once; scenarios and concurrencies as written), narrowed by --only; and each
// point's cap from the arm's server facts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/campaign/spec.hpp"
#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

struct PlannedPoint {
  std::size_t arm = 0, scenario = 0;  // indices into CampaignSpec::arms / scenarios
  std::int64_t concurrency = 0;
  std::int64_t num_prompts = 0;       // protocol.num_prompts at this concurrency
  std::optional<std::int64_t> repeat;  // 1..protocol.repeats when it is above 1
};

// --only arm=a,scenario=s,c=8: keys arm, scenario, c (or concurrency); a key given more than once
// matches any of its values; keys not given match everything.
struct PointFilter {
  std::vector<std::string> arms, scenarios;
  std::vector<std::int64_t> concurrency;
  bool matches(const CampaignSpec& spec, const PlannedPoint& p) const;
};
// Fails (bad_input) on a malformed item, an unknown key, or a name the campaign does not have.
util::Result<PointFilter> parse_only(std::string_view text, const CampaignSpec& spec);

// Every point the filter lets through, in run order (the repeats of a point one after the other,
// each its own point). num_prompts evaluates (the spec reader has checked it at every concurrency).
std::vector<PlannedPoint> expand(const CampaignSpec& spec, const PointFilter& only = {});

// The ledger identity of a planned point (closed loop: no request rate).
results::PointKey key_of(const CampaignSpec& spec, const PlannedPoint& p);

// What the server says bounds a point; nullopt: not reported.
struct ArmLimits {
  std::optional<std::int64_t> context_length, kv_pool_tokens, max_running_requests;
};

struct PointCap {
  std::int64_t effective = 0;  // min(C, max_running_requests, ⌊kv_pool ÷ (isl + osl)⌋); 0 when skipped
  std::string limited_by;      // "max_running_requests 16", "kv pool 276480 tokens", "" (not capped)
  std::string skip_reason;     // non-empty: structurally impossible ("isl+osl 1048577 exceeds context 270336")
};
PointCap cap_point(std::int64_t isl, std::int64_t osl, std::int64_t concurrency, const ArmLimits& limits);

}  // namespace servebench::campaign
