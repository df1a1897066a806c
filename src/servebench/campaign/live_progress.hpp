#pragma once
// Progress inside a point (docs/protocol.md "Progress"): on a terminal, one line rewritten in place
// with the point being measured — arm/scenario/concurrency, requests done/total, output tok/s,
// elapsed and ETA — and the matrix position with the campaign's ETA; elsewhere (CI, a pipe, or
// --no-progress) nothing until the point's line. The same text goes into status.txt, so
// `campaign status DIR` shows it from another terminal.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "servebench/load/phase.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::campaign {

struct PointPosition {
  std::string id;                    // "e7b/16k-512/c8"
  std::size_t number = 0, total = 0; // this point is number `number` of `total` this session
  std::optional<std::chrono::seconds> campaign_eta;  // the session's rest, this point included; nullopt: unknown yet
};

// "412/1000 req · 64 running · 8,976 out tok/s · 1m02s elapsed · ETA 41s".
std::string point_progress_text(const load::PhaseProgress& p);
// "[4/30] e7b/16k-512/c8  412/1000 req · … · ETA 41s · campaign ETA 12m05s".
std::string live_line(const PointPosition& at, const load::PhaseProgress& p);

class LiveProgress {
 public:
  // `live`: rewrite one line in place on `console` (a terminal).
  LiveProgress(std::FILE* console, bool live) : m_console(console), m_live(live) {}
  LiveProgress(const LiveProgress&) = delete;
  LiveProgress& operator=(const LiveProgress&) = delete;

  // True when `f` is a terminal (isatty) and TERM is not "dumb".
  static bool is_terminal(std::FILE* f);

  void begin_point(PointPosition at);
  // From the measured phase (about every 250 ms): redraws the line when live.
  void update(const load::PhaseProgress& p);
  // Erases the in-place line so a regular line can be printed; the point stays current.
  void clear();
  // The point ended: erase the line and forget it.
  void end_point();
  // The current point's progress for status.txt; "" before its measured phase starts.
  const std::string& status_text() const { return m_status; }
  bool live() const { return m_live; }

 private:
  std::FILE* m_console;
  bool m_live;
  bool m_drawn = false;
  PointPosition m_at;
  std::string m_status;
};

}  // namespace servebench::campaign
