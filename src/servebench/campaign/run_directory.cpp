#include "servebench/campaign/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "servebench/results/run_files.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::campaign {

std::string existing_campaign_name(const std::filesystem::path& dir) {
  const results::RunLayout run(dir);
  auto text = results::read_campaign_file(run);
  if (!text || !*text) return "";
  auto doc = util::load_yaml_string(**text, run.campaign_file().string());
  if (!doc || !doc->root.IsMap()) return "";
  const YAML::Node name = doc->root["name"];
  return name && name.IsScalar() ? name.Scalar() : "";
}

util::Result<RunDirectory> RunDirectory::claim(const std::filesystem::path& dir, const CampaignSpec& spec,
                                               const Admit& admit) {
  if (auto ok = util::make_dirs(dir); !ok) return std::unexpected(ok.error());
  if (const std::string other = existing_campaign_name(dir); !other.empty() && other != spec.name) {
    return util::failf(util::ErrorKind::bad_input, "{} holds campaign '{}', not '{}'; choose another --out", dir.string(),
                       other, spec.name);
  }
  const auto lock = results::RunLayout(dir).lock();
  const int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return util::failf(util::ErrorKind::io, "cannot open {}: {}", lock.string(), std::strerror(errno));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    return util::failf(util::ErrorKind::bad_input, "another campaign is running in {} (it holds {})", dir.string(),
                       lock.string());
  }
  RunDirectory claimed(dir, fd);
  if (admit) {
    if (auto ok = admit(claimed.layout()); !ok) return std::unexpected(ok.error());
  }
  if (auto ok = results::write_campaign_file(claimed.layout(), resolved_yaml(spec)); !ok) return std::unexpected(ok.error());
  return claimed;
}

RunDirectory::RunDirectory(RunDirectory&& other) noexcept
    : m_layout(std::move(other.m_layout)), m_lock_fd(std::exchange(other.m_lock_fd, -1)) {}

RunDirectory::~RunDirectory() {
  if (m_lock_fd >= 0) close(m_lock_fd);
}

}  // namespace servebench::campaign
