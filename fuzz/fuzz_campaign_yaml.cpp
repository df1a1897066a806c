// Campaign YAML: a file that loads must write a resolved campaign.yaml that loads again and
// resolves to the same text (what resume relies on).
#include <string>

#include "fuzz_input.hpp"
#include "servebench/campaign/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const auto spec = servebench::campaign::parse_campaign(std::string(in.rest()), "fuzz.yaml", "/nonexistent");
  if (!spec) return 0;
  const std::string resolved = servebench::campaign::resolved_yaml(*spec);
  const auto again = servebench::campaign::parse_campaign(resolved, "fuzz.yaml", "/nonexistent");  // same name: it is in the header
  servebench::fuzz::expect(again.has_value(), "a resolved campaign.yaml does not load");
  const std::string twice = servebench::campaign::resolved_yaml(*again);
  if (twice != resolved) std::fprintf(stderr, "--- resolved once:\n%s\n--- twice:\n%s\n", resolved.c_str(), twice.c_str());
  servebench::fuzz::expect(twice == resolved, "a resolved campaign.yaml resolves to other text");
  return 0;
}
