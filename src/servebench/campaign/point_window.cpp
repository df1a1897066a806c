#include "servebench/campaign/point_window.hpp"

#include "servebench/util/clock.hpp"

namespace servebench::campaign {
namespace {

constexpr std::chrono::seconds k_flush_deadline{120};

}  // namespace

template <class F>
auto PointWindow::timed(F&& f) {
  const auto t0 = m_clock.now();
  auto r = f();
  m_overhead += m_clock.now() - t0;
  return r;
}

util::Result<void> PointWindow::flush_cache() {
  if (m_flush == Flush::before_point) {
    auto ok = timed([&] {
      const auto deadline = m_clock.now() + k_flush_deadline;
      // Engines without an idle signal fail wait_idle; their flush retries while busy instead.
      (void)m_adapter.wait_idle(m_ex, deadline);
      return m_adapter.flush(m_ex, deadline);
    });
    if (!ok) return ok;
    m_flushed = true;
  }
  m_start = timed([&] { return m_adapter.snapshot(m_ex); });
  return {};
}

void PointWindow::begin_window() { m_measured_start = timed([&] { return m_adapter.snapshot(m_ex); }); }

load::CounterWindow PointWindow::end_window() {
  load::CounterWindow w;
  auto end = timed([&] { return m_adapter.snapshot(m_ex); });
  if (!end) {
    m_hit_error = end.error().message;
    return w;
  }
  if (!m_start || !*m_start) {
    m_hit_error = m_start ? m_start->error().message : "no counter snapshot before the point";
    return w;
  }
  if (auto hit = m_adapter.hit_rate(**m_start, *end)) {
    m_hit_rate = *hit;
    m_hit_error.clear();
  } else {
    m_hit_error = hit.error().message;
  }
  w.hit_rate = m_hit_rate;
  if (m_measured_start && *m_measured_start) w.accept_length = m_adapter.accept_length(**m_measured_start, *end);
  return w;
}

}  // namespace servebench::campaign
