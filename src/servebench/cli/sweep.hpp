#pragma once
// `servebench sweep --slo … --search rate|concurrency`: the highest load that meets an SLO
// (load/slo_search.hpp), against any engine. It takes every `bench` flag for the workload and the
// server; each run of the search is a normal ledger point (servebench.point/1) in the run
// directory --out, with its per-request records, and the search itself lands in slo_search.json
// (docs/formats.md).
#include <filesystem>
#include <map>
#include <string>

#include "servebench/load/runner.hpp"
#include "servebench/load/slo.hpp"
#include "servebench/load/slo_search.hpp"
#include "servebench/load/workload.hpp"

namespace servebench::cli {

struct SweepOptions {
  load::Slo slo;
  load::SearchSpec search;
  std::filesystem::path out;              // the run directory; a ledger there is a sweep to resume
  std::string arm = "server", scenario = "slo-search";  // the ledger names of the runs
  // Every flag that decides the runs, by name, as given or defaulted (not where the server is):
  // a resume must have the same.
  std::map<std::string, std::string> settings;
};

// Runs the search: `spec` is the bench run spec without prompts, `workload` the bench workload
// (num_prompts is raised to 2 × C for a concurrency run). When --out already holds the ledger of a
// sweep with the same settings (and model), the runs it records are not measured again: the search
// takes their verdicts in the order it asks for them and goes on from there. Exit 0 when a boundary
// was found, 1 when even the lower bound misses the SLO; throws CommandError for bad input (other
// settings recorded in --out included) and unreachable servers.
int run_sweep(load::RunSpec spec, load::WorkloadOptions workload, const SweepOptions& options);

}  // namespace servebench::cli
