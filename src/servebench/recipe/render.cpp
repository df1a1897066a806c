#include "servebench/recipe/render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/lookup_keys.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;
using util::Result;

Result<std::vector<std::string>> resolve_words(const std::string& entry, const PlaceholderValues& values) {
  auto words = util::shell_split(entry);
  if (!words) return std::unexpected(words.error());
  for (auto& w : *words) {
    auto resolved = substitute(w, values);
    if (!resolved) return std::unexpected(resolved.error());
    w = std::move(*resolved);
  }
  return words;
}

Result<std::vector<std::string>> program_words(const Catalog& catalog, const Selection& s, Target target) {
  if (target == Target::engine) return util::shell_split(catalog.launcher);
  if (catalog.engine != flags::Dialect::sglang) {
    return util::failf(ErrorKind::bad_input, "{}: serve-sim speaks SGLang's flags; a {} catalog renders for its engine only",
                       catalog.file, flags::to_string(catalog.engine));
  }
  if (catalog.model.card.empty()) {
    return util::failf(ErrorKind::bad_input, "{}: model.card is not set; serve-sim needs a model card name", catalog.file);
  }
  return std::vector<std::string>{"servebench", "serve-sim", "--hw", s.options.front(), "--model", catalog.model.card};
}

}  // namespace

std::string model_name(const Catalog& catalog, const Selection& s) {
  const std::string* name = lookup(catalog.model.names, lookup_keys(catalog, s.options, model_name_patterns()));
  return name != nullptr ? *name : std::string();
}

PlaceholderValues placeholder_values(const Catalog& catalog, const Selection& s, Target target,
                                     const PlaceholderValues& overrides) {
  PlaceholderValues values;
  for (const auto& p : catalog.placeholders) {
    if (!p.default_value.empty()) values.set(p.name, p.default_value);
  }
  if (auto name = model_name(catalog, s); !name.empty()) values.set(std::string(k_model_name), std::move(name));
  if (target == Target::sim) values.set(std::string(k_host_ip), "127.0.0.1");
  // A command servebench runs or fingerprints is the first node's, unless the catalog says otherwise.
  if (!values.get(k_node_rank)) values.set(std::string(k_node_rank), "0");
  if (!values.get(k_node0_ip)) values.set(std::string(k_node0_ip), "127.0.0.1");
  for (const auto& [name, value] : overrides.entries()) values.set(name, value);
  return values;
}

std::vector<std::string> RenderedCommand::words() const {
  std::vector<std::string> out = program;
  for (const auto& entry : flags) out.insert(out.end(), entry.begin(), entry.end());
  return out;
}

std::vector<flags::EnvVar> RenderedCommand::env_vars() const {
  std::vector<flags::EnvVar> out;
  for (const auto& e : env) {
    const auto eq = e.find('=');
    out.push_back({e.substr(0, eq), eq == std::string::npos ? "" : e.substr(eq + 1)});
  }
  return out;
}

void RenderedCommand::set_flag(const std::string& flag, const std::string& value) {
  bool found = false;
  for (auto& entry : flags) {
    if (entry.empty() || flag_family(entry.front()) != flag) continue;
    entry = {flag, value};
    found = true;
  }
  if (!found) flags.push_back({flag, value});
}

Result<RenderedCommand> render_unchecked(const Catalog& catalog, const Selection& s, Target target,
                                         const PlaceholderValues& overrides) {
  const Cell* cell = find_cell(catalog, s);
  if (cell == nullptr) return util::failf(ErrorKind::bad_input, "no cell for {}", to_string(catalog, s));
  if (cell->redirect) {
    return util::failf(ErrorKind::bad_input, "{} has no command: {}", to_string(catalog, s), *cell->redirect);
  }
  const PlaceholderValues values = placeholder_values(catalog, s, target, overrides);
  const Composition composed = compose(catalog, s, *cell);
  RenderedCommand out;
  out.selection = to_string(catalog, s);
  for (const auto& h : composed.hints) out.hints.push_back(interpolate(h.text, values));
  auto program = program_words(catalog, s, target);
  if (!program) return std::unexpected(program.error());
  out.program = std::move(*program);
  for (const auto& entry : composed.flags) {
    auto words = resolve_words(entry.text, values);
    if (!words) return std::unexpected(util::with_context(words.error(), to_string(catalog, s)));
    out.flags.push_back(std::move(*words));
  }
  for (const auto& entry : composed.env) {
    auto text = substitute(entry.text, values);
    if (!text) return std::unexpected(util::with_context(text.error(), to_string(catalog, s)));
    out.env.push_back(std::move(*text));
  }
  return out;
}

Result<RenderedCommand> render(const Catalog& catalog, const Selection& s, Target target,
                               const PlaceholderValues& overrides) {
  const auto reasons = disable_reasons(catalog, s);
  if (!reasons.empty()) {
    return util::failf(ErrorKind::bad_input, "{} is disabled: {}", to_string(catalog, s), util::join(reasons, "; "));
  }
  return render_unchecked(catalog, s, target, overrides);
}

Result<flags::NormalizedCommand> normalize(const Catalog& catalog, const RenderedCommand& command) {
  const auto words = command.words();
  const auto env = command.env_vars();
  return flags::normalize(catalog.engine, words, env);
}

}  // namespace servebench::recipe
