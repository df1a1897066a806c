#pragma once
// The multi-node flags of one rank put into a launch command the way the cookbook page writes them
// (data/recipe_engines.yaml `multi_node`): right after the last parallelism flag (and its value),
// else after the model flag, else at the end. The cluster executors use it to turn one arm's launch
// into the command every rank runs.
#include <string>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/recipe/render_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct NodeFlagValues {
  int nnodes = 1;
  std::string node_rank;  // "0", or a shell expression such as "$SLURM_NODEID"
  std::string node0_ip;   // the first node's address, or a shell expression
};

// `words` (a launch command split like a shell) with the engine's node flags inserted. Fails
// (bad_input) when the engine has no multi_node rendering.
util::Result<std::vector<std::string>> insert_node_flags(const RenderFacts& facts, flags::Dialect engine,
                                                        std::vector<std::string> words, const NodeFlagValues& values);

}  // namespace servebench::recipe
