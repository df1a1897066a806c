#pragma once
// Launch-command normalization and the command fingerprint: the link between a recipe and its
// evidence. Two commands that run the same engine configuration fingerprint alike whatever their
// flag order, spelling (aliases, --flag=value), host/port or wrapper program (serve-sim).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/util/result.hpp"

namespace servebench::flags {

struct CommandFlag {
  std::string name;                  // canonical spelling (or verbatim when unknown)
  std::optional<std::string> value;  // none for switches; words of a many-valued flag joined by ' '
  friend bool operator==(const CommandFlag&, const CommandFlag&) = default;
};

struct EnvVar {
  std::string name, value;
  friend bool operator==(const EnvVar&, const EnvVar&) = default;
};

struct NormalizedCommand {
  Dialect dialect = Dialect::generic;
  std::vector<CommandFlag> flags;     // behavioural and unknown flags, stable-sorted by name
  std::vector<EnvVar> env;            // behavioural environment, sorted by name
  std::vector<std::string> unknown;   // names of kept flags the registry does not know (warn about them)
  std::vector<CommandFlag> dropped;   // non-behavioural and wrapper-only flags, in command order
  std::vector<EnvVar> dropped_env;    // environment that does not change behaviour
};

// Normalizes a launch command split into words (util::shell_split). Leading K=V words and `env`
// are environment; program words before the first flag are dropped, except a positional model
// (`vllm serve <model>`) which becomes the model flag; `serve-sim` selects the simulator overlay.
// Fails (bad_input) when a flag that needs a value ends the command, or the registry cannot load.
util::Result<NormalizedCommand> normalize(Dialect dialect, std::span<const std::string> words,
                                          std::span<const EnvVar> env = {});
// The same, for a command line (split with util::shell_split).
util::Result<NormalizedCommand> normalize_command(Dialect dialect, std::string_view command,
                                                  std::span<const EnvVar> env = {});

// The canonical text that is hashed (one item per line, documented in the .cpp):
//   servebench.command/1 \n dialect sglang \n env NAME=value ... \n flag --name[=value] ...
std::string canonical_text(const NormalizedCommand& command);
// "sha256:" + lowercase hex SHA-256 of canonical_text.
std::string fingerprint(const NormalizedCommand& command);
// normalize_command + fingerprint.
util::Result<std::string> fingerprint_command(Dialect dialect, std::string_view command,
                                              std::span<const EnvVar> env = {});

struct CommandChange {
  enum class Kind { added, removed, changed };
  enum class Scope { dialect, flag, env };
  Kind kind = Kind::changed;
  Scope scope = Scope::flag;
  std::string name;
  std::optional<std::string> before, after;  // values (repeated flags: joined with ", ")
  friend bool operator==(const CommandChange&, const CommandChange&) = default;
};

// What changed from `a` to `b`, sorted by scope then name.
std::vector<CommandChange> diff(const NormalizedCommand& a, const NormalizedCommand& b);
// "+ --ep-size 4", "- --speculative-adaptive", "~ --moe-runner-backend deep_gemm -> flashinfer_trtllm".
std::string to_string(const CommandChange& change);

// Kept flags whose value equals the engine default (lint: "--ep-size 1 is the default").
util::Result<std::vector<CommandFlag>> defaults_left_explicit(const NormalizedCommand& command);

}  // namespace servebench::flags
