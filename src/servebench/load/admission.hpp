#pragma once
// The concurrency cap of a load phase, shared by every event loop: admits due requests or queues them
// in order, and hands a queued request to whichever loop just finished one. Touched once per
// request, never per chunk.
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

namespace servebench::load {

class Admission {
 public:
  explicit Admission(std::optional<std::int64_t> cap) : m_cap(cap) {}
  // True: request i is admitted now (counted in flight); false: it is queued until a release().
  bool admit(std::uint32_t i) {
    std::lock_guard lock(m_mutex);
    if (!m_cap || m_in_flight < *m_cap) {
      ++m_in_flight;
      return true;
    }
    m_waiting.push_back(i);
    return false;
  }
  // A request ended: the next queued request takes its place (still counted in flight), if any.
  std::optional<std::uint32_t> release() {
    std::lock_guard lock(m_mutex);
    if (!m_waiting.empty()) {
      const std::uint32_t next = m_waiting.front();
      m_waiting.pop_front();
      return next;
    }
    --m_in_flight;
    return std::nullopt;
  }

 private:
  std::mutex m_mutex;
  std::optional<std::int64_t> m_cap;
  std::int64_t m_in_flight = 0;
  std::deque<std::uint32_t> m_waiting;
};

}  // namespace servebench::load
