#include "servebench/recipe/parallelism.hpp"

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

const flags::CommandFlag* find_flag(const flags::NormalizedCommand& command, const std::string& name) {
  if (name.empty()) return nullptr;
  const flags::CommandFlag* found = nullptr;
  for (const auto& f : command.flags) {
    if (f.name == name) found = &f;  // the last one wins, as in argparse
  }
  for (const auto& f : command.dropped) {
    if (found == nullptr && f.name == name) found = &f;
  }
  return found;
}

util::Result<void> read_degree(const flags::NormalizedCommand& command, const std::string& name, std::int64_t& out) {
  const flags::CommandFlag* f = find_flag(command, name);
  if (f == nullptr) return {};
  auto v = util::parse_int(f->value.value_or(""), name);
  if (!v || *v < 1) return util::failf(util::ErrorKind::bad_input, "{} must be a positive integer, got '{}'", name, f->value.value_or(""));
  out = *v;
  return {};
}

}  // namespace

util::Result<Parallelism> parallelism_of(const flags::NormalizedCommand& command, const ParallelismFlags& flags) {
  Parallelism p;
  for (auto [name, out] : {std::pair{&flags.tp, &p.tp}, {&flags.pp, &p.pp}, {&flags.dp, &p.dp}, {&flags.ep, &p.ep},
                           {&flags.nnodes, &p.nnodes}}) {
    if (auto r = read_degree(command, *name, *out); !r) return std::unexpected(r.error());
  }
  p.dp_attention = find_flag(command, flags.dp_attention) != nullptr;
  return p;
}

}  // namespace servebench::recipe
