// ledger.jsonl text: never fails, every line is a record, another schema's object or an issue.
#include "fuzz_input.hpp"
#include "servebench/results/ledger.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const auto ledger = servebench::results::parse_ledger(in.rest());
  const auto latest = ledger.latest();
  servebench::fuzz::expect(latest.size() <= ledger.records.size(), "more latest records than records");
  return 0;
}
