#include "servebench/flags/flag_registry.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>

#include "servebench/flags/flag_list.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::flags {
namespace {

using util::Result;

constexpr std::array<std::pair<Dialect, std::string_view>, 5> k_dialect_names{{
    {Dialect::sglang, "sglang"},
    {Dialect::vllm, "vllm"},
    {Dialect::llamacpp, "llamacpp"},
    {Dialect::trtllm, "trtllm"},
    {Dialect::generic, "generic"},
}};

// The first failure among several reads, so a registry entry reads as a flat list of fields.
template <class... R>
std::optional<util::Error> first_error(const R&... results) {
  std::optional<util::Error> e;
  ((!e && !results ? (e = results.error(), 0) : 0), ...);
  return e;
}

Result<FlagArity> parse_arity(const std::string& file, const YAML::Node& n, const std::string& text) {
  if (text == "none") return FlagArity::none;
  if (text == "one") return FlagArity::one;
  if (text == "many") return FlagArity::many;
  if (text == "optional") return FlagArity::optional;
  return std::unexpected(util::yaml_error(file, n, fmt::format("value '{}' must be none, one, many or optional", text)));
}

Result<FlagSpec> parse_flag(const std::string& file, const YAML::Node& node) {
  auto map = util::YamlMap::of(file, node, "flag");
  if (!map) return std::unexpected(map.error());
  FlagSpec spec;
  auto name = map->required_string("name");
  auto aliases = map->string_list("aliases");
  auto value = map->optional_string("value");
  auto def = map->optional_string("default");
  auto behaviour = map->optional_bool("behaviour");
  auto group = map->optional_string("group");
  auto arch = map->optional_string("arch");
  auto notes = map->optional_string("notes");
  if (auto e = first_error(name, aliases, value, def, behaviour, group, arch, notes)) return std::unexpected(*e);
  if (!name->starts_with("-")) {
    return std::unexpected(util::yaml_error(file, node, fmt::format("flag name '{}' must start with '-'", *name)));
  }
  spec.name = *name;
  spec.aliases = *aliases;
  if (*value) {
    auto arity = parse_arity(file, map->node("value"), **value);
    if (!arity) return std::unexpected(arity.error());
    spec.arity = *arity;
  }
  spec.default_value = *def;
  spec.behavioural = behaviour->value_or(true);
  spec.group = group->value_or("");
  spec.arch = arch->value_or("");
  spec.notes = notes->value_or("");
  if (auto done = map->finish(); !done) return std::unexpected(done.error());
  return spec;
}

Result<std::vector<FlagSpec>> parse_flags(const std::string& file, const YAML::Node& list) {
  std::vector<FlagSpec> out;
  if (!list.IsDefined()) return out;
  if (!list.IsSequence()) return std::unexpected(util::yaml_error(file, list, "flags must be a list"));
  for (const auto& item : list) {
    auto spec = parse_flag(file, item);
    if (!spec) return std::unexpected(spec.error());
    out.push_back(std::move(*spec));
  }
  return out;
}

FlagSpec* find_named(std::vector<FlagSpec>& flags, std::string_view name) {
  for (auto& f : flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

Result<ValueRange> parse_range(const std::string& file, const YAML::Node& node, std::string& flag) {
  auto map = util::YamlMap::of(file, node, "range");
  if (!map) return std::unexpected(map.error());
  auto name = map->required_string("flag");
  auto min = map->optional_double("min");
  auto above = map->optional_double("above");
  auto max = map->optional_double("max");
  auto below = map->optional_double("below");
  auto reason = map->optional_string("reason");
  if (auto e = first_error(name, min, above, max, below, reason)) return std::unexpected(*e);
  if (auto done = map->finish(); !done) return std::unexpected(done.error());
  if ((*min && *above) || (*max && *below) || (!*min && !*above && !*max && !*below)) {
    return std::unexpected(util::yaml_error(file, node, "a range needs one lower bound (min or above) and/or one upper bound (max or below)"));
  }
  flag = *name;
  ValueRange r;
  r.min = *min ? *min : *above;
  r.min_exclusive = above->has_value();
  r.max = *max ? *max : *below;
  r.max_exclusive = below->has_value();
  r.reason = reason->value_or("");
  return r;
}

// Specs from a compiled-in flag list (`flag_list`), with what the list cannot say: flags that do not
// change what is measured (`not_behavioural`) and value ranges (`ranges`). No list: no specs.
Result<std::vector<FlagSpec>> listed_flags(const std::string& file, util::YamlMap& map) {
  auto list = map.optional_string("flag_list");
  auto quiet = map.string_list("not_behavioural");
  if (auto e = first_error(list, quiet)) return std::unexpected(*e);
  const YAML::Node ranges = map.node("ranges");
  if (!*list) {
    if (!quiet->empty() || ranges.IsDefined()) return std::unexpected(util::yaml_error(file, map.self(), "not_behavioural and ranges need a flag_list"));
    return std::vector<FlagSpec>{};
  }
  auto specs = flag_list_specs(**list);
  if (!specs) return std::unexpected(util::yaml_error(file, map.node("flag_list"), specs.error().message));
  for (const auto& name : *quiet) {
    FlagSpec* spec = find_named(*specs, name);
    if (spec == nullptr) return std::unexpected(util::yaml_error(file, map.node("not_behavioural"), fmt::format("{} is not in {}", name, **list)));
    spec->behavioural = false;
  }
  for (const auto& item : ranges) {
    std::string flag;
    auto range = parse_range(file, item, flag);
    if (!range) return std::unexpected(range.error());
    FlagSpec* spec = find_named(*specs, flag);
    if (spec == nullptr) return std::unexpected(util::yaml_error(file, item, fmt::format("{} is not in {}", flag, **list)));
    spec->range = std::move(*range);
  }
  return specs;
}

const FlagSpec* find_in(const std::vector<FlagSpec>& flags, std::string_view word) {
  for (const auto& f : flags) {
    if (f.name == word) return &f;
    if (std::find(f.aliases.begin(), f.aliases.end(), word) != f.aliases.end()) return &f;
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(Dialect d) {
  for (const auto& [dialect, name] : k_dialect_names) {
    if (dialect == d) return name;
  }
  SB_CHECK(false);
  return {};
}

util::Result<Dialect> parse_dialect(std::string_view word) {
  for (const auto& [dialect, name] : k_dialect_names) {
    if (name == word) return dialect;
  }
  return util::failf(util::ErrorKind::bad_input, "unknown dialect '{}'; expected sglang, vllm, llamacpp, trtllm or generic",
                     word);
}

const FlagSpec* FlagOverlay::find(std::string_view word) const { return find_in(flags, word); }

bool FlagOverlay::owns(std::string_view word) const {
  if (find(word) != nullptr) return true;
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return word.starts_with(p); });
}

util::Result<FlagRegistry> FlagRegistry::parse(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto map = util::YamlMap::of(file, doc->root, "flag registry");
  if (!map) return std::unexpected(map.error());
  FlagRegistry r;
  auto dialect_word = map->required_string("dialect");
  if (!dialect_word) return std::unexpected(dialect_word.error());
  auto dialect = parse_dialect(*dialect_word);
  if (!dialect) return std::unexpected(util::yaml_error(file, map->node("dialect"), dialect.error().message));
  r.m_dialect = *dialect;
  auto prefixes = map->string_list("env_prefixes");
  auto ignored = map->string_list("env_ignored");
  auto after = map->string_list("positional_after");
  auto pflag = map->optional_string("positional_flag");
  auto dash = map->optional_bool("underscore_as_dash");
  auto program = map->optional_string("overlay_program");
  auto overlay_prefixes = map->string_list("overlay_prefixes");
  auto abbreviations = map->optional_bool("abbreviations");
  auto listed = listed_flags(file, *map);
  auto flags = parse_flags(file, map->node("flags"));
  if (auto e = first_error(prefixes, ignored, after, pflag, dash, program, overlay_prefixes, abbreviations, listed, flags)) {
    return std::unexpected(*e);
  }
  if (auto done = map->finish(); !done) return std::unexpected(done.error());
  r.m_env_prefixes = *prefixes;
  r.m_env_ignored = *ignored;
  r.m_positional_after = *after;
  r.m_positional_flag = pflag->value_or("");
  r.m_underscore_as_dash = dash->value_or(false);
  r.m_abbreviations = abbreviations->value_or(false);
  if (*program) {
    r.m_overlay = FlagOverlay{**program, *overlay_prefixes, std::move(*flags)};
    return r;
  }
  r.m_flags = std::move(*listed);
  for (auto& f : *flags) {
    if (find_in(r.m_flags, f.name) != nullptr) {
      return util::failf(util::ErrorKind::bad_input, "{}: flag {} is already in the flag list", file, f.name);
    }
    r.m_flags.push_back(std::move(f));
  }
  r.index();
  return r;
}

void FlagRegistry::index() {
  m_by_spelling.clear();
  for (std::size_t i = 0; i < m_flags.size(); ++i) {
    m_by_spelling.emplace(m_flags[i].name, i);
    for (const auto& a : m_flags[i].aliases) m_by_spelling.emplace(a, i);
  }
}

FlagRegistry FlagRegistry::empty(Dialect d) {
  FlagRegistry r;
  r.m_dialect = d;
  return r;
}

std::string FlagRegistry::spelling(std::string_view word) const {
  std::string out(word);
  if (m_underscore_as_dash) std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

const FlagSpec* FlagRegistry::find_exact(std::string_view word) const {
  const auto it = m_by_spelling.find(spelling(word));
  return it == m_by_spelling.end() ? nullptr : &m_flags[it->second];
}

const FlagSpec* FlagRegistry::find(std::string_view word) const {
  if (const FlagSpec* exact = find_exact(word)) return exact;
  if (!m_abbreviations || !word.starts_with("--") || word.size() < 3) return nullptr;
  // argparse takes a prefix of one option's spellings as that option.
  const std::string w = spelling(word);
  const FlagSpec* only = nullptr;
  for (auto it = m_by_spelling.lower_bound(w); it != m_by_spelling.end() && it->first.starts_with(w); ++it) {
    const FlagSpec* spec = &m_flags[it->second];
    if (only != nullptr && only != spec) return nullptr;
    only = spec;
  }
  return only;
}

const FlagOverlay* FlagRegistry::overlay_for(std::span<const std::string> program_words) const {
  for (const auto& overlay : m_overlays) {
    for (const auto& w : program_words) {
      if (util::path_basename(w) == overlay.program) return &overlay;
    }
  }
  return nullptr;
}

bool FlagRegistry::env_is_behavioural(std::string_view name) const {
  if (std::find(m_env_ignored.begin(), m_env_ignored.end(), name) != m_env_ignored.end()) return false;
  return std::any_of(m_env_prefixes.begin(), m_env_prefixes.end(),
                     [&](const std::string& p) { return name.starts_with(p); });
}

namespace {

// Loads every data/flags/*.yaml, keeping the base registry of `d` and attaching its overlays.
Result<FlagRegistry> load_registry(Dialect d) {
  if (d == Dialect::generic) return FlagRegistry::empty(d);
  std::optional<FlagRegistry> base;
  std::vector<FlagOverlay> overlays;
  for (const auto& path : util::list_data_files("flags/")) {
    if (!path.ends_with(".yaml")) continue;
    auto text = util::read_data_file(path);
    if (!text) return std::unexpected(text.error());
    auto reg = FlagRegistry::parse(*text, path);
    if (!reg) return std::unexpected(reg.error());
    if (reg->dialect() != d) continue;
    if (reg->is_overlay()) {
      overlays.push_back(reg->overlay());
    } else if (base) {
      return util::failf(util::ErrorKind::bad_input, "{}: a second base registry for dialect {}", path, to_string(d));
    } else {
      base = std::move(*reg);
    }
  }
  if (!base) return util::failf(util::ErrorKind::bad_input, "no data/flags file for dialect {}", to_string(d));
  for (auto& o : overlays) base->add_overlay(std::move(o));
  return std::move(*base);
}

}  // namespace

util::Result<const FlagRegistry*> flag_registry(Dialect d) {
  static std::mutex mutex;
  static std::map<Dialect, Result<FlagRegistry>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(d);
  if (it == cache.end()) it = cache.emplace(d, load_registry(d)).first;
  if (!it->second) return std::unexpected(it->second.error());
  return &*it->second;
}

}  // namespace servebench::flags
