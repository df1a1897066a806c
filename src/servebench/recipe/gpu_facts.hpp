#pragma once
// The GPU facts recipes need from data/hardware.yaml: names, labels, compute capability (sm) and
// family. Other keys of that file belong to the simulator and are not read here.
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct GpuFacts {
  std::string name, label, family;  // family: hopper | blackwell | blackwell-rtx | …
  int sm = 0;                       // compute capability × 10 (90, 100, 103, 120)
};

// Parses the `gpus` list of a hardware file; fails (bad_input, file:line:col) when an entry lacks
// name, sm or family.
util::Result<std::vector<GpuFacts>> parse_gpu_facts(const std::string& yaml_text, const std::string& file);
// data/hardware.yaml (embedded, or from $SERVEBENCH_DATA_DIR).
util::Result<std::vector<GpuFacts>> load_gpu_facts();
// The entry with this name, or nullptr.
const GpuFacts* find_gpu(const std::vector<GpuFacts>& gpus, std::string_view name);

}  // namespace servebench::recipe
