#include "servebench/load/progress_line.hpp"

#include <fmt/format.h>

namespace servebench::load {

std::string progress_line(const PhaseProgress& p) {
  const double s = util::to_seconds(p.elapsed);
  const double tok_s = s > 0 ? static_cast<double>(p.output_tokens) / s : 0.0;
  std::string eta = "--:--";
  if (p.done > 0 && p.done < p.total) {
    const auto left = static_cast<std::int64_t>(s * static_cast<double>(p.total - p.done) / static_cast<double>(p.done));
    eta = fmt::format("{}:{:02}", left / 60, left % 60);
  } else if (p.done == p.total) {
    eta = "0:00";
  }
  std::string line = fmt::format("{:>6}/{} done · {} running", p.done, p.total, p.running);
  if (p.failed > 0) line += fmt::format(" · {} failed", p.failed);
  line += fmt::format(" · {:.0f} out tok/s · ETA {}", tok_s, eta);
  return line;
}

}  // namespace servebench::load
