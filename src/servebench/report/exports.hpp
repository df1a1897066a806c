#pragma once
// Machine-readable exports of the ok points (docs/report.md "Exports"), each written in this one
// place: cookbook benchmark rows (results/cookbook_row.hpp), an InferenceX-style CSV and
// vLLM-style result objects. Skipped, failed and invalid points are never exported.
#include <ostream>

#include "servebench/report/campaign_set.hpp"

namespace servebench::report {

// A JSON array with one cookbook row per arm that has ok points: match {"arm", "campaign"},
// sglang_version from the server facts, latencyPercentile "Mean", one speed entry per ok point.
void write_cookbook_rows(const CampaignSet& set, std::ostream& out);
// CSV, one line per ok point, InferenceX process_result.py keys: tput_per_gpu (total tok/s per
// GPU), output_tput_per_gpu, input_tput_per_gpu, latencies in seconds, *_intvty = 1000 / TPOT ms.
void write_inferencex_csv(const CampaignSet& set, std::ostream& out);
// A JSON array with one vLLM `bench serve` result object per ok point.
void write_vllm_results(const CampaignSet& set, std::ostream& out);

}  // namespace servebench::report
