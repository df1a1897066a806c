// Recipe catalog YAML, read against the shipped data files (loaded once).
#include <string>

#include "fuzz_input.hpp"
#include "servebench/recipe/catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const servebench::recipe::CatalogData catalog_data = [] {
    auto d = servebench::recipe::load_catalog_data();
    servebench::fuzz::expect(d.has_value(), "the shipped catalog data files load");
    return std::move(*d);
  }();
  servebench::fuzz::Input in(data, size);
  (void)servebench::recipe::parse_catalog(std::string(in.rest()), "fuzz.yaml", catalog_data);
  return 0;
}
