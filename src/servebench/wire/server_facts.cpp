#include "servebench/wire/server_facts.hpp"

#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"

namespace servebench::wire {

boost::json::object to_json(const ServerFacts& f) {
  namespace json = boost::json;
  const auto opt = [](const std::optional<std::int64_t>& v) { return v ? json::value(*v) : json::value(nullptr); };
  json::object o{{"engine", f.engine},
                 {"version", f.version},
                 {"model", f.model},
                 {"context_length", opt(f.context_length)},
                 {"kv_pool_tokens", opt(f.kv_pool_tokens)},
                 {"max_running_requests", opt(f.max_running_requests)},
                 {"speculative", nullptr}};
  if (f.speculative) {
    o["speculative"] = json::object{{"algorithm", f.speculative->algorithm},
                                    {"num_steps", opt(f.speculative->num_steps)},
                                    {"eagle_topk", opt(f.speculative->eagle_topk)},
                                    {"num_draft_tokens", opt(f.speculative->num_draft_tokens)}};
  }
  if (f.disaggregation) o["disaggregation"] = to_json(*f.disaggregation);
  return o;
}

ServerFacts server_facts_from_json(const boost::json::object& o) {
  ServerFacts f;
  f.engine = util::json_string(o, "engine").value_or("");
  f.version = util::json_string(o, "version").value_or("");
  f.model = util::json_string(o, "model").value_or("");
  f.context_length = util::json_int(o, "context_length");
  f.kv_pool_tokens = util::json_int(o, "kv_pool_tokens");
  f.max_running_requests = util::json_int(o, "max_running_requests");
  const auto* spec = o.if_contains("speculative");
  if (spec != nullptr && spec->is_object()) {
    const auto& s = spec->get_object();
    f.speculative = SpeculativeFacts{util::json_string(s, "algorithm").value_or(""), util::json_int(s, "num_steps"),
                                     util::json_int(s, "eagle_topk"), util::json_int(s, "num_draft_tokens")};
  }
  if (const auto* pd = o.if_contains("disaggregation"); pd != nullptr && pd->is_object()) {
    f.disaggregation = disaggregation_from_json(pd->get_object());
  }
  return f;
}

SimFacts read_sim_facts(const boost::json::object& block) {
  SimFacts s;
  s.hardware = util::json_string(block, "hardware").value_or("");
  s.model = util::json_string(block, "model").value_or("");
  s.engine = util::json_string(block, "engine").value_or("");
  s.vocab_size = util::json_int(block, "vocab_size");
  s.gpus = util::json_int(block, "gpus");
  s.context_length = util::json_int(block, "context_length");
  s.time_scale = util::json_number(block, "time_scale");
  s.oracle = util::json_bool(block, "oracle");
  s.block = block;
  return s;
}

std::optional<SimFacts> sim_facts_of_server_info(const boost::json::object& server_info) {
  const auto* sim = server_info.if_contains("sim");
  if (sim == nullptr || !sim->is_object()) return std::nullopt;
  return read_sim_facts(sim->get_object());
}

}  // namespace servebench::wire
