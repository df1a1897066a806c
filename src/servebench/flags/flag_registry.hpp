#pragma once
// The launch flags each engine accepts, as data: canonical spelling, aliases, arity, value type,
// choices, engine default and whether the flag changes what is measured. An engine's own flag
// list (data/flags/<engine>.tsv, compiled in at build time; flag_list.hpp) or hand-written specs
// (data/flags/<engine>.yaml), plus what the list cannot say (behaviour, value ranges) from the
// YAML file. Used to normalize launch commands (command.hpp) and by the cookbook linter.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::flags {

// The command-line language of a launch command. The simulator speaks sglang.
enum class Dialect { sglang, vllm, llamacpp, trtllm, generic };
std::string_view to_string(Dialect d);
// "sglang" | "vllm" | "llamacpp" | "trtllm" | "generic"; fails (bad_input) naming the accepted words.
util::Result<Dialect> parse_dialect(std::string_view word);

// switch · one value · words up to the next flag (nargs="+") · zero or more words (nargs="?"/"*")
enum class FlagArity { none, one, many, optional };

// Bounds SGLang enforces on a number (min/max inclusive unless marked exclusive).
struct ValueRange {
  std::optional<double> min, max;
  bool min_exclusive = false, max_exclusive = false;
  std::string reason;
};

struct FlagSpec {
  std::string name;                          // canonical spelling, e.g. "--tp-size"
  std::vector<std::string> aliases;          // e.g. {"--tensor-parallel-size"}
  FlagArity arity = FlagArity::one;
  std::optional<std::string> default_value;  // the engine default, as text (lint only)
  bool behavioural = true;                   // false: host, port, logging, keys, observability
  std::string group, arch, notes;
  std::string type;                          // int, float, str, bool, json, list[int], …; "" unknown
  std::vector<std::string> choices;          // the values accepted; empty: any
  bool choices_computed = false;             // the parser adds choices the list cannot name: unchecked
  std::optional<ValueRange> range;
};

// Flags a wrapper program accepts on top of a dialect (serve-sim on sglang); always dropped.
struct FlagOverlay {
  std::string program;                // a program word selecting the overlay, e.g. "serve-sim"
  std::vector<std::string> prefixes;  // every flag starting with one of these belongs to the overlay
  std::vector<FlagSpec> flags;
  const FlagSpec* find(std::string_view word) const;
  bool owns(std::string_view word) const;  // listed or prefix-matched
};

class FlagRegistry {
 public:
  // Parses one data/flags file; errors name file:line:col (bad_input). Overlay files (with
  // `overlay_program`) parse into overlay(); attach them to their base with add_overlay().
  static util::Result<FlagRegistry> parse(const std::string& yaml_text, const std::string& file);
  // An empty registry: every flag is unknown, no environment variable counts.
  static FlagRegistry empty(Dialect d);

  Dialect dialect() const { return m_dialect; }
  const std::vector<FlagSpec>& flags() const { return m_flags; }
  // The spec for a flag word (canonical or alias, after underscore mapping; for an argparse engine
  // also a prefix that names one flag only, as argparse accepts it); nullptr when unknown.
  const FlagSpec* find(std::string_view word) const;
  // The same for exact spellings only.
  const FlagSpec* find_exact(std::string_view word) const;
  // The spelling used for lookup and output: vLLM maps '_' to '-' in flag names.
  std::string spelling(std::string_view word) const;
  // The overlay selected by the program words (basename match), or nullptr.
  const FlagOverlay* overlay_for(std::span<const std::string> program_words) const;
  // True when an environment variable can change the engine's behaviour (prefix list minus ignored).
  bool env_is_behavioural(std::string_view name) const;
  // Program words after which a positional model follows ("vllm serve <model>"), and its flag.
  const std::vector<std::string>& positional_after() const { return m_positional_after; }
  const std::string& positional_flag() const { return m_positional_flag; }

  bool is_overlay() const { return m_overlay.has_value(); }
  const FlagOverlay& overlay() const { return *m_overlay; }
  void add_overlay(FlagOverlay overlay) { m_overlays.push_back(std::move(overlay)); }

 private:
  void index();

  Dialect m_dialect = Dialect::generic;
  std::vector<FlagSpec> m_flags;
  std::map<std::string, std::size_t, std::less<>> m_by_spelling;  // name and aliases → m_flags index
  bool m_abbreviations = false;  // argparse's allow_abbrev
  std::vector<std::string> m_env_prefixes, m_env_ignored, m_positional_after;
  std::string m_positional_flag;
  bool m_underscore_as_dash = false;
  std::optional<FlagOverlay> m_overlay;  // set when this file is itself an overlay
  std::vector<FlagOverlay> m_overlays;
};

// The registry of a dialect from data/flags/*.yaml with its overlays, loaded once per process
// (thread-safe); fails naming the file when a data file is malformed or the dialect has none.
util::Result<const FlagRegistry*> flag_registry(Dialect d);

}  // namespace servebench::flags
