// Prometheus text: fed in two pieces split at a fuzzer-chosen point, the samples must equal those of
// the text parsed whole; sum_metric over them must not crash.
#include <vector>

#include "fuzz_input.hpp"
#include "servebench/wire/prometheus.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const std::size_t split = in.take_byte();
  const std::string_view text = in.rest();
  const auto whole = servebench::wire::parse_prometheus(text);
  servebench::wire::PrometheusParser parser;
  std::vector<servebench::wire::Sample> pieces;
  const std::size_t at = std::min(split, text.size());
  parser.feed(text.substr(0, at), pieces);
  parser.feed(text.substr(at), pieces);
  parser.finish(pieces);
  servebench::fuzz::expect(whole.size() == pieces.size(), "sample count depends on the split");
  for (std::size_t i = 0; i < whole.size(); ++i) {
    servebench::fuzz::expect(whole[i].name == pieces[i].name && whole[i].labels == pieces[i].labels,
                             "samples depend on the split");
  }
  if (!whole.empty()) {
    (void)servebench::wire::sum_metric(whole, whole.front().name);
    if (!whole.front().labels.empty()) {
      const auto& [k, v] = whole.front().labels.front();
      (void)servebench::wire::sum_metric(whole, whole.front().name, servebench::wire::LabelMatch{k, v});
    }
  }
  return 0;
}
