#pragma once
// Verified restore of an in-service server (docs/campaign-file.md `arms[].in_service`): its health
// and facts are read before the arm's `before` hook (which stops or renames it); after the `after`
// hook (which restores it) the campaign waits, bounded, for it to answer /health again, reads the
// facts again and compares. The outcome goes to arms/<arm>/in_service.json; a failed restore is
// loud — console, status.txt, exit status 1 and a banner in the report.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "servebench/campaign/campaign_clock.hpp"
#include "servebench/campaign/spec.hpp"
#include "servebench/results/in_service_file.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

// An arm's `in_service: {url, restore_check, restore_timeout_s}`; errors are noted on `arm`.
std::optional<InServiceSpec> read_in_service(util::YamlFields& arm);

// Health and facts of the server at `url` now, through the arm's engine adapter.
results::ServiceSnapshot snapshot_service(engines::Engine engine, const std::string& url, const CampaignClock& clock);

// Why `after` is not the service `before` was: health, then (restore_check facts) model, engine,
// version, context length, KV pool, max running requests and speculative settings. Empty: restored.
std::vector<std::string> restore_differences(const InServiceSpec& spec, const results::ServiceSnapshot& before,
                                             const results::ServiceSnapshot& after);

class InServiceCheck {
 public:
  InServiceCheck(const ArmSpec& arm, std::filesystem::path record, CampaignClock clock, std::FILE* console)
      : m_arm(arm), m_path(std::move(record)), m_clock(clock), m_console(console) {}

  // Before the `before` hook. A record of an earlier session whose restore is still open keeps its
  // `before` (the service may be stopped now because that session died mid-arm). Fails (failed)
  // when the service does not answer and there is no earlier snapshot: there would be nothing to
  // verify the restore against.
  util::Result<void> before();
  // After the `after` hook: waits up to restore_timeout_s for /health, compares, records.
  void after();
  // Set by after(): false when the restore failed.
  std::optional<bool> restored() const { return m_record.restored; }
  // "in-service server http://… not restored: max_running_requests 32 → 16".
  std::string summary() const;

 private:
  const ArmSpec& m_arm;
  std::filesystem::path m_path;
  CampaignClock m_clock;
  std::FILE* m_console;
  results::InServiceRecord m_record;
  bool m_began = false;
};

}  // namespace servebench::campaign
