#include "servebench/campaign/prompt_source.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/scenario_kind.hpp"
#include "servebench/load/synthetic_workload.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/sha256.hpp"

namespace servebench::campaign {
namespace {

using util::ErrorKind;

// A seed per (scenario, concurrency, repeat, attempt): stable across resumes and arms. A point that
// runs once hashes what it always did, so its prompts do not change with this version.
std::uint64_t point_seed(std::uint64_t base, const PromptRequest& r) {
  std::string key = fmt::format("{}/{}/c{}/a{}", base, r.scenario, r.concurrency, r.attempt);
  if (r.repeat) key += fmt::format("/r{}", *r.repeat);
  const std::string digest = util::sha256_hex(key);
  return std::stoull(digest.substr(0, 15), nullptr, 16);
}

}  // namespace

load::CorpusCursor last_cursor(const std::vector<boost::json::object>& others, const std::string& corpus_id) {
  load::CorpusCursor cursor{corpus_id, 0, 0};
  for (const auto& o : others) {
    auto c = load::cursor_from_json(o);
    if (c && c->corpus == corpus_id) cursor = *c;
  }
  return cursor;
}

util::Result<PromptSource> PromptSource::open(const ProtocolSpec& protocol, const std::filesystem::path& ledger,
                                              load::ServerControl& control) {
  PromptSource s(protocol, ledger);
  if (protocol.prompts.kind != PromptSourceKind::corpus) return s;
  load::TextCodec* codec = control.codec();
  if (codec == nullptr) return util::fail(ErrorKind::bad_input, "prompts from a corpus need the server's /tokenize");
  auto corpus = load::Corpus::load(protocol.prompts.path, *codec);
  if (!corpus) return std::unexpected(util::Error{ErrorKind::bad_input, corpus.error().message});
  auto read = results::read_ledger(ledger);
  if (!read) return std::unexpected(read.error());
  s.m_cursor = last_cursor(read->others, corpus->id());
  s.m_corpus.emplace(std::move(*corpus));
  return s;
}

util::Result<PointPrompts> PromptSource::take(const PromptRequest& request, load::ServerControl& control) {
  if (request.scenario_spec != nullptr && request.scenario_spec->kind != ScenarioKind::fixed) {
    return take_shaped(*request.scenario_spec, request, point_seed(m_protocol->request.seed, request), control);
  }
  if (m_corpus) return take_corpus(request);
  return take_random(request, control);
}

util::Result<PointPrompts> PromptSource::take_random(const PromptRequest& r, load::ServerControl& control) const {
  const auto vocab = control.vocabulary();
  if (!vocab) return util::fail(ErrorKind::bad_input, "the server reports no vocabulary for token-id prompts");
  load::RandomWorkload w{.pattern = load::IdPattern::sequential, .num_prompts = r.count + r.warmup,
                         .input_len = r.isl, .output_len = r.osl, .range_ratio = 1.0,
                         .seed = point_seed(m_protocol->request.seed, r)};
  auto all = load::make_random_prompts(w, *vocab);
  if (!all) return std::unexpected(all.error());
  PointPrompts p;
  p.warmup.assign(all->begin(), all->begin() + r.warmup);
  p.measured.assign(all->begin() + r.warmup, all->end());
  return p;
}

util::Result<PointPrompts> PromptSource::take_corpus(const PromptRequest& r) {
  load::CorpusCursor next = *m_cursor;
  auto take = m_corpus->take(next, r.count + r.warmup, r.isl, r.osl);
  if (!take) return std::unexpected(take.error());
  if (take->recycled && !m_protocol->verifies()) {
    return util::failf(ErrorKind::bad_input,
                       "corpus {} is used up ({} tokens, each window sent once); windows may be recycled only with "
                       "protocol.cold_cache and protocol.max_cache_hit_rate set — add text or turn verification on",
                       m_protocol->prompts.path.string(), m_corpus->size());
  }
  boost::json::object record = load::to_json(next);
  record["arm"] = r.arm;
  record["scenario"] = r.scenario;
  record["concurrency"] = r.concurrency;
  record["attempt"] = r.attempt;
  if (r.repeat) record["repeat"] = *r.repeat;
  record["from_offset"] = m_cursor->offset;
  record["from_passes"] = m_cursor->passes;
  record["windows"] = r.count + r.warmup;
  record["window_tokens"] = r.isl;
  if (auto ok = results::append_object(m_ledger, record); !ok) return std::unexpected(ok.error());
  m_cursor = next;
  PointPrompts p;
  p.recycled = take->recycled;
  auto& prompts = take->prompts;
  p.warmup.assign(prompts.begin(), prompts.begin() + r.warmup);
  p.measured.assign(prompts.begin() + r.warmup, prompts.end());
  return p;
}

}  // namespace servebench::campaign
