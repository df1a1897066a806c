#pragma once
// The launch flags each engine accepts, as data (data/flags/*.yaml): canonical spelling, aliases,
// arity, engine default and whether the flag changes what is measured. Used to normalize launch
// commands (command.hpp) and by the cookbook linter ("flag unknown to the engine").
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

enum class FlagArity { none, one, many };  // switch · one value · words up to the next flag (nargs="+")

struct FlagSpec {
  std::string name;                          // canonical spelling, e.g. "--tp-size"
  std::vector<std::string> aliases;          // e.g. {"--tp"}
  FlagArity arity = FlagArity::one;
  std::optional<std::string> default_value;  // the engine default, as text (lint only)
  bool behavioural = true;                   // false: host, port, logging, keys, observability
  std::string group, arch, notes;
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
  // The spec for a flag word (canonical or alias, after underscore mapping); nullptr when unknown.
  const FlagSpec* find(std::string_view word) const;
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
  Dialect m_dialect = Dialect::generic;
  std::vector<FlagSpec> m_flags;
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
