#pragma once
// The launch command every rank of a multi-node arm runs: the arm's own command with the engine's
// multi-node flags put in the way the cookbook writes them (recipe/node_flags.hpp), the rank and
// rank 0's address given as shell expressions the executor's environment fills per process
// (Slurm: $SLURM_NODEID and the first node of the allocation; LeaderWorkerSet: $LWS_WORKER_INDEX and
// $LWS_LEADER_ADDRESS). A single-node arm's command is returned as it is.
#include <string>

#include "servebench/campaign/spec.hpp"
#include "servebench/recipe/render_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::cluster {

// Fails (bad_input, naming the arm) when the launch does not split or the engine has no
// multi-node flags.
util::Result<std::string> ranked_launch(const campaign::ArmSpec& arm, const recipe::RenderFacts& facts,
                                        const std::string& rank, const std::string& node0);

// The spelling of both for a Slurm job (the batch script exports SERVEBENCH_NODE0).
inline constexpr const char* k_slurm_rank = "$SLURM_NODEID";
inline constexpr const char* k_slurm_node0 = "$SERVEBENCH_NODE0";

}  // namespace servebench::cluster
