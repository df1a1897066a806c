#pragma once
// The protocol's server-side steps around one attempt, placed where load::run calls its
// ServerControl: flush_cache() → wait for idle, flush (cold cache), snapshot the counters;
// warmup runs; begin_window() → snapshot again (acceptance length covers measured requests
// only); end_window() → final snapshot. The hit rate spans warmup + measured requests: every
// prompt the point sent must have missed the cache. Everything else passes through to `inner`.
#include <chrono>
#include <optional>
#include <string>

#include "servebench/engines/adapter.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/load/server_control.hpp"

namespace servebench::campaign {

enum class Flush { before_point, never };

class PointWindow final : public load::ServerControl {
 public:
  // `clock` times the protocol's calls and sets the flush deadline.
  PointWindow(load::ServerControl& inner, engines::EngineAdapter& adapter, http::Exchange& ex, Flush flush,
              const util::Clock& clock = util::steady_clock())
      : m_inner(inner), m_adapter(adapter), m_ex(ex), m_flush(flush), m_clock(clock) {}

  util::Result<void> check_health() override { return m_inner.check_health(); }
  util::Result<std::string> first_model() override { return m_inner.first_model(); }
  util::Result<void> flush_cache() override;
  void begin_window() override;
  load::CounterWindow end_window() override;
  boost::json::value server_info() override { return m_inner.server_info(); }
  boost::json::object facts() override { return m_inner.facts(); }
  std::optional<load::Vocabulary> vocabulary() override { return m_inner.vocabulary(); }
  load::TextCodec* codec() override { return m_inner.codec(); }

  bool flushed() const { return m_flushed; }
  // The hit rate over the attempt, or why it is unknown.
  const std::optional<double>& hit_rate() const { return m_hit_rate; }
  const std::string& hit_rate_error() const { return m_hit_error; }
  // Time spent in the protocol's own calls (idle wait, flush, three snapshots).
  std::chrono::nanoseconds overhead() const { return m_overhead; }

 private:
  template <class F>
  auto timed(F&& f);

  load::ServerControl& m_inner;
  engines::EngineAdapter& m_adapter;
  http::Exchange& m_ex;
  Flush m_flush;
  const util::Clock& m_clock;
  bool m_flushed = false;
  std::optional<util::Result<engines::Counters>> m_start, m_measured_start;
  std::optional<double> m_hit_rate;
  std::string m_hit_error = "the attempt did not run";
  std::chrono::nanoseconds m_overhead{0};
};

}  // namespace servebench::campaign
