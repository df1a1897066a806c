#include "servebench/campaign/in_service.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/http/blocking_client.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

constexpr auto k_restore_poll = std::chrono::milliseconds(500);

std::string opt(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("unknown"); }
std::string text(const std::string& s) { return s.empty() ? std::string("unknown") : s; }

std::string speculative(const wire::ServerFacts& f) {
  if (!f.speculative) return "none";
  const auto& s = *f.speculative;
  return fmt::format("{} {}/{}/{}", s.algorithm, opt(s.num_steps), opt(s.eagle_topk), opt(s.num_draft_tokens));
}

}  // namespace

std::string_view to_string(RestoreCheck c) { return c == RestoreCheck::health ? "health" : "facts"; }

std::optional<InServiceSpec> read_in_service(util::YamlFields& arm) {
  const YAML::Node n = arm.node("in_service");
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  auto f = util::YamlFields::of(arm.file(), n, arm.what() + ".in_service");
  if (!f) {
    arm.note(f.error());
    return std::nullopt;
  }
  InServiceSpec spec;
  spec.url = f->required_string("url");
  if (!f->failed() && !spec.url.starts_with("http://")) {
    f->note_at(f->node("url"), fmt::format("{}.in_service.url must be an http:// URL of the in-service server", arm.what()));
  }
  const std::string check = f->string("restore_check", "facts");
  if (check == "health") spec.check = RestoreCheck::health;
  else if (check != "facts") f->note_at(f->node("restore_check"), "in_service.restore_check must be facts or health");
  const std::int64_t timeout = f->integer("restore_timeout_s", spec.restore_timeout.count());
  if (timeout < 1 || timeout > 24 * 3600) f->note_at(f->node("restore_timeout_s"), "in_service.restore_timeout_s must be in 1..86400");
  spec.restore_timeout = std::chrono::seconds(std::clamp<std::int64_t>(timeout, 1, 24 * 3600));
  if (auto ok = f->finish(); !ok) arm.note(ok.error());
  return spec;
}

results::ServiceSnapshot snapshot_service(engines::Engine engine, const std::string& url, const CampaignClock& clock) {
  results::ServiceSnapshot s;
  s.at = util::format_utc(clock.wall->now());
  auto client = http::BlockingClient::create(url);
  if (!client) {
    s.error = client.error().message;
    return s;
  }
  auto adapter = engines::make_adapter(engine, *clock.steady);
  auto health = adapter->health(**client);
  if (!health) {
    s.error = health.error().message;
    return s;
  }
  s.health_status = health->status;
  s.healthy = health->ready;
  if (!s.healthy) {
    s.error = fmt::format("/health answered {} {}", health->status, health->detail);
    return s;
  }
  auto facts = adapter->facts(**client);
  if (facts) {
    facts->raw_json.clear();  // the typed facts are what is compared; the raw bodies stay out of the record
    s.facts = std::move(*facts);
  } else {
    s.error = facts.error().message;
  }
  return s;
}

std::vector<std::string> restore_differences(const InServiceSpec& spec, const results::ServiceSnapshot& before,
                                             const results::ServiceSnapshot& after) {
  std::vector<std::string> out;
  if (!after.healthy) {
    out.push_back(fmt::format("not healthy after the after hook ({})", after.error.empty() ? "no answer" : after.error));
    return out;
  }
  if (spec.check != RestoreCheck::facts || !before.facts) return out;
  if (!after.facts) {
    out.push_back("facts unreadable after the after hook: " + after.error);
    return out;
  }
  const wire::ServerFacts& b = *before.facts;
  const wire::ServerFacts& a = *after.facts;
  const auto differ = [&](std::string_view what, const std::string& x, const std::string& y) {
    if (x != y) out.push_back(fmt::format("{} {} → {}", what, x, y));
  };
  differ("engine", text(b.engine), text(a.engine));
  differ("version", text(b.version), text(a.version));
  differ("model", text(b.model), text(a.model));
  differ("context_length", opt(b.context_length), opt(a.context_length));
  differ("kv_pool_tokens", opt(b.kv_pool_tokens), opt(a.kv_pool_tokens));
  differ("max_running_requests", opt(b.max_running_requests), opt(a.max_running_requests));
  differ("speculative", speculative(b), speculative(a));
  return out;
}

util::Result<void> InServiceCheck::before() {
  const InServiceSpec& spec = *m_arm.in_service;
  m_began = true;
  m_record = {m_arm.name, spec.url, std::string(to_string(spec.check)), std::nullopt, std::nullopt, std::nullopt, {}};
  if (auto earlier = results::read_in_service(m_path); earlier && *earlier && (*earlier)->before &&
                                                       (*earlier)->before->healthy && (*earlier)->restored != true &&
                                                       (*earlier)->url == spec.url) {
    m_record.before = (*earlier)->before;  // a session that died mid-arm: its snapshot is the service as it was
    fmt::print(m_console, "arm {}: in-service server {}: keeping the snapshot of {} (that session did not restore it)\n",
               m_arm.name, spec.url, m_record.before->at);
  } else {
    m_record.before = snapshot_service(m_arm.engine, spec.url, m_clock);
    if (!m_record.before->healthy) {
      m_began = false;
      return util::failf(util::ErrorKind::failed,
                         "arm '{}': the in-service server {} does not answer before the before hook ({}); nothing to "
                         "verify its restore against",
                         m_arm.name, spec.url, m_record.before->error);
    }
    const auto& f = m_record.before->facts;
    fmt::print(m_console, "arm {}: in-service server {} healthy{}\n", m_arm.name, spec.url,
               f ? fmt::format(" (model {}, max running requests {}, kv pool {})", text(f->model),
                               opt(f->max_running_requests), opt(f->kv_pool_tokens))
                 : "; facts unavailable: " + m_record.before->error);
  }
  std::fflush(m_console);
  return results::write_in_service(m_path, m_record);
}

void InServiceCheck::after() {
  if (!m_began) return;
  m_began = false;
  const InServiceSpec& spec = *m_arm.in_service;
  const auto deadline = m_clock.steady->now() + spec.restore_timeout;
  results::ServiceSnapshot now = snapshot_service(m_arm.engine, spec.url, m_clock);
  while (!now.healthy && m_clock.steady->now() < deadline) {
    engines::sleeping_pacer().pause(k_restore_poll);
    now = snapshot_service(m_arm.engine, spec.url, m_clock);
  }
  m_record.after = now;
  m_record.differences = restore_differences(spec, *m_record.before, now);
  m_record.restored = m_record.differences.empty();
  if (auto ok = results::write_in_service(m_path, m_record); !ok) {
    fmt::print(m_console, "arm {}: {}\n", m_arm.name, ok.error().message);
  }
  fmt::print(m_console, "arm {}: {}\n", m_arm.name, summary());
  std::fflush(m_console);
}

std::string InServiceCheck::summary() const {
  if (!m_record.restored) return fmt::format("in-service server {}: restore not checked", m_record.url);
  if (*m_record.restored) {
    return fmt::format("in-service server {} restored ({} identical)", m_record.url,
                       m_record.restore_check == "facts" && m_record.before->facts ? "health and facts" : "health");
  }
  return fmt::format("IN-SERVICE RESTORE FAILED: {} is not what it was: {}", m_record.url, util::join(m_record.differences, "; "));
}

}  // namespace servebench::campaign
