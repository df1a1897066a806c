#pragma once
// The gate's inputs for the client-health tests: records, lag histograms and the median TPOT the
// limit is a fraction of (the other inputs keep their defaults).
#include <vector>

#include "servebench/load/client_health.hpp"

namespace servebench::load {

inline HealthInputs health_inputs(const std::vector<RequestRecord>& records, const LagHistograms& lags,
                                  double tpot_ms) {
  HealthInputs in;
  in.records = records;
  in.lags = &lags;
  in.median_tpot_ms = tpot_ms;
  return in;
}

}  // namespace servebench::load
