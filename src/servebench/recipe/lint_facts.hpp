#pragma once
// The facts lint checks against, all from data files: GPU architectures (data/hardware.yaml), which
// backends need which architecture (data/arch_rules.yaml), and per-engine parallelism flags,
// conflicting flags and kernel tile sizes (data/recipe_lint.yaml).
#include <cstdint>
#include <string>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/recipe/finding.hpp"
#include "servebench/recipe/gpu_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct ArchRequirement {
  std::string id;
  flags::Dialect engine = flags::Dialect::sglang;
  std::vector<std::string> flags, values;
  std::vector<int> sm;
  std::vector<std::string> families;
  std::string reason;
  // True when this GPU satisfies the requirement.
  bool allows(const GpuFacts& gpu) const;
};

struct ParallelismFlags {
  std::string tp, pp, dp, ep, dp_attention, nnodes;  // canonical flag names; "" = the engine has none
};

struct Conflict {
  std::string id;
  std::vector<std::string> flags;  // all present → finding
  Severity severity = Severity::error;
  std::string reason;
};

struct EngineLintFacts {
  flags::Dialect engine = flags::Dialect::sglang;
  ParallelismFlags parallelism;
  std::vector<Conflict> conflicts;
};

struct LintFacts {
  std::vector<GpuFacts> gpus;
  std::vector<ArchRequirement> requirements;
  std::vector<EngineLintFacts> engines;
  std::int64_t moe_intermediate_multiple = 128;
  // Facts of one engine, or nullptr when the data file has none.
  const EngineLintFacts* engine(flags::Dialect d) const;
};

// Parses arch_rules.yaml and recipe_lint.yaml texts; errors name file:line:col (bad_input).
util::Result<LintFacts> parse_lint_facts(std::vector<GpuFacts> gpus, const std::string& arch_text,
                                         const std::string& arch_file, const std::string& lint_text,
                                         const std::string& lint_file);
// The three data files (embedded, or from $SERVEBENCH_DATA_DIR).
util::Result<LintFacts> load_lint_facts();

}  // namespace servebench::recipe
