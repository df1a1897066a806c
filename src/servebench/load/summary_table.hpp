#pragma once
// The end-of-run table on stdout, with sglang bench_serving's labels (scrapers key on them:
// "Successful requests:", "Mean TTFT (ms):", …) followed by servebench's own lines.
#include <string>

#include "servebench/load/run_result.hpp"

namespace servebench::load {

// The table as text, ending with a newline.
std::string summary_table(const RunResult& r);

}  // namespace servebench::load
