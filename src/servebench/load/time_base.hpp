#pragma once
// Simulated time. `servebench serve-sim --sim-time-scale s` plays every simulated second in s real
// seconds (0.2: five times faster). Its latencies and throughputs measured on the wall clock are
// then s times those of the deployment it simulates; dividing every measured offset by s reports
// the simulated deployment itself, so a dry-run campaign reads like the real one. The client-health
// verdict is taken before the conversion, on real time, because client lag is real.
#include <optional>
#include <vector>

#include <boost/json/value.hpp>

#include "servebench/load/request_record.hpp"

namespace servebench::load {

// The simulator's time scale from its /server_info (`sim.time_scale`), when it is neither 1 (real
// time) nor 0 (as fast as possible, which has no simulated time to convert to); nullopt otherwise
// and for every other engine.
std::optional<double> sim_time_scale(const boost::json::value& server_info);

// Divides every offset of the records, chunk marks and span by `scale` (> 0).
void to_simulated_time(std::vector<RequestRecord>& records, std::vector<ChunkMark>& chunks, util::Nanos& span,
                       double scale);

}  // namespace servebench::load
