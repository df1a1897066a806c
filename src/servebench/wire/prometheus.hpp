#pragma once
// Prometheus text exposition format (what /metrics returns), ours because it is small: pure and
// incremental — bytes in, samples out, no sockets. Comments, HELP/TYPE, timestamps and exemplars
// are skipped; `_created` samples (timestamps, not counts) are dropped.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace servebench::wire {

struct Sample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // unescaped values, in exposition order
  double value = 0;
  // The value of label `key`, or nullopt.
  std::optional<std::string_view> label(std::string_view key) const;
};

class PrometheusParser {
 public:
  // Parses every complete line of `bytes` (with any carried-over partial line) into `out`.
  void feed(std::string_view bytes, std::vector<Sample>& out);
  // End of input: parses a final line that had no newline.
  void finish(std::vector<Sample>& out);
  // Lines that could not be parsed are skipped and counted; the first one's reason is kept
  // ("line 12: expected a value after the labels").
  std::size_t malformed_lines() const { return m_malformed; }
  const std::string& first_error() const { return m_first_error; }

 private:
  void parse_line(std::string_view line, std::vector<Sample>& out);

  std::string m_partial;
  std::size_t m_line = 0;
  std::size_t m_malformed = 0;
  std::string m_first_error;
};

// The whole text at once.
std::vector<Sample> parse_prometheus(std::string_view text);

// Selects samples by one label value, e.g. {"mode", "prefill_cache"}.
struct LabelMatch {
  std::string_view key, value;
};

// Σ value of metric `name` over all label sets. Counters are exported with and without `_total`
// depending on the client library, so `x` and `x_total` both match: the spelling given wins when
// present, else the other one. nullopt when neither is exported.
std::optional<double> sum_metric(std::span<const Sample> samples, std::string_view name,
                                 std::optional<LabelMatch> match = std::nullopt);

// One cumulative bucket of a histogram: samples ≤ le (le = +infinity for "+Inf").
struct Bucket {
  double le = 0;
  double count = 0;
};

// The buckets of histogram `name` (its `name_bucket{le=…}` samples, summed over the other labels
// per le), in ascending le; empty when the histogram is not exported or an le is not a number.
std::vector<Bucket> histogram_buckets(std::span<const Sample> samples, std::string_view name);

}  // namespace servebench::wire
