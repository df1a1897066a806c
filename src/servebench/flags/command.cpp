#include "servebench/flags/command.hpp"

#include <algorithm>
#include <map>

#include "servebench/util/sha256.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::flags {
namespace {

using util::ErrorKind;
using util::Result;

bool is_env_word(std::string_view w) {
  const auto eq = w.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  for (std::size_t i = 0; i < eq; ++i) {
    const char c = w[i];
    const bool ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// "-1" and "-0.5" are values, not flags.
bool is_flag_word(std::string_view w) {
  if (w.size() < 2 || w[0] != '-') return false;
  return !util::parse_double(w, "").has_value();
}

// Walks the words of one command; owns the output while it is built.
class CommandReader {
 public:
  CommandReader(const FlagRegistry& registry, std::span<const std::string> words)
      : m_reg(registry), m_words(words) {}

  Result<NormalizedCommand> read(std::span<const EnvVar> env);

 private:
  std::size_t read_program(std::vector<EnvVar>& env);
  Result<std::optional<std::string>> take_value(std::size_t& i, FlagArity arity, std::string_view name);
  Result<void> read_flag(std::size_t& i);

  const FlagRegistry& m_reg;
  std::span<const std::string> m_words;
  const FlagOverlay* m_overlay = nullptr;
  NormalizedCommand m_out;
};

// Consumes environment and program words; returns the index of the first flag.
std::size_t CommandReader::read_program(std::vector<EnvVar>& env) {
  std::vector<std::string> program;
  std::size_t i = 0;
  for (; i < m_words.size(); ++i) {
    const std::string& w = m_words[i];
    if (is_flag_word(w)) {
      // `python3 -m sglang.launch_server`: the interpreter's -m and module are program words.
      if (w != "-m" || program.empty() || !util::path_basename(program.back()).starts_with("python")) break;
      program.push_back(w);
      if (i + 1 < m_words.size()) program.push_back(m_words[++i]);
      continue;
    }
    const bool only_env_so_far = std::all_of(program.begin(), program.end(), [](const auto& p) { return p == "env"; });
    if (only_env_so_far && is_env_word(w)) {
      const auto eq = w.find('=');
      env.push_back({w.substr(0, eq), w.substr(eq + 1)});
    } else {
      program.push_back(w);
    }
  }
  m_overlay = m_reg.overlay_for(program);
  const auto& after = m_reg.positional_after();
  for (std::size_t j = program.size(); j-- > 0;) {
    if (std::find(after.begin(), after.end(), util::path_basename(program[j])) == after.end()) continue;
    if (j + 1 < program.size()) m_out.flags.push_back({m_reg.positional_flag(), program[j + 1]});
    break;
  }
  return i;
}

Result<std::optional<std::string>> CommandReader::take_value(std::size_t& i, FlagArity arity, std::string_view name) {
  const bool next_is_value = i + 1 < m_words.size() && !is_flag_word(m_words[i + 1]);
  switch (arity) {
    case FlagArity::none: return std::nullopt;
    case FlagArity::one:
      if (i + 1 >= m_words.size()) return util::failf(ErrorKind::bad_input, "flag {} needs a value", name);
      return m_words[++i];
    case FlagArity::optional:
    case FlagArity::many: {
      if (!next_is_value && arity == FlagArity::optional) return std::nullopt;
      if (!next_is_value) return util::failf(ErrorKind::bad_input, "flag {} needs at least one value", name);
      std::string joined;
      while (i + 1 < m_words.size() && !is_flag_word(m_words[i + 1])) {
        if (!joined.empty()) joined.push_back(' ');
        joined += m_words[++i];
      }
      return joined;
    }
  }
  return std::nullopt;
}

Result<void> CommandReader::read_flag(std::size_t& i) {
  const std::string& word = m_words[i];
  if (!is_flag_word(word)) {  // a stray positional word: kept verbatim so it still counts
    m_out.flags.push_back({word, std::nullopt});
    m_out.unknown.push_back(word);
    return {};
  }
  const auto eq = word.find('=');
  const std::string raw = word.substr(0, eq);
  std::optional<std::string> inline_value;
  if (eq != std::string::npos) inline_value = word.substr(eq + 1);

  const bool overlay_owned = m_overlay != nullptr && m_overlay->owns(raw);
  const FlagSpec* spec = overlay_owned ? m_overlay->find(raw) : m_reg.find(raw);
  // Unknown flags take the next word as their value when it is not a flag.
  const bool next_is_value = i + 1 < m_words.size() && !is_flag_word(m_words[i + 1]);
  const FlagArity arity = spec ? spec->arity : (next_is_value ? FlagArity::one : FlagArity::none);
  std::optional<std::string> value = inline_value;
  if (!inline_value) {
    auto taken = take_value(i, arity, raw);
    if (!taken) return std::unexpected(taken.error());
    value = std::move(*taken);
  }
  if (overlay_owned) {
    m_out.dropped.push_back({spec ? spec->name : raw, value});
  } else if (spec == nullptr) {
    m_out.flags.push_back({raw, value});
    m_out.unknown.push_back(raw);
  } else if (!spec->behavioural) {
    m_out.dropped.push_back({spec->name, value});
  } else {
    m_out.flags.push_back({spec->name, value});
  }
  return {};
}

Result<NormalizedCommand> CommandReader::read(std::span<const EnvVar> env) {
  m_out.dialect = m_reg.dialect();
  std::vector<EnvVar> words_env;
  std::size_t i = read_program(words_env);
  for (; i < m_words.size(); ++i) {
    if (auto ok = read_flag(i); !ok) return std::unexpected(ok.error());
  }
  std::stable_sort(m_out.flags.begin(), m_out.flags.end(),
                   [](const CommandFlag& a, const CommandFlag& b) { return a.name < b.name; });
  // The command's own K=V prefix overrides the environment it is launched with.
  std::map<std::string, std::string> merged;
  for (const auto& e : env) merged[e.name] = e.value;
  for (const auto& e : words_env) merged[e.name] = e.value;
  for (const auto& [name, value] : merged) {
    (m_reg.env_is_behavioural(name) ? m_out.env : m_out.dropped_env).push_back({name, value});
  }
  return std::move(m_out);
}

void append_escaped(std::string& out, std::string_view s) {
  for (const char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
}

std::string display(const std::vector<std::optional<std::string>>& values) {
  std::vector<std::string> parts;
  for (const auto& v : values) parts.push_back(v.value_or(""));
  return util::join(parts, ", ");
}

template <class Item, class NameOf, class ValueOf>
std::map<std::string, std::vector<std::optional<std::string>>> group_by_name(const std::vector<Item>& items,
                                                                              NameOf name_of, ValueOf value_of) {
  std::map<std::string, std::vector<std::optional<std::string>>> out;
  for (const auto& item : items) out[name_of(item)].push_back(value_of(item));
  return out;
}

void diff_groups(const std::map<std::string, std::vector<std::optional<std::string>>>& a,
                 const std::map<std::string, std::vector<std::optional<std::string>>>& b, CommandChange::Scope scope,
                 std::vector<CommandChange>& out) {
  using Kind = CommandChange::Kind;
  const auto value_of = [](const auto& values) -> std::optional<std::string> {
    if (values.size() == 1) return values.front();
    return display(values);
  };
  for (const auto& [name, values] : a) {
    const auto it = b.find(name);
    if (it == b.end()) {
      out.push_back({Kind::removed, scope, name, value_of(values), std::nullopt});
    } else if (it->second != values) {
      out.push_back({Kind::changed, scope, name, display(values), display(it->second)});
    }
  }
  for (const auto& [name, values] : b) {
    if (!a.contains(name)) out.push_back({Kind::added, scope, name, std::nullopt, value_of(values)});
  }
}

}  // namespace

util::Result<NormalizedCommand> normalize(Dialect dialect, std::span<const std::string> words,
                                          std::span<const EnvVar> env) {
  auto registry = flag_registry(dialect);
  if (!registry) return std::unexpected(registry.error());
  return CommandReader(**registry, words).read(env);
}

util::Result<NormalizedCommand> normalize_command(Dialect dialect, std::string_view command,
                                                  std::span<const EnvVar> env) {
  auto words = util::shell_split(command);
  if (!words) return std::unexpected(words.error());
  return normalize(dialect, *words, env);
}

// Canonical text, version 1. One item per line, each line ending in '\n':
//   "servebench.command/1"
//   "dialect <sglang|vllm|llamacpp|trtllm|generic>"
//   "env <NAME>=<value>"            behavioural environment, sorted by name
//   "flag <name>" or "flag <name>=<value>"   kept flags, sorted by name, repeats in command order
// In values, '\' is written "\\" and a newline "\n". A switch has no '='; an empty value has one.
std::string canonical_text(const NormalizedCommand& command) {
  std::string out = "servebench.command/1\ndialect ";
  out += to_string(command.dialect);
  out.push_back('\n');
  for (const auto& e : command.env) {
    out += "env ";
    append_escaped(out, e.name);
    out.push_back('=');
    append_escaped(out, e.value);
    out.push_back('\n');
  }
  for (const auto& f : command.flags) {
    out += "flag ";
    append_escaped(out, f.name);
    if (f.value) {
      out.push_back('=');
      append_escaped(out, *f.value);
    }
    out.push_back('\n');
  }
  return out;
}

std::string fingerprint(const NormalizedCommand& command) {
  return "sha256:" + util::sha256_hex(canonical_text(command));
}

util::Result<std::string> fingerprint_command(Dialect dialect, std::string_view command,
                                              std::span<const EnvVar> env) {
  auto normalized = normalize_command(dialect, command, env);
  if (!normalized) return std::unexpected(normalized.error());
  return fingerprint(*normalized);
}

std::vector<CommandChange> diff(const NormalizedCommand& a, const NormalizedCommand& b) {
  std::vector<CommandChange> out;
  if (a.dialect != b.dialect) {
    out.push_back({CommandChange::Kind::changed, CommandChange::Scope::dialect, "dialect",
                   std::string(to_string(a.dialect)), std::string(to_string(b.dialect))});
  }
  const auto flag_name = [](const CommandFlag& f) { return f.name; };
  const auto flag_value = [](const CommandFlag& f) { return f.value; };
  diff_groups(group_by_name(a.flags, flag_name, flag_value), group_by_name(b.flags, flag_name, flag_value),
              CommandChange::Scope::flag, out);
  const auto env_name = [](const EnvVar& e) { return e.name; };
  const auto env_value = [](const EnvVar& e) { return std::optional<std::string>(e.value); };
  diff_groups(group_by_name(a.env, env_name, env_value), group_by_name(b.env, env_name, env_value),
              CommandChange::Scope::env, out);
  std::stable_sort(out.begin(), out.end(), [](const CommandChange& x, const CommandChange& y) {
    if (x.scope != y.scope) return x.scope < y.scope;
    return x.name < y.name;
  });
  return out;
}

std::string to_string(const CommandChange& change) {
  const char* sep = change.scope == CommandChange::Scope::env ? "=" : " ";
  const auto item = [&](const std::optional<std::string>& v) {
    return v ? fmt::format("{}{}{}", change.name, sep, *v) : change.name;
  };
  switch (change.kind) {
    case CommandChange::Kind::added: return "+ " + item(change.after);
    case CommandChange::Kind::removed: return "- " + item(change.before);
    case CommandChange::Kind::changed:
      return fmt::format("~ {} {} -> {}", change.name, change.before.value_or(""), change.after.value_or(""));
  }
  return {};
}

util::Result<std::vector<CommandFlag>> defaults_left_explicit(const NormalizedCommand& command) {
  auto registry = flag_registry(command.dialect);
  if (!registry) return std::unexpected(registry.error());
  std::vector<CommandFlag> out;
  for (const auto& f : command.flags) {
    const FlagSpec* spec = (*registry)->find(f.name);
    if (spec != nullptr && spec->default_value && f.value == spec->default_value) out.push_back(f);
  }
  return out;
}

}  // namespace servebench::flags
