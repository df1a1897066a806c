#include "servebench/util/clock.hpp"

#include <cstdio>
#include <ctime>
#include <string>

#include <fmt/format.h>

namespace servebench::util {

const Clock& steady_clock() {
  static const SteadyClock clock;
  return clock;
}

const WallClock& system_wall_clock() {
  static const WallClock clock;
  return clock;
}

std::string format_utc(WallTime t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
}

bool parse_utc(const std::string& text, WallTime& out) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return false;
  }
  std::size_t pos = static_cast<std::size_t>(consumed);
  double frac = 0;
  if (pos < text.size() && text[pos] == '.') {
    std::size_t end = pos + 1;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    frac = std::stod("0" + text.substr(pos, end - pos));
    pos = end;
  }
  if (pos != text.size() - 1 || text[pos] != 'Z') return false;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t secs = timegm(&tm);
  out = std::chrono::system_clock::from_time_t(secs) +
        std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(frac));
  return true;
}

}  // namespace servebench::util
