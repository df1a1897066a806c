#include "servebench/campaign/live_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "servebench/campaign/status_file.hpp"
#include "servebench/util/redact.hpp"

namespace servebench::campaign {
namespace {

std::string thousands(std::int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::chrono::seconds whole_seconds(double s) { return std::chrono::seconds(static_cast<std::int64_t>(s)); }

std::size_t terminal_width(std::FILE* f) {
  winsize ws{};
  if (ioctl(util::stream_descriptor(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 120;
}

}  // namespace

std::string point_progress_text(const load::PhaseProgress& p) {
  const double s = util::to_seconds(p.elapsed);
  const double tok_s = s > 0 ? static_cast<double>(p.output_tokens) / s : 0.0;
  std::string text = fmt::format("{}/{} req · {} running", p.done, p.total, p.running);
  if (p.failed > 0) text += fmt::format(" · {} failed", p.failed);
  text += fmt::format(" · {} out tok/s · {} elapsed", thousands(static_cast<std::int64_t>(tok_s + 0.5)),
                      format_duration(whole_seconds(s)));
  if (p.done > 0 && p.done < p.total) {
    const double left = s * static_cast<double>(p.total - p.done) / static_cast<double>(p.done);
    text += " · ETA " + format_duration(whole_seconds(left));
  } else {
    text += p.done >= p.total && p.total > 0 ? " · ETA 0s" : " · ETA unknown";
  }
  return text;
}

std::string live_line(const PointPosition& at, const load::PhaseProgress& p) {
  std::string line = fmt::format("[{}/{}] {}  {}", at.number, at.total, at.id, point_progress_text(p));
  if (at.campaign_eta) line += " · campaign ETA " + format_duration(*at.campaign_eta);
  return line;
}

bool LiveProgress::is_terminal(std::FILE* f) {
  if (f == nullptr || isatty(util::stream_descriptor(f)) != 1) return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::string_view(term) != "dumb";
}

void LiveProgress::begin_point(PointPosition at) {
  clear();
  m_at = std::move(at);
  m_status.clear();
}

void LiveProgress::update(const load::PhaseProgress& p) {
  m_status = point_progress_text(p);
  if (!m_live) return;
  std::string line = live_line(m_at, p);
  const std::size_t width = terminal_width(m_console);
  // Cut to the terminal so the line never wraps (a wrapped line cannot be rewritten in place).
  if (width > 1 && line.size() >= width) {
    std::size_t cut = width - 1;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    line.resize(cut);
  }
  fmt::print(m_console, "\r\033[K{}", line);
  std::fflush(m_console);
  m_drawn = true;
}

void LiveProgress::clear() {
  if (!m_drawn) return;
  fmt::print(m_console, "\r\033[K");
  std::fflush(m_console);
  m_drawn = false;
}

void LiveProgress::end_point() {
  clear();
  m_at = {};
  m_status.clear();
}

}  // namespace servebench::campaign
