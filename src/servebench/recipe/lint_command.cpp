#include "servebench/recipe/lint_command.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "servebench/flags/flag_values.hpp"
#include "servebench/recipe/parallelism.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using Findings = std::vector<CommandFinding>;

CommandFinding finding(std::string rule, Severity severity, std::string flag, std::string message, std::string context = "") {
  return {std::move(rule), severity, std::move(flag), std::move(message), std::move(context)};
}

flags::FlagSpec spec_of(const ExtraFlag& x) {
  flags::FlagSpec spec;
  spec.name = x.name;
  spec.aliases = x.aliases;
  spec.arity = x.takes_value ? flags::FlagArity::one : flags::FlagArity::none;
  spec.type = x.type;
  spec.choices = x.choices;
  return spec;
}

std::string_view rule_of(flags::ValueProblem::Kind k) {
  switch (k) {
    case flags::ValueProblem::Kind::choice: return "invalid-choice";
    case flags::ValueProblem::Kind::range: return "out-of-range";
    case flags::ValueProblem::Kind::type:
    case flags::ValueProblem::Kind::arity: return "invalid-type";
  }
  return "invalid-type";
}

// Values the engine's parser would refuse: the flag list's types and choices, the data's ranges,
// and the catalog's extra flags.
void value_checks(const CommandUnderLint& c, Findings& out) {
  auto registry = flags::flag_registry(c.catalog.engine);
  if (!registry) return;
  for (const auto* list : {&c.command.flags, &c.command.dropped}) {
    for (const auto& f : *list) {
      const flags::FlagSpec* spec = (*registry)->find(f.name);
      const ExtraFlag* extra = spec == nullptr ? c.catalog.extra_flag(f.name) : nullptr;
      if (spec == nullptr && extra == nullptr) continue;
      const auto problem = spec != nullptr ? flags::value_problem(*spec, f.value) : flags::value_problem(spec_of(*extra), f.value);
      if (problem) out.push_back(finding(std::string(rule_of(problem->kind)), Severity::error, f.name, problem->message));
    }
  }
}

void flag_checks(const CommandUnderLint& c, Findings& out) {
  const std::string engine(flags::to_string(c.catalog.engine));
  for (const auto& name : c.command.unknown) {
    if (c.catalog.extra_flag(name) != nullptr) continue;
    out.push_back(finding("unknown-flag", Severity::error, name,
                   fmt::format("not in the {} flag list; a flag of a newer release belongs in extra_flags with its version", engine)));
  }
  value_checks(c, out);
  std::map<std::string, std::vector<std::string>> seen;
  for (const auto* list : {&c.command.flags, &c.command.dropped}) {
    for (const auto& f : *list) seen[f.name].push_back(f.value.value_or("(switch)"));
  }
  for (const auto& [name, values] : seen) {
    if (values.size() < 2) continue;
    out.push_back(finding("duplicate-flag", Severity::error, name,
                   fmt::format("given {} times after overlays ({}); strip the earlier one", values.size(), util::join(values, ", "))));
  }
  if (auto defaults = flags::defaults_left_explicit(c.command)) {
    for (const auto& f : *defaults) {
      out.push_back(finding("redundant-default", Severity::warning, f.name,
                     fmt::format("{} {} is the engine default; leave it out", f.name, f.value.value_or(""))));
    }
  }
}

void arch_checks(const CommandUnderLint& c, const LintFacts& facts, Findings& out) {
  for (const auto& req : facts.requirements) {
    if (req.engine != c.catalog.engine || req.allows(c.gpu)) continue;
    for (const auto& f : c.command.flags) {
      const bool flag_hit = std::find(req.flags.begin(), req.flags.end(), f.name) != req.flags.end();
      if (!flag_hit || !f.value || std::find(req.values.begin(), req.values.end(), *f.value) == req.values.end()) continue;
      out.push_back(finding("arch-backend", Severity::error, f.name, fmt::format("{} {}: {}", f.name, *f.value, req.reason),
                     fmt::format("{} is sm_{} ({})", c.gpu.name, c.gpu.sm, c.gpu.family)));
    }
  }
}

