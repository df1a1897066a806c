#pragma once
// From a selection to a launch command: compose the cell with its overlays, then resolve
// placeholders. Overlays apply in dimension order; each chosen option first removes the cell's (and
// earlier overlays') flag and env entries that start with one of its strip_prefixes, then appends
// its own flags and env. Default options apply like any other.
#include <string>
#include <vector>

#include "servebench/flags/command.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/recipe/selection.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// engine: the catalog's engine (e.g. python3 -m sglang.launch_server) · sim: the same flags on
// `servebench serve-sim --hw <hw> --model <card>`, bound to 127.0.0.1.
enum class Target { engine, sim };

struct Entry {
  std::string text;    // one flag with its value(s), or one K=V; placeholders unresolved
  std::string origin;  // "cell" or "overlay kvDsaPair=fp8-trtllm"
  std::string where;   // file:line:col of the cell or option that wrote it
};

struct Composition {
  std::vector<Entry> flags, env;
  std::vector<std::string> hints;
};

// Applies the chosen overlays to `cell` (which must be the selection's cell).
Composition compose(const Catalog& catalog, const Selection& s, const Cell& cell);

// Values for placeholders: declared defaults, MODEL_NAME for the chosen options, HOST_IP 127.0.0.1
// for the simulator, then `overrides`.
PlaceholderValues placeholder_values(const Catalog& catalog, const Selection& s, Target target,
                                     const PlaceholderValues& overrides = {});

struct RenderedCommand {
  std::string selection;                        // canonical selection text
  std::vector<std::string> env;                 // "K=V", resolved
  std::vector<std::string> program;             // words before the flags
  std::vector<std::vector<std::string>> flags;  // one entry's words per element, resolved
  std::vector<std::string> hints;
  // Program words then every flag word (no env).
  std::vector<std::string> words() const;
  std::vector<flags::EnvVar> env_vars() const;
};

// Renders a selection. Fails (bad_input) when it is disabled (the message lists every reason), has
// no cell, a placeholder has no value, or the simulator is asked for without model.card.
util::Result<RenderedCommand> render(const Catalog& catalog, const Selection& s, Target target,
                                     const PlaceholderValues& overrides = {});
// The same without the disable check: lint renders what the catalog says even where rules forbid it.
util::Result<RenderedCommand> render_unchecked(const Catalog& catalog, const Selection& s, Target target,
                                               const PlaceholderValues& overrides = {});

// The command as the engine's normalizer sees it (flags::normalize), for fingerprints and lint.
util::Result<flags::NormalizedCommand> normalize(const Catalog& catalog, const RenderedCommand& command);

}  // namespace servebench::recipe
