#pragma once
// The one way tests wait for state that offers no notification (a file appearing, a gauge
// changing, a process going away): poll the condition until it holds or the deadline passes.
// Never a sleep to synchronise; every wait is bounded.
#include <chrono>
#include <functional>
#include <thread>

namespace servebench::testing {

// Polls `condition` every `every` until it holds or `within` has passed; returns whether it held
// (it is checked once more at the deadline).
inline bool wait_until(const std::function<bool()>& condition,
                       std::chrono::milliseconds within = std::chrono::seconds(5),
                       std::chrono::milliseconds every = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return condition();
    std::this_thread::sleep_for(every);
  }
  return true;
}

}  // namespace servebench::testing
