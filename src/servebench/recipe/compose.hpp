#pragma once
// A selection's flags, env and hints, composed as the cookbook page composes them:
//  1. the cell's flags and env;
//  2. the overlays that contribute (greying.hpp), in dim order: when none has strip_prefixes, their
//     flags follow the cell's; otherwise each cell flag whose name (the first word, split at
//     whitespace or '=') is in the union of their strip_prefixes is replaced in place by every
//     overlay flag of that name not used yet (a name the cell gives twice is emitted once), and the
//     overlay flags left over follow at the end. Env: the cell's, then the overlays';
//  3. more than one node: the engine's node flags after the last parallelism flag;
//  4. a prefill/decode role: every port flag takes the role's port.
// Hints: the cell's, the overlays', then the selection hardware's multi-node hints.
#include <string>
#include <string_view>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {

struct Entry {
  std::string text;    // one flag with its value(s), or one K=V; placeholders unresolved
  std::string origin;  // "cell", "overlay kvDsaPair=fp8-trtllm" or "multi-node"
  std::string where;   // file:line:col of the entry in the catalog ("" for engine-made flags)
};

struct Composition {
  std::vector<Entry> flags, env, hints;
  int nnodes = 1;
  std::string pd_role;  // "", "prefill" or "decode"
};

// The flag name of an entry: its first word up to '=' ("--port 30000" → "--port").
std::string_view flag_family(std::string_view entry);

// Composes `cell` (which must be the selection's cell) with the selection's overlays.
Composition compose(const Catalog& catalog, const Selection& s, const Cell& cell);

}  // namespace servebench::recipe
