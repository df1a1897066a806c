// Model and hardware cards (YAML): the selector byte picks the reader.
#include <string>

#include "fuzz_input.hpp"
#include "servebench/sim/hardware_card.hpp"
#include "servebench/sim/model_card.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const bool model = in.take_byte() & 1;
  const std::string text(in.rest());
  if (model) {
    (void)servebench::sim::parse_model_card(text, "fuzz.yaml");
  } else {
    (void)servebench::sim::parse_hardware_cards(text, "fuzz.yaml");
  }
  return 0;
}
