// The simulator's predictions as reviewed tables (docs/sim.md "Predicted vs measured"), each compared
// byte for byte with a golden under tests/golden/sim/ — a regression gate: any change of the
// performance model that moves a prediction shows up as a diff to review (UPDATE_GOLDEN=1 rewrites
// the goldens; docs/sim.md quotes them).
// - brief-rtx-pro-6000.md: the brief's two arms on eight RTX PRO 6000, beside the brief's numbers.
// - calibration-glm-5.3-flash-gb300.md: held-out GB300 TP4 measurements of GLM-5.3-Flash
//   (tests/fixtures/sim/glm-5.3-flash-gb300.jsonl, SGLang cookbook and a seed campaign; each line
//   names its source), replayed with card defaults, with signed errors. Nothing was tuned to them.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "brief_arms.hpp"
#include "closed_loop.hpp"
#include "servebench/sim/speculative.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

using namespace servebench;
using namespace servebench::sim;

namespace {

const std::string k_source_dir = SERVEBENCH_SOURCE_DIR;

struct Point {
  boost::json::object row;
  std::string source;
  std::int64_t isl = 0, osl = 0, concurrency = 0, num_prompts = 0;
  double ttft = 0, tpot = 0, total_per_gpu = 0;
  std::optional<double> accept_length;
};

std::vector<Point> read_points(const std::string& file) {
  std::vector<Point> points;
  const auto text = util::read_file(file);
  EXPECT_TRUE(text) << file;
  if (!text) return points;
  for (const auto line : util::split(std::string_view(*text), '\n')) {
    if (line.empty()) continue;
    auto v = util::parse_json(line, file);
    EXPECT_TRUE(v && v->is_object()) << line;
    if (!v || !v->is_object()) continue;
    Point p;
    p.row = v->get_object();
    p.source = util::json_string(p.row, "source").value_or("");
    p.isl = util::json_int(p.row, "isl").value_or(0);
    p.osl = util::json_int(p.row, "osl").value_or(0);
    p.concurrency = util::json_int(p.row, "concurrency").value_or(0);
    p.num_prompts = util::json_int(p.row, "num_prompts").value_or(0);
    p.ttft = util::json_number(p.row, "ttft_ms_mean").value_or(NAN);
    p.tpot = util::json_number(p.row, "tpot_ms_mean").value_or(NAN);
    p.total_per_gpu = util::json_number(p.row, "total_tok_per_s_per_gpu").value_or(NAN);
    if (const auto* spec = p.row.if_contains("spec"); spec && spec->is_object()) {
      p.accept_length = util::json_number(spec->get_object(), "accept_length");
    }
    points.push_back(std::move(p));
  }
  return points;
}

SimConfig config_of(const Point& p) {
  SimConfig c;
  c.hardware = util::json_string(p.row, "hw").value_or("");
  c.model = util::json_string(p.row, "model").value_or("");
  c.tp_size = static_cast<int>(util::json_int(p.row, "tp").value_or(1));
  c.ep_size = static_cast<int>(util::json_int(p.row, "ep").value_or(1));
  const std::string kv = util::json_string(p.row, "kv").value_or("");
  c.kv_cache_dtype = kv.starts_with("fp8") ? KvCacheDtype::fp8_e4m3 : KvCacheDtype::bf16;
  if (auto cap = util::json_int(p.row, "max_running_requests")) c.max_running_requests = static_cast<int>(*cap);
  if (const auto* spec = p.row.if_contains("spec"); spec && spec->is_object()) {
    const auto& s = spec->get_object();
    c.speculative_algorithm = parse_spec_algorithm(util::json_string(s, "algorithm").value_or("")).value();
    c.speculative_num_steps = static_cast<int>(util::json_int(s, "steps").value_or(1));
    c.speculative_eagle_topk = static_cast<int>(util::json_int(s, "topk").value_or(1));
    c.speculative_num_draft_tokens = static_cast<int>(util::json_int(s, "draft_tokens").value_or(2));
    c.speculative_adaptive = util::json_bool(s, "adaptive").value_or(false);
  }
  return c;
}

// The single acceptance rate whose expected tokens per verify at `steps` drafts is `accept_length`.
double rate_for(double accept_length, int steps) {
  double lo = 0, hi = 0.99999;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    const std::vector<double> rates{mid};
    (expected_tokens_per_verify(rates, steps) < accept_length ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::string signed_pct(double simulated, double measured) {
  return fmt::format("{:+.0f} %", 100.0 * (simulated - measured) / measured);
}

std::string calibration_table(const std::vector<Point>& points) {
  std::string out =
      "| point | accept length used (α) | measured TTFT / TPOT / total tok/s/GPU | simulated | error TTFT / TPOT / "
      "tok/s/GPU |\n|---|---|---|---|---|\n";
  double abs_err[3] = {0, 0, 0};
  for (const Point& p : points) {
    SimConfig c = config_of(p);
    std::string accept = "–";
    if (c.speculative_algorithm != SpecAlgorithm::none) {
      // A point without a recorded accept length takes the mean of its campaign's recorded ones.
      double al = 0;
      std::string how;
      if (p.accept_length) {
        al = *p.accept_length;
      } else {
        int n = 0;
        for (const Point& q : points) {
          if (q.source == p.source && q.accept_length) al += *q.accept_length, ++n;
        }
        al /= n;
        how = ", campaign mean";
      }
      const int steps = draft_steps(make_deployment(c).value().spec, static_cast<int>(p.concurrency));
      const double alpha = rate_for(al, steps);
      c.sim_accept_rates = {alpha};
      accept = fmt::format("{:.2f}{} (α {:.3f} at {} steps)", al, how, alpha, steps);
    }
    Engine e(make_deployment(c).value());
    const auto r = loop::run_closed_loop(e, p.isl, p.osl, static_cast<int>(p.concurrency), static_cast<int>(p.num_prompts));
    EXPECT_EQ(r.completed, p.num_prompts);
    EXPECT_TRUE(r.invariants_held);
    const double gpus = static_cast<double>(c.tp_size);
    const double total = r.output_tok_s * static_cast<double>(p.isl + p.osl) / static_cast<double>(p.osl) / gpus;
    abs_err[0] += std::abs(r.mean_ttft_ms - p.ttft) / p.ttft;
    abs_err[1] += std::abs(r.mean_tpot_ms - p.tpot) / p.tpot;
    abs_err[2] += std::abs(total - p.total_per_gpu) / p.total_per_gpu;
    const std::string strategy = util::json_string(p.row, "strategy").value_or("");
    out += fmt::format("| {}→{} C{} {} EP{} {} | {} | {:.0f} / {:.2f} / {:.0f} | {:.0f} / {:.2f} / {:.0f} | {} / {} / {} |\n",
                       p.isl, p.osl, p.concurrency, strategy, c.ep_size, util::json_string(p.row, "kv").value_or(""),
                       accept, p.ttft, p.tpot, p.total_per_gpu, r.mean_ttft_ms, r.mean_tpot_ms, total,
                       signed_pct(r.mean_ttft_ms, p.ttft), signed_pct(r.mean_tpot_ms, p.tpot),
                       signed_pct(total, p.total_per_gpu));
  }
  const double n = static_cast<double>(points.size());
  out += fmt::format("\nMean absolute error over {} points: TTFT {:.0f} %, TPOT {:.0f} %, total tok/s/GPU {:.0f} %.\n",
                     points.size(), 100 * abs_err[0] / n, 100 * abs_err[1] / n, 100 * abs_err[2] / n);
  return out;
}

// Compares `table` with tests/golden/sim/<name>, or rewrites it with UPDATE_GOLDEN=1.
void expect_golden(const std::string& name, const std::string& table) {
  const std::string golden = k_source_dir + "/tests/golden/sim/" + name;
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    ASSERT_TRUE(util::write_file_atomic(golden, table));
    return;
  }
  const auto expected = util::read_file(golden);
  ASSERT_TRUE(expected) << golden << " is missing; run with UPDATE_GOLDEN=1 to create it";
  EXPECT_EQ(table, *expected) << golden << " differs (the performance model moved); run with UPDATE_GOLDEN=1, "
                              << "review the diff and update docs/sim.md";
}

// The brief's RTX PRO 6000 campaign: what the simulator predicts for both arms beside what the brief
// reports (out tok/s / mean TPOT ms; "–" where the brief gives no number).
std::string brief_table() {
  struct Row {
    const char* scenario;
    std::int64_t isl, osl;
    int c;
    const char* e7b_brief;
    const char* tp2pp4_brief;
  };
  const Row rows[] = {
      {"16K→512", 16384, 512, 1, "49.6 / 13.7", "16.7 / 50.3"},
      {"16K→512", 16384, 512, 8, "–", "tp2pp4 wins"},
      {"16K→512", 16384, 512, 16, "TPOT cliff", "tp2pp4 wins"},
      {"16K→512", 16384, 512, 32, "–", "gap grows"},
      {"16K→512", 16384, 512, 64, "–", "gap grows"},
      {"1K→128", 1024, 128, 8, "–", "tp2pp4 wins"},
      {"1K→4K", 1024, 4096, 8, "412 / 22.5 (accept 4.0)", "tp2pp4 wins"},
      {"64K→512", 65536, 512, 1, "–", "TPOT ≈ 50"},
      {"128K→512", 131072, 512, 1, "–", "TPOT ≈ 50"},
  };
  std::string out = "| scenario | C | e7b sim | e7b brief | tp2pp4 sim | tp2pp4 brief |\n|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    const auto a = brief::point(brief::e7b(), r.isl, r.osl, r.c);
    const auto b = brief::point(brief::tp2pp4(), r.isl, r.osl, r.c);
    out += fmt::format("| {} | {} | {:.1f} / {:.1f} (accept {:.2f}{}) | {} | {:.1f} / {:.1f} | {} |\n", r.scenario, r.c,
                       a.output_tok_s, a.mean_tpot_ms, a.accept_length, a.full_batch_cuda_graph ? "" : ", eager",
                       r.e7b_brief, b.output_tok_s, b.mean_tpot_ms, r.tp2pp4_brief);
  }
  return out;
}

}  // namespace

TEST(SimCalibration, BriefRtxPro6000CampaignMatchesTheGoldenTable) {
  expect_golden("brief-rtx-pro-6000.md", brief_table());
}

TEST(SimCalibration, GlmGb300HeldOutPointsMatchTheGoldenTable) {
  const auto points = read_points(k_source_dir + "/tests/fixtures/sim/glm-5.3-flash-gb300.jsonl");
  ASSERT_EQ(points.size(), 7u);
  expect_golden("calibration-glm-5.3-flash-gb300.md", calibration_table(points));
}
