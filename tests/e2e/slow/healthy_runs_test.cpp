// The gate's false-failure rate: 50 small healthy runs in a row against one simulator, half closed
// loop and half open loop (the opening burst of a small open-loop run once decided its p99), should
// all pass the gate. The deployment's TPOT is ~21 ms, run 4x slower than real time (~84 ms between
// tokens on the wire, a slow real GPU's pace): 10 % of it, the gate's limit, is above the few-ms
// scheduler stalls a shared 2-core VM has several times a second. (At real time the limit is ~2.1
// ms, and on such a VM those stalls do delay more than the 1 % of a small run's reads the p99
// forgives: the gate is then right that the machine distorts the run.) Bounded: 50 runs of 1-2 s
// each; the binary runs alone (RUN_SERIAL).
// The rate is defined on a machine the client has to itself: with more runnable threads than
// cores (load average above the core count) every thread of the client waits for a CPU, its
// timers and reads run late by the scheduler's quantum, and the gate rightly calls the runs
// distorted; then the test skips and says so.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

#include "e2e/sim_child.hpp"

namespace servebench::e2e {
namespace {

double load_average() {
  double one = 0;
  std::ifstream("/proc/loadavg") >> one;
  return one;
}

TEST(HealthyRuns, FiftySmallRunsInARowHaveNoFalseFailure) {
  const double load = load_average();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (load > cores) GTEST_SKIP() << fmt::format("skipped: load average {:.1f} on {} cores, not a quiet machine", load, cores);
  SimChild sim("healthy_runs",
               {"--hw", "h100", "--model", "llama-3.1-70b", "--tp-size", "4", "--sim-time-scale", "4"});
  ASSERT_FALSE(sim.url.empty());
  int failures = 0;
  std::string reasons;
  for (int run = 0; run < 50; ++run) {
    std::vector<std::string> args{"--backend", "sglang-oai", "--num-prompts", "8", "--random-input-len", "16",
                                  "--random-output-len", "12", "--seed", std::to_string(run)};
    if (run % 2 == 0) {
      args.insert(args.end(), {"--max-concurrency", "4"});
    } else {
      args.insert(args.end(), {"--request-rate", "40"});
    }
    const Finished r = sim.bench(args);
    const auto o = sim.last_result();
    const auto* client = o.if_contains("client");
    const bool healthy = client != nullptr && client->as_object().at("healthy").as_bool();
    if (r.exit_code != 0 || !healthy) {
      ++failures;
      reasons += fmt::format("run {} (exit {}): {}\n", run, r.exit_code,
                             client ? util::json_string(client->as_object(), "reason").value_or("") : r.err);
    }
  }
  // The target is no false failure in 50, and alone on the project's 2-core VM it is met (0 of 50,
  // README "Performance"). The bound allows one: a shared CI machine can stall a client thread past
  // the ~8.4 ms limit once in a while, and one such run in 50 is the machine, not the gate. Every
  // false failure is printed.
  EXPECT_LE(failures, 1) << reasons;
  if (failures > 0) std::fprintf(stderr, "HealthyRuns: %d false failure(s) of 50:\n%s", failures, reasons.c_str());
}

}  // namespace
}  // namespace servebench::e2e
