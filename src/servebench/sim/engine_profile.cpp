#include "servebench/sim/engine_profile.hpp"

#include <cmath>

#include "servebench/sim/card_reader.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {

util::Result<EngineProfile> parse_engine_profile(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto r = CardReader::of(file, doc->root, "engine profile");
  if (!r) return std::unexpected(r.error());
  EngineProfile p;
  p.name = r->text("name");
  p.label = r->text_or("label", p.name);
  p.overlap_scheduler = r->flag_or("overlap_scheduler", false);
  p.cpu_step = r->micros("cpu_step_us");
  p.cpu_sequence = r->micros("cpu_sequence_us");
  p.cpu_request = r->micros("cpu_request_us");
  const std::string mixed = r->text("mixed_prefill");
  p.cuda_graph_max_bs = static_cast<int>(r->integer("cuda_graph_max_bs"));
  const std::vector<double> budgets = r->numbers("prefill_budget_tokens");
  p.prefill_budget_below_gib = r->numbers("prefill_budget_below_gib");
  p.custom_all_reduce = r->flag_or("custom_all_reduce", false);
  p.tensor_parallel = r->flag_or("tensor_parallel", true);
  p.speculative = r->flag_or("speculative", true);
  p.two_batch_overlap = r->number_or("two_batch_overlap", 0);
  if (auto done = r->finish(); !done) return std::unexpected(done.error());
  const auto bad = [&](std::string_view what) {
    return util::failf(util::ErrorKind::bad_input, "{}: engine profile '{}': {}", file, p.name, what);
  };
  if (mixed == "flag") {
    p.mixed_prefill = MixedPrefill::with_flag;
  } else if (mixed == "always") {
    p.mixed_prefill = MixedPrefill::always;
  } else {
    return bad("mixed_prefill must be flag or always");
  }
  if (p.cuda_graph_max_bs < 0 || p.cuda_graph_max_bs > 1'000'000) return bad("cuda_graph_max_bs must be in [0, 1000000]");
  if (budgets.size() != p.prefill_budget_below_gib.size() + 1)
    return bad("prefill_budget_tokens needs one entry more than prefill_budget_below_gib");
  p.prefill_budget_tokens.clear();
  for (const double b : budgets) {
    if (!(b >= 1 && b <= static_cast<double>(std::int64_t{1} << 30)) || b != std::floor(b))
      return bad("prefill_budget_tokens must be whole numbers in [1, 2^30]");
    p.prefill_budget_tokens.push_back(static_cast<std::int64_t>(b));
  }
  for (std::size_t i = 0; i < p.prefill_budget_below_gib.size(); ++i) {
    const double g = p.prefill_budget_below_gib[i];
    if (!(g > 0 && g < 1e6) || (i > 0 && g <= p.prefill_budget_below_gib[i - 1]))
      return bad("prefill_budget_below_gib must be increasing GiB values in (0, 1e6)");
  }
  if (!(p.two_batch_overlap >= 0 && p.two_batch_overlap <= 1)) return bad("two_batch_overlap must be in [0, 1]");
  return p;
}

std::int64_t EngineProfile::prefill_budget(double gpu_gib) const {
  std::size_t i = 0;
  while (i < prefill_budget_below_gib.size() && gpu_gib >= prefill_budget_below_gib[i]) ++i;
  return prefill_budget_tokens[i];
}

util::Result<EngineProfile> load_engine_profile(const std::string& name) {
  const std::string path = "engines/" + name + ".yaml";
  auto text = util::read_data_file(path);
  if (!text) {
    return util::failf(util::ErrorKind::bad_input, "--sim-engine '{}': unknown engine; known: {}", name,
                       util::join(engine_profile_names(), ", "));
  }
  auto p = parse_engine_profile(*text, "data/" + path);
  if (p && p->name != name) {
    return util::failf(util::ErrorKind::bad_input, "data/{}: name '{}' must be the file's name '{}'", path, p->name, name);
  }
  return p;
}

std::vector<std::string> engine_profile_names() {
  std::vector<std::string> names;
  for (const auto& f : util::list_data_files("engines/")) {
    if (f.ends_with(".yaml")) names.push_back(f.substr(8, f.size() - 8 - 5));
  }
  return names;
}

}  // namespace servebench::sim
