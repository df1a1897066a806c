#pragma once
// Claiming a run directory: one campaign at a time (an advisory lock on DIR/.lock that the
// kernel drops if the process dies, even by kill -9), never another campaign's directory, and
// DIR/campaign.yaml rewritten with the resolved spec.
#include <filesystem>
#include <functional>
#include <memory>

#include "servebench/campaign/spec.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/result.hpp"

namespace servebench::campaign {

class RunDirectory {
 public:
  // Creates `dir` if needed and locks it. Fails (bad_input) when DIR/campaign.yaml names another
  // campaign or another campaign process holds the lock; (io) when it cannot be created.
  // `admit`, when given, runs under the lock before campaign.yaml is rewritten (the asset check):
  // its failure leaves the directory as it was.
  using Admit = std::function<util::Result<void>(const results::RunLayout&)>;
  static util::Result<RunDirectory> claim(const std::filesystem::path& dir, const CampaignSpec& spec, const Admit& admit = {});
  RunDirectory(RunDirectory&& other) noexcept;
  RunDirectory& operator=(RunDirectory&&) = delete;
  ~RunDirectory();

  const std::filesystem::path& path() const { return m_layout.dir(); }
  const results::RunLayout& layout() const { return m_layout; }
  std::filesystem::path ledger() const { return m_layout.ledger(); }

 private:
  RunDirectory(std::filesystem::path dir, int fd) : m_layout(std::move(dir)), m_lock_fd(fd) {}
  results::RunLayout m_layout;
  int m_lock_fd = -1;
};

// The campaign name in an existing DIR/campaign.yaml, or "" when there is none.
std::string existing_campaign_name(const std::filesystem::path& dir);

}  // namespace servebench::campaign
