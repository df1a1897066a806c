#include "servebench/load/schedule.hpp"

#include <random>

namespace servebench::load {

util::Result<Schedule> make_schedule(const ScheduleSpec& spec) {
  if (spec.num_requests < 0) return util::fail(util::ErrorKind::bad_input, "--num-prompts must not be negative");
  Schedule s;
  s.offsets.assign(static_cast<std::size_t>(spec.num_requests), util::Nanos{0});
  if (!spec.rate) return s;
  const double rate = *spec.rate;
  if (!(rate > 0.0)) return util::failf(util::ErrorKind::bad_input, "--request-rate must be positive, got {}", rate);
  if (!(spec.burstiness > 0.0)) {
    return util::failf(util::ErrorKind::bad_input, "--burstiness must be positive, got {}", spec.burstiness);
  }
  s.open_loop = true;
  std::mt19937_64 rng(spec.seed);
  const double shape = spec.arrival == Arrival::poisson ? 1.0 : spec.burstiness;
  std::gamma_distribution<double> gap(shape, 1.0 / (rate * shape));
  // The first request is due at once (as sglang and vLLM do); later ones at cumulative gaps,
  // summed in seconds and converted once so rounding never accumulates.
  double t = 0.0;
  for (std::size_t i = 0; i < s.offsets.size(); ++i) {
    if (i > 0) t += spec.arrival == Arrival::constant ? 1.0 / rate : gap(rng);
    s.offsets[i] = util::from_seconds(t);
  }
  return s;
}

}  // namespace servebench::load
