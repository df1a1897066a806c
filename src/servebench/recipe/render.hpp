#pragma once
// From a selection to a launch command a program can run: the composed flags and env
// (compose.hpp) with every placeholder resolved, split into words, after the engine's program words
// (or `servebench serve-sim --hw <hw> --model <card>`). What the cookbook page shows for the same
// selection is page.hpp; both use the same composition.
#include <string>
#include <vector>

#include "servebench/flags/command.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/compose.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/recipe/selection.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// engine: the catalog's engine (e.g. sglang serve) · sim: the same flags on
// `servebench serve-sim --hw <hw> --model <card>`, bound to 127.0.0.1.
enum class Target { engine, sim };

// The model name of a selection (model.names by the keys of lookup_keys.hpp), or "".
std::string model_name(const Catalog& catalog, const Selection& s);

// Values for placeholders: declared defaults, MODEL_NAME for the selection, HOST_IP 127.0.0.1 for
// the simulator, NODE_RANK 0 and NODE0_IP 127.0.0.1 unless declared, then `overrides`.
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
  // Sets the value of `flag` (adding it when absent), e.g. the campaign's --port {port}.
  void set_flag(const std::string& flag, const std::string& value);
};

// Renders a selection. Fails (bad_input) when a chip is greyed out (the message lists every reason),
// it has no cell, the cell is a redirect, a placeholder has no value, or the simulator is asked for
// without model.card.
util::Result<RenderedCommand> render(const Catalog& catalog, const Selection& s, Target target,
                                     const PlaceholderValues& overrides = {});
// The same without the greying check: lint renders what the catalog says even where rules forbid it.
util::Result<RenderedCommand> render_unchecked(const Catalog& catalog, const Selection& s, Target target,
                                               const PlaceholderValues& overrides = {});

// The command as the engine's normalizer sees it (flags::normalize), for fingerprints and lint.
util::Result<flags::NormalizedCommand> normalize(const Catalog& catalog, const RenderedCommand& command);

}  // namespace servebench::recipe
