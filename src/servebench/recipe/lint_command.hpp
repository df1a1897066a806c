#pragma once
// Lint rules that judge one rendered launch command of a catalog cell:
//   unknown-flag (not in the engine's flag list nor the catalog's extra_flags), invalid-type,
//   invalid-choice, out-of-range (flags::value_problem), duplicate-flag, redundant-default,
//   arch-backend, parallelism, divisibility-ep, divisibility-dp, divisibility-moe,
//   divisibility-heads, divisibility-kv-heads, gpu-count, nnodes-mismatch, conflict.
#include <string>
#include <vector>

#include "servebench/flags/command.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/finding.hpp"
#include "servebench/recipe/lint_facts.hpp"

namespace servebench::recipe {

struct CommandFinding {
  std::string rule;
  Severity severity = Severity::error;
  std::string flag;     // canonical name, or ""
  std::string message;  // the same for every selection with this mistake
  std::string context;  // what differs by selection ("b200 is sm_100 (blackwell)"), or ""
};

struct CommandUnderLint {
  const flags::NormalizedCommand& command;
  const Catalog& catalog;
  int nnodes = 1;  // the selection's node count (the cell's, or its nodes dim)
  const GpuFacts& gpu;
  int gpus_per_node = 0;
};

// Every finding for this command, in rule order (the list above).
std::vector<CommandFinding> lint_command(const CommandUnderLint& c, const LintFacts& facts);

}  // namespace servebench::recipe
