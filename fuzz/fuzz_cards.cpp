// Model and hardware cards and engine profiles (YAML): the selector byte picks the reader.
#include <string>

#include "fuzz_input.hpp"
#include "servebench/sim/engine_profile.hpp"
#include "servebench/sim/hardware_card.hpp"
#include "servebench/sim/model_card.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const auto selector = in.take_byte();
  const std::string text(in.rest());
  if (selector & 1) {
    (void)servebench::sim::parse_model_card(text, "fuzz.yaml");
  } else if (selector & 2) {
    (void)servebench::sim::parse_engine_profile(text, "fuzz.yaml");
  } else {
    (void)servebench::sim::parse_hardware_cards(text, "fuzz.yaml");
  }
  return 0;
}
