#pragma once
// The launch a /server_info body describes, as serve-sim arguments: what `sim validate` and
// `sim calibrate` replay a bench result line with when the line carries its server's `server_info`
// (servebench bench records it; docs/sim.md "sim validate and sim calibrate").
//   SGLang's ServerArgs keys the simulator models (tp_size, ep_size, mem_fraction_static, the
//   speculative settings, ...) become their flags: true → the flag, a number or text → flag value,
//   false / null → nothing. serve-sim's `sim` facts add its cards: hardware → --hw, model → --model,
//   engine → --sim-engine, weight_dtype → --sim-weight-dtype. The efficiencies are not copied: the
//   replay uses the cards' (or --sim-overrides), so a calibration can move them.
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

namespace servebench::sim {

// nullopt when the body holds none of those keys (another engine's, or an empty one).
std::optional<std::vector<std::string>> launch_args_of_server_info(const boost::json::object& info);

}  // namespace servebench::sim
