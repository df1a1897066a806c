#pragma once
// Campaign time comes only from here: the steady clock for durations and deadlines (readiness,
// flushes, ETA), the wall clock for the timestamps written to files (started_at, captured_at,
// status.txt). RunOptions carries it, so a campaign runs on fake clocks in tests.
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

struct CampaignClock {
  const util::Clock* steady = &util::steady_clock();
  const util::WallClock* wall = &util::system_wall_clock();
};

}  // namespace servebench::campaign
