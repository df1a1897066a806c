#include "servebench/sim/step_printer.hpp"

#include <algorithm>
#include <string>

#include "servebench/util/strings.hpp"

namespace servebench::sim {

StepPrinter::StepPrinter(std::FILE* out, int decode_log_interval, const util::WallClock& wall)
    : m_out(out), m_interval(std::max(decode_log_interval, 1)), m_wall(&wall) {}

void StepPrinter::observe(std::span<const StepLog> logs, std::int64_t generated_total) {
  for (const StepLog& log : logs) {
    if (log.kind == BatchKind::prefill) {
      print(log);
      continue;
    }
    if (!m_window_open) {
      m_window_open = true;
      m_window_start = log.at;
      m_window_tokens = generated_total;
    }
    if (++m_decodes < m_interval) continue;
    m_decodes = 0;
    const double seconds = std::chrono::duration<double>(log.at - m_window_start).count();
    m_throughput = seconds > 0 ? static_cast<double>(generated_total - m_window_tokens) / seconds : 0;
    m_window_start = log.at;
    m_window_tokens = generated_total;
    StepLog shown = log;
    shown.gen_throughput = m_throughput;
    print(shown);
  }
}

// "[2026-11-29 15:00:00] <line>" like SGLang's logger (UTC here).
void StepPrinter::print(const StepLog& log) {
  if (m_out == nullptr) return;
  std::string stamp = util::format_utc(m_wall->now());  // 2026-11-29T15:00:00Z
  std::replace(stamp.begin(), stamp.end(), 'T', ' ');
  if (!stamp.empty() && stamp.back() == 'Z') stamp.pop_back();
  std::string out;
  const std::string text = format_step_log(log);
  for (const auto line : util::split(text, '\n')) out += "[" + stamp + "] " + std::string(line) + "\n";
  std::fwrite(out.data(), 1, out.size(), m_out);
  std::fflush(m_out);
}

}  // namespace servebench::sim