void divisibility_checks(const CommandUnderLint& c, const Parallelism& p, const ParallelismFlags& pf,
                         std::int64_t multiple, Findings& out) {
  if (p.tp % p.ep != 0) out.push_back(finding("divisibility-ep", Severity::error, pf.ep, fmt::format("EP {} must divide TP {}", p.ep, p.tp)));
  if (p.dp_attention && p.tp % p.dp != 0) {
    out.push_back(finding("divisibility-dp", Severity::error, pf.dp, fmt::format("DP {} must divide TP {} with DP-attention", p.dp, p.tp)));
  }
  const ModelFacts& m = c.catalog.model.facts;
  if (m.moe_intermediate_size && p.tp % p.ep == 0) {
    const auto moe_tp = p.moe_tp();
    const auto size = *m.moe_intermediate_size;
    if (size % moe_tp != 0 || (size / moe_tp) % multiple != 0) {
      out.push_back(finding("divisibility-moe", Severity::error, pf.tp,
                     fmt::format("moe_intermediate_size {} / MoE-TP {} (TP {} / EP {}) = {:g}, not a multiple of {}", size,
                                 moe_tp, p.tp, p.ep, static_cast<double>(size) / static_cast<double>(moe_tp), multiple)));
    }
  }
  const auto attn_tp = p.attention_tp();
  if (m.attention_heads && *m.attention_heads % attn_tp != 0) {
    out.push_back(finding("divisibility-heads", Severity::error, pf.tp,
                   fmt::format("{} attention heads do not split evenly over attention-TP {}", *m.attention_heads, attn_tp)));
  }
  if (m.kv_heads && *m.kv_heads > 0) {
    const auto kv = *m.kv_heads;
    const bool even = kv >= attn_tp ? kv % attn_tp == 0 : attn_tp % kv == 0;
    if (!even) {
      out.push_back(finding("divisibility-kv-heads", Severity::error, pf.tp,
                     fmt::format("{} KV heads neither split nor replicate evenly over attention-TP {}", kv, attn_tp)));
    }
  }
}

void gpu_checks(const CommandUnderLint& c, const Parallelism& p, const ParallelismFlags& pf, Findings& out) {
  const std::int64_t have = static_cast<std::int64_t>(c.gpus_per_node) * c.nnodes;
  if (p.gpus() > have) {
    const std::string formula = p.dp_attention ? fmt::format("TP {} x PP {}", p.tp, p.pp)
                                               : fmt::format("TP {} x PP {} x DP {}", p.tp, p.pp, p.dp);
    out.push_back(finding("gpu-count", Severity::error, pf.tp, fmt::format("needs {} GPUs ({})", p.gpus(), formula),
                   fmt::format("{} has {} per node x {} node(s) = {}", c.gpu.name, c.gpus_per_node, c.nnodes, have)));
  }
  if (p.nnodes != c.nnodes) {
    out.push_back(finding("nnodes-mismatch", Severity::error, pf.nnodes,
                   fmt::format("{} {} but the selection runs on {} node(s)", pf.nnodes, p.nnodes, c.nnodes)));
  }
}

void conflict_checks(const CommandUnderLint& c, const EngineLintFacts& e, Findings& out) {
  const auto has = [&](const std::string& name) {
    return std::any_of(c.command.flags.begin(), c.command.flags.end(), [&](const auto& f) { return f.name == name; });
  };
  for (const auto& conflict : e.conflicts) {
    if (!std::all_of(conflict.flags.begin(), conflict.flags.end(), has)) continue;
    out.push_back(finding("conflict", conflict.severity, conflict.flags.back(),
                   fmt::format("{}: {} ({})", util::join(conflict.flags, " with "), conflict.reason, conflict.id)));
  }
}

}  // namespace

std::vector<CommandFinding> lint_command(const CommandUnderLint& c, const LintFacts& facts) {
  Findings out;
  flag_checks(c, out);
  arch_checks(c, facts, out);
  const EngineLintFacts* engine = facts.engine(c.catalog.engine);
  if (engine == nullptr) return out;
  auto p = parallelism_of(c.command, engine->parallelism);
  if (!p) {
    // A degree that is not a positive integer is already a value finding of its flag.
    const bool reported = std::any_of(out.begin(), out.end(), [](const CommandFinding& f) {
      return f.rule == "invalid-type" || f.rule == "out-of-range";
    });
    if (!reported) out.push_back(finding("parallelism", Severity::error, "", p.error().message));
    return out;
  }
  divisibility_checks(c, *p, engine->parallelism, facts.moe_intermediate_multiple, out);
  gpu_checks(c, *p, engine->parallelism, out);
  conflict_checks(c, *engine, out);
  return out;
}

}  // namespace servebench::recipe
