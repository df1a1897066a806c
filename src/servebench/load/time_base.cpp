#include "servebench/load/time_base.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "servebench/wire/server_facts.hpp"

namespace servebench::load {
namespace {

util::Nanos scaled(util::Nanos d, double factor) {
  return util::Nanos{std::llround(static_cast<double>(d.count()) * factor)};
}

}  // namespace

std::optional<double> sim_time_scale(const boost::json::value& server_info) {
  const auto sim = server_info.is_object() ? wire::sim_facts_of_server_info(server_info.get_object()) : std::nullopt;
  const auto scale = sim ? sim->time_scale : std::nullopt;
  if (!scale || !(*scale > 0) || *scale == 1 || !std::isfinite(*scale)) return std::nullopt;
  return scale;
}

void to_simulated_time(std::vector<RequestRecord>& records, std::vector<ChunkMark>& chunks, util::Nanos& span,
                       double scale) {
  SB_CHECK(scale > 0);
  const double f = 1.0 / scale;
  for (RequestRecord& r : records) {
    r.intended = scaled(r.intended, f);
    r.released = scaled(r.released, f);
    r.sent = scaled(r.sent, f);
    r.written = scaled(r.written, f);
    if (r.first_token) r.first_token = scaled(*r.first_token, f);
    if (r.last_token) r.last_token = scaled(*r.last_token, f);
    r.done = scaled(r.done, f);
    r.read_lag_max = scaled(r.read_lag_max, f);
  }
  for (ChunkMark& c : chunks) c.at_ns = std::llround(static_cast<double>(c.at_ns) * f);
  span = scaled(span, f);
}

}  // namespace servebench::load
