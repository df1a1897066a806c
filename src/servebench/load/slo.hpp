#pragma once
// Service-level objectives for a run (docs/metrics.md "SLO and goodput"): `--slo
// ttft_p99_ms=2000,tpot_p50_ms=30`. Each key names a metric, a percentile and a limit in ms, and
// means two things, both exact:
//   - per request (goodput, as sglang's and vLLM's --goodput): a completed request is good when its
//     own value of every named metric is ≤ that key's limit (two keys on one metric: both hold, so
//     the smaller limit decides);
//   - per run (the SLO search): the run meets the SLO when every key's percentile over the run's
//     completed requests is ≤ its limit, and no request failed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/load/metrics.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

enum class SloMetric { ttft, tpot, itl, e2e };

// "ttft", "tpot", "itl", "e2e": the metric as a key spells it.
std::string_view to_string(SloMetric m);

struct SloKey {
  std::string name;         // "ttft_p99_ms", as given
  SloMetric metric = SloMetric::ttft;
  double percentile = 99;   // 50, 90, 95 or 99
  double limit_ms = 0;      // > 0
};

struct Slo {
  std::vector<SloKey> keys;  // in the order given
  bool empty() const { return keys.empty(); }
};

// "ttft_p99_ms=2000,tpot_p50_ms=30": keys <ttft|tpot|itl|e2e>_p<50|90|95|99>_ms, values positive
// milliseconds, each key at most once. Fails (bad_input) naming `flag` and what to write instead.
util::Result<Slo> parse_slo(std::string_view text, std::string_view flag = "--slo");
// The per-request thresholds for goodput: per metric the smallest limit given. An ITL key has no
// per-request threshold (a request has many gaps) and only counts per run.
GoodputSlo per_request_thresholds(const Slo& slo);

struct SloCheck {
  std::string key;
  double value = 0, limit = 0;  // the run's percentile (NaN when undefined: never met)
  bool met = false;
};
struct SloVerdict {
  std::vector<SloCheck> checks;  // one per key
  bool met = false;              // every check met and no request failed
  std::string summary;           // "ttft p99 812.3 ≤ 2000 ms, tpot p50 31.2 > 30 ms"
};
// The run-level verdict from the run's metrics.
SloVerdict check_slo(const Slo& slo, const RunMetrics& m);

}  // namespace servebench::load
