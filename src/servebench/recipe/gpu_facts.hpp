#pragma once
// The GPU facts recipes need from data/hardware.yaml (or a catalog's own hardware entries): names,
// labels, vendor, compute capability (sm) and family. Other keys of that file belong to the
// simulator and are not read here.
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct GpuFacts {
  std::string name, label, family;  // family: hopper | blackwell | blackwell-rtx | cdna3 | …
  int sm = 0;                       // compute capability × 10 (90, 100, 103, 120); 0 for other vendors
  std::string vendor = "nvidia";    // nvidia | amd | npu: picks the Docker command's device lines
};

// The vendors a Docker command knows; fails (bad_input) naming the accepted words.
util::Result<std::string> parse_vendor(std::string_view word);

// Parses the `gpus` list of a hardware file; fails (bad_input, file:line:col) when an entry lacks
// name, sm or family. `vendor` is optional (default nvidia).
util::Result<std::vector<GpuFacts>> parse_gpu_facts(const std::string& yaml_text, const std::string& file);
// `overrides` entries merged into `base` by name, as the simulator merges its cards: a known name has
// only the keys it gives replaced (an entry may give nothing but simulator keys), a new name is
// appended and needs sm and family. Errors name the file they come from.
util::Result<std::vector<GpuFacts>> merge_gpu_facts(const std::string& base_yaml, const std::string& base_file,
                                                    const std::string& override_yaml, const std::string& override_file);
// The built-in data/hardware.yaml with $SERVEBENCH_DATA_DIR/hardware.yaml merged into it by name.
util::Result<std::vector<GpuFacts>> load_gpu_facts();
// The entry with this name, or nullptr.
const GpuFacts* find_gpu(const std::vector<GpuFacts>& gpus, std::string_view name);

}  // namespace servebench::recipe
