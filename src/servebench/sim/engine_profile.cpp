#include "servebench/sim/engine_profile.hpp"

#include <fmt/format.h>

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
  const std::vector<double> graph_bs = r->numbers("cuda_graph_max_bs");
  const std::vector<double> graph_bs_tp4 = r->numbers("cuda_graph_max_bs_from_tp4");
  p.cuda_graph_below_gib = r->numbers("cuda_graph_below_gib");
  const std::vector<double> budgets = r->numbers("prefill_budget_tokens");
  p.prefill_budget_below_gib = r->numbers("prefill_budget_below_gib");
  const std::vector<double> running = r->numbers("max_running_requests");
  p.running_cap_below_gib = r->numbers("max_running_requests_below_gib");
  p.custom_all_reduce = r->flag_or("custom_all_reduce", false);
  p.tensor_parallel = r->flag_or("tensor_parallel", true);
  p.speculative = r->flag_or("speculative", true);
  p.two_batch_overlap = r->number_or("two_batch_overlap", 0);
  const double spec_cap = r->number_or("speculative_running_cap", 0);
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
  // A ladder by GPU memory: whole numbers in [lo, 2^30], one more than the increasing GiB thresholds.
  const auto ladder = [&](std::string_view key, const std::vector<double>& values, const std::vector<double>& below,
                          std::string_view below_key, double lo, std::vector<std::int64_t>& out) -> util::Result<void> {
    if (values.size() != below.size() + 1)
      return bad(fmt::format("{} needs one entry more than {}", key, below_key));
    out.clear();
    for (const double v : values) {
      if (!(v >= lo && v <= static_cast<double>(std::int64_t{1} << 30)) || v != std::floor(v))
        return bad(fmt::format("{} must be whole numbers in [{}, 2^30]", key, lo));
      out.push_back(static_cast<std::int64_t>(v));
    }
    for (std::size_t i = 0; i < below.size(); ++i) {
      if (!(below[i] > 0 && below[i] < 1e6) || (i > 0 && below[i] <= below[i - 1]))
        return bad(fmt::format("{} must be increasing GiB values in (0, 1e6)", below_key));
    }
    return {};
  };
  if (auto ok = ladder("prefill_budget_tokens", budgets, p.prefill_budget_below_gib, "prefill_budget_below_gib", 1,
                       p.prefill_budget_tokens);
      !ok)
    return std::unexpected(ok.error());
  if (auto ok = ladder("cuda_graph_max_bs", graph_bs, p.cuda_graph_below_gib, "cuda_graph_below_gib", 0, p.cuda_graph_bs);
      !ok)
    return std::unexpected(ok.error());
  if (!running.empty() || !p.running_cap_below_gib.empty()) {
    if (auto ok = ladder("max_running_requests", running, p.running_cap_below_gib, "max_running_requests_below_gib", 1,
                         p.running_cap);
        !ok)
      return std::unexpected(ok.error());
  }
  if (graph_bs_tp4.empty()) {
    p.cuda_graph_bs_tp4 = p.cuda_graph_bs;
  } else if (auto ok = ladder("cuda_graph_max_bs_from_tp4", graph_bs_tp4, p.cuda_graph_below_gib, "cuda_graph_below_gib",
                              0, p.cuda_graph_bs_tp4);
             !ok) {
    return std::unexpected(ok.error());
  }
  if (!(p.two_batch_overlap >= 0 && p.two_batch_overlap <= 1)) return bad("two_batch_overlap must be in [0, 1]");
  if (!(spec_cap >= 0 && spec_cap <= 1e6) || spec_cap != std::floor(spec_cap))
    return bad("speculative_running_cap must be a whole number in [0, 1000000]");
  p.speculative_running_cap = static_cast<int>(spec_cap);
  return p;
}

namespace {

// The rung of a ladder by GPU memory: values[i] below below_gib[i], the last at or above the last.
std::int64_t rung(const std::vector<std::int64_t>& values, const std::vector<double>& below_gib, double gpu_gib) {
  std::size_t i = 0;
  while (i < below_gib.size() && gpu_gib >= below_gib[i]) ++i;
  return values[i];
}

}  // namespace

std::int64_t EngineProfile::prefill_budget(double gpu_gib) const {
  return rung(prefill_budget_tokens, prefill_budget_below_gib, gpu_gib);
}

int EngineProfile::cuda_graph_max_bs(double gpu_gib, int tp) const {
  return static_cast<int>(rung(tp < 4 ? cuda_graph_bs : cuda_graph_bs_tp4, cuda_graph_below_gib, gpu_gib));
}

std::optional<int> EngineProfile::default_running_cap(double gpu_gib) const {
  if (running_cap.empty()) return std::nullopt;
  return static_cast<int>(rung(running_cap, running_cap_below_gib, gpu_gib));
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
