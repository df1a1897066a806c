#pragma once
// The highest load that meets an SLO (`servebench sweep --slo … --search rate|concurrency`, as
// vLLM's serve_sla): run at the lowest load, double until a run misses the SLO (or the upper bound
// is reached), then bisect between the last load that met it and the first that did not, until
// the bracket is one step wide — 1 for concurrency, `rate_tolerance` × the lower end for a request
// rate — or `max_runs` runs were made. Every run is the caller's (a normal ledger point); this is
// only the order of loads. Assumes the SLO gets harder to meet as load grows.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::load {

enum class SearchKind { concurrency, rate };

struct SearchSpec {
  SearchKind kind = SearchKind::concurrency;
  double low = 1, high = 1024;  // inclusive bounds; concurrency rounds to integers
  int max_runs = 12;            // 2..100
  double rate_tolerance = 0.05; // a rate bracket this narrow (relative) is one step
};

struct SearchRun {
  double load = 0;
  bool met = false;
};

struct SearchResult {
  std::vector<SearchRun> runs;      // in the order they ran
  std::optional<double> boundary;   // the highest load that met the SLO; nullopt: even `low` missed
  std::optional<double> first_miss; // the lowest load that missed it; nullopt: `high` met it
  double step = 0;                  // first_miss − boundary when both are known (the bracket left)
  bool converged = false;           // the bracket is one step wide (or a bound settled it)
  std::string stop;                 // why the search ended, in words
};

// Fails (bad_input) on bounds that are not 0 < low ≤ high (concurrency: integers ≥ 1) or a run
// budget outside 2..100; a failing run (`evaluate` returns an error) ends the search with it.
util::Result<void> check_search(const SearchSpec& spec);
util::Result<SearchResult> search_boundary(const SearchSpec& spec,
                                           const std::function<util::Result<bool>(double load)>& evaluate);

}  // namespace servebench::load
