#pragma once
// Arrival schedules. Open loop is an absolute schedule computed before the run (request i is due
// at start + offsets[i]), so late sends never push later ones back and the latency measured from
// the intended time is free of coordinated omission. Closed loop is the degenerate schedule
// (every request due at 0) under a concurrency cap.
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

enum class Arrival { poisson, gamma, constant };

struct ScheduleSpec {
  std::int64_t num_requests = 0;
  std::optional<double> rate{};  // requests per second; nullopt = infinite (all due at once)
  Arrival arrival = Arrival::poisson;
  double burstiness = 1.0;     // gamma shape; 1.0 is Poisson, < 1 burstier, > 1 more regular
  std::uint64_t seed = 0;
};

struct Schedule {
  std::vector<util::Nanos> offsets;  // non-decreasing; all zero in closed loop
  bool open_loop = false;            // a finite rate: offsets are intended send times
};

// Fails (bad_input) for a non-positive rate or burstiness, or a negative count. With gamma
// arrivals the mean gap is 1/rate and the shape is `burstiness` (vLLM's --burstiness).
util::Result<Schedule> make_schedule(const ScheduleSpec& spec);

}  // namespace servebench::load
