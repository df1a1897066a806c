#pragma once
// Where a point's prompts come from. `random-ids`: token ids with exact lengths, a fresh seed per
// (scenario, concurrency, repeat, attempt) — the same prompts for every arm, never the same within one.
// `corpus`: consecutive windows of a text file, each used once across the whole run directory: a
// point's windows are reserved by appending a cursor record (servebench.cursor/1) to the ledger and
// fsyncing it before they are sent, so a crash can waste windows but never reuse one. When the
// corpus runs out, windows are recycled only under cold cache + hit verification.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/spec.hpp"
#include "servebench/load/corpus.hpp"
#include "servebench/load/prompt.hpp"
#include "servebench/load/server_control.hpp"

namespace servebench::campaign {

struct PromptRequest {
  std::string arm, scenario;
  std::int64_t isl = 0, osl = 0, concurrency = 0, count = 0, warmup = 0;
  int attempt = 1;
  const ScenarioSpec* scenario_spec = nullptr;  // shared-prefix kinds are built from it (scenario_kind.hpp)
  std::optional<std::int64_t> repeat;           // under protocol.repeats: part of the seed and the cursor record
};

struct PointPrompts {
  std::vector<load::Prompt> measured, warmup;
  bool recycled = false;  // some corpus window was used before
  std::vector<util::Nanos> send_offsets;  // trace kind: when each measured prompt is due
};

class PromptSource {
 public:
  // random-ids needs nothing; corpus loads the file through the server's tokenizer (`control`)
  // and continues from the ledger's last cursor for that corpus. Fails (bad_input) when the
  // corpus cannot be read or tokenized.
  static util::Result<PromptSource> open(const ProtocolSpec& protocol, const std::filesystem::path& ledger,
                                         load::ServerControl& control);

  // The prompts of one attempt. Corpus windows are reserved durably first. Fails (bad_input)
  // when the corpus is exhausted and recycling is not allowed, (io) when the reservation cannot be
  // written.
  util::Result<PointPrompts> take(const PromptRequest& request, load::ServerControl& control);

  const std::optional<load::CorpusCursor>& cursor() const { return m_cursor; }

 private:
  PromptSource(const ProtocolSpec& protocol, std::filesystem::path ledger)
      : m_protocol(&protocol), m_ledger(std::move(ledger)) {}
  util::Result<PointPrompts> take_random(const PromptRequest& request, load::ServerControl& control) const;
  util::Result<PointPrompts> take_corpus(const PromptRequest& request);

  const ProtocolSpec* m_protocol;
  std::filesystem::path m_ledger;
  std::optional<load::Corpus> m_corpus;
  std::optional<load::CorpusCursor> m_cursor;
};

// The cursor the ledger's last servebench.cursor/1 record for `corpus_id` left; a fresh cursor
// when there is none.
load::CorpusCursor last_cursor(const std::vector<boost::json::object>& ledger_others, const std::string& corpus_id);

}  // namespace servebench::campaign
