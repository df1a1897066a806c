#pragma once
// How commands plug into `servebench`: each command file adds a CLI11 subcommand and, when that
// subcommand is chosen, stores its runner in `selected`. Runners return an exit code; failures
// that end the command throw CommandError, which run() turns into a message and an exit code.
#include <functional>
#include <stdexcept>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "servebench/util/exit_code.hpp"
#include "servebench/util/result.hpp"

namespace servebench::cli {

using util::k_exit_bad_input;
using util::k_exit_measured_failure;
using util::k_exit_ok;
using util::k_exit_unreachable;

using CommandFn = std::function<int()>;

class CommandError : public std::runtime_error {
 public:
  CommandError(int exit_code, const std::string& message) : std::runtime_error(message), m_exit_code(exit_code) {}
  explicit CommandError(const util::Error& e) : CommandError(util::exit_code_for(e.kind), e.message) {}
  int exit_code() const { return m_exit_code; }

 private:
  int m_exit_code;
};

// The value of a Result, or throws CommandError with its message and the matching exit code.
template <class T>
T unwrap(util::Result<T> r) {
  if (!r) throw CommandError(r.error());
  if constexpr (!std::is_void_v<T>) return std::move(*r);
}

// A CLI11 check that the value is a number in [lo, hi]; unlike CLI::Range it rejects NaN (every
// comparison with NaN is false) and so also inf when hi is finite.
inline CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || !(v >= lo && v <= hi)) {
          return fmt::format("value {} is not a number in [{}, {}]", text, lo, hi);
        }
        return {};
      },
      fmt::format("NUMBER in [{}, {}]", lo, hi));
}

void add_serve_sim(CLI::App& app, CommandFn& selected);
void add_bench(CLI::App& app, CommandFn& selected);
void add_campaign(CLI::App& app, CommandFn& selected);
void add_plan(CLI::App& app, CommandFn& selected);
void add_recommend(CLI::App& app, CommandFn& selected);
void add_report(CLI::App& app, CommandFn& selected);
void add_recipe(CLI::App& app, CommandFn& selected);
void add_sim(CLI::App& app, CommandFn& selected);

}  // namespace servebench::cli
