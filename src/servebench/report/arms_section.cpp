// The arms: how each was launched and what the server reported about its capacity, plus the
// quality gate (report_builder.hpp).
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "servebench/report/number_format.hpp"
#include "servebench/report/report_builder.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

std::string text_or(const std::string& s) { return s.empty() ? std::string(k_not_recorded) : s; }

std::string count_or(const std::optional<std::int64_t>& v) {
  return v ? format_count(*v) : std::string(k_not_recorded);
}

// GPUs from the server facts, else the ledger's records of the arm.
std::optional<std::int64_t> arm_gpus(const CampaignSet& set, std::size_t arm) {
  if (set.arms[arm].facts.gpus) return set.arms[arm].facts.gpus;
  for (const auto& p : set.points) {
    if (p.arm == arm && p.record.gpus > 0) return p.record.gpus;
  }
  return std::nullopt;
}

std::string gate_cell(const GateResult& g) {
  const std::string verdict = gate_verdict(g);
  return g.probes.empty() ? verdict : fmt::format("{} ({})", verdict, g.probes);
}

// Arms whose gate ran a GSM8K-format file: their accuracy with its 95 % Wilson interval, each
// compared with the first such arm — a difference is stated only when the intervals separate.
void add_accuracy_comparison(const CampaignSet& set, Document& doc) {
  std::vector<const Arm*> with;
  for (const Arm& a : set.arms) {
    if (a.gate.accuracy) with.push_back(&a);
  }
  if (with.empty()) return;
  std::vector<std::string> items;
  const auto& ref = *with.front()->gate.accuracy;
  for (const Arm* a : with) {
    const auto& acc = *a->gate.accuracy;
    std::string item = fmt::format("{}: {}/{} = {:.2f} (95% Wilson {:.2f}–{:.2f}) on {}", a->display, acc.correct, acc.n,
                                   acc.accuracy, acc.low, acc.high, acc.dataset);
    if (a != with.front()) {
      const bool separate = acc.high < ref.low || ref.high < acc.low;
      item += separate ? fmt::format(" — {} than {} (the intervals separate)", acc.accuracy > ref.accuracy ? "higher" : "lower",
                                     with.front()->display)
                       : fmt::format(" — within noise of {} (the intervals overlap)", with.front()->display);
    }
    items.push_back(std::move(item));
  }
  doc.add(Paragraph{"Quality gate accuracy on a GSM8K-format file (greedy decoding, the gate's problems; a "
                    "difference between arms is stated only when their intervals separate):"});
  doc.add(BulletList{std::move(items)});
}

// The launch as the code block shows it: a disaggregated arm's parts one per line.
std::string launch_text(const ServerFacts& f) {
  if (f.parts.empty()) return text_or(f.launch);
  std::string out;
  for (const auto& [part, command] : f.parts) out += fmt::format("{}{}: {}", out.empty() ? "" : "\n", part, command);
  return out;
}

// What a disaggregated arm's TTFT holds, and the KV transfer's modelled time at the prompt lengths
// the arm was measured at (docs/report.md "Disaggregated arms").
std::string pd_text(const CampaignSet& set, std::size_t arm) {
  const Arm& a = set.arms[arm];
  std::string text = fmt::format(
      "{} is prefill/decode-disaggregated: its prefill, decode and router servers ran as one deployment, measured "
      "through the router, so its TTFT includes the router's hops, the prefill, the KV transfer to the decode "
      "server and the first decode step.", a.display);
  const auto& t = a.facts.kv_transfer;
  if (!t || !t->bytes_per_token_per_gpu || !t->link_gbs || !t->latency_us) {
    return text + " The KV transfer's time is not modelled here (a real engine: it is part of the measured TTFT).";
  }
  if (*t->link_gbs <= 0) {
    return text + fmt::format(" KV transfer: none (transfer backend {}: the same deployment without the transfer).",
                              t->backend);
  }
  std::set<std::int64_t> isls;
  for (const auto& p : set.points) {
    if (p.arm == arm) isls.insert(p.record.isl);
  }
  std::vector<std::string> per_prompt;
  for (const std::int64_t isl : isls) {
    per_prompt.push_back(fmt::format("{} ms for a {}-token prompt", format_fixed(*t->time_ms(static_cast<double>(isl)), 1),
                                     format_count(isl)));
  }
  return text + fmt::format(
                    " KV transfer (the simulator's model, backend {}): {} B per token of the whole model, {} B per "
                    "token to each decode GPU over {} GB/s, plus {} µs per transfer{}{} (on an idle link; transfers "
                    "into one decode server queue).",
                    t->backend, format_count(std::llround(t->bytes_per_token.value_or(0))),
                    format_count(std::llround(*t->bytes_per_token_per_gpu)), format_fixed(*t->link_gbs, 1),
                    format_fixed(*t->latency_us, 0), per_prompt.empty() ? "" : ": ", util::join(per_prompt, ", "));
}

}  // namespace

void add_arms_section(const CampaignSet& set, Document& doc) {
  doc.add(Heading{2, "Arms"});
  Table t{{"arm", "campaign", "GPUs", "KV pool tokens", "max running requests", "context length", "speculative",
           "quality gate"},
          {Align::left, Align::left, Align::right, Align::right, Align::right, Align::right, Align::left, Align::left},
          {}};
  for (std::size_t i = 0; i < set.arms.size(); ++i) {
    const Arm& a = set.arms[i];
    t.rows.push_back({a.display, set.runs[a.run].campaign_name(), count_or(arm_gpus(set, i)),
                      count_or(a.facts.kv_pool_tokens), count_or(a.facts.max_running_requests),
                      count_or(a.facts.context_length), text_or(a.facts.speculative), gate_cell(a.gate)});
  }
  doc.add(std::move(t));
  add_accuracy_comparison(set, doc);
  for (const Arm& a : set.arms) {
    doc.add(Paragraph{fmt::format("{}: fingerprint {}; launch command:", a.display, text_or(a.facts.fingerprint))});
    doc.add(CodeBlock{launch_text(a.facts)});
  }
  for (std::size_t i = 0; i < set.arms.size(); ++i) {
    if (!set.arms[i].facts.parts.empty()) doc.add(Paragraph{pd_text(set, i)});
  }
}

}  // namespace servebench::report
