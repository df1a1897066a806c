// ArmServer for a prefill/decode-disaggregated arm (pd_arm.hpp): every part is an ArmServer of its
// own — own process group, log and server-<part>.pid, own health wait within the arm's
// ready_timeout — started in order: prefill, decode, then the router with their URLs filled in.
// The arm is reached through the router; a part that does not come up stops the ones started.
#include <fmt/format.h>

#include "servebench/campaign/arm_server.hpp"
#include "servebench/campaign/pd_arm.hpp"

namespace servebench::campaign {

util::Result<std::unique_ptr<ArmServer>> ArmServer::start_parts(const ArmSpec& arm, const std::vector<ServerFiles>& files,
                                                                StopSignal& stop, const std::filesystem::path& self_exe,
                                                                const util::Clock& clock,
                                                                const std::vector<std::string>& launch_wrapper) {
  SB_CHECK(arm.pd && files.size() == std::size(k_pd_parts));
  std::unique_ptr<ArmServer> s(new ArmServer(arm, stop, clock));
  for (std::size_t i = 0; i < std::size(k_pd_parts); ++i) {
    const PdPart part = k_pd_parts[i];
    std::string router;
    if (part == PdPart::router) {
      router = substitute_part_urls(arm.pd->router, s->m_parts[0]->base_url(), s->m_parts[1]->base_url());
    }
    const ArmSpec& part_arm = s->m_part_arms.emplace_back(pd_part_arm(arm, part, router));
    auto server = ArmServer::start(part_arm, files[i], stop, self_exe, clock, launch_wrapper);
    if (!server) {
      return util::fail(server.error().kind, fmt::format("{} ({} part)", server.error().message, to_string(part)));
    }
    s->m_parts.push_back(std::move(*server));
  }
  const ArmServer& router = *s->m_parts.back();
  s->m_base_url = router.base_url();
  s->m_command = router.command();
  s->m_api_key = router.api_key();
  return s;
}

}  // namespace servebench::campaign
