#include "servebench/http/sse_decoder.hpp"

#include <cstring>

namespace servebench::http {
namespace {

constexpr std::size_t k_npos = std::string_view::npos;

// Index of the first '\r' or '\n' in `s`, or k_npos. Two memchr scans beat a byte loop: '\r' is
// rare, so the second scan is bounded by the first hit.
std::size_t find_line_end(std::string_view s) {
  const void* lf = std::memchr(s.data(), '\n', s.size());
  const std::size_t limit = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - s.data()) : s.size();
  if (const void* cr = std::memchr(s.data(), '\r', limit)) {
    return static_cast<std::size_t>(static_cast<const char*>(cr) - s.data());
  }
  return lf ? limit : k_npos;
}

}  // namespace

SseDecoder::SseDecoder(std::size_t max_event_bytes) : m_max_event_bytes(max_event_bytes) {}

std::optional<SseEvent> SseDecoder::next(std::string_view& bytes) {
  if (m_dispatched) {  // the caller is done with the previous event's views
    m_data.clear();
    m_type.clear();
    m_dispatched = false;
  }
  while (!bytes.empty() && !m_failed) {
    if (m_skip_lf) {
      m_skip_lf = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    const std::size_t end = find_line_end(bytes);
    if (end == k_npos) {  // the line continues in a later input
      if (grow_within_limit(bytes.size())) m_line.append(bytes);
      bytes = {};
      return std::nullopt;
    }
    std::string_view line = bytes.substr(0, end);
    // A whole line in this input counts against the limit as a line assembled from pieces does, so
    // where reads split the stream never changes whether the decoder fails.
    if (m_line.empty() && !grow_within_limit(end)) return std::nullopt;
    if (!m_line.empty()) {
      if (!grow_within_limit(end)) return std::nullopt;
      m_line.append(line);
      line = m_line;
    }
    std::size_t consumed = end + 1;
    if (bytes[end] == '\r') {
      if (end + 1 == bytes.size()) {
        m_skip_lf = true;
      } else if (bytes[end + 1] == '\n') {
        ++consumed;
      }
    }
    bytes.remove_prefix(consumed);
    const bool dispatch = process_line(line);
    m_line.clear();
    if (dispatch) {
      m_dispatched = true;
      return make_event();
    }
  }
  if (m_failed) bytes = {};  // a failed decoder swallows input, so pull loops end
  return std::nullopt;
}

bool SseDecoder::has_partial() const noexcept {
  return !m_line.empty() || (!m_dispatched && (!m_data.empty() || !m_type.empty()));
}

void SseDecoder::reset() noexcept {
  m_line.clear();
  m_data.clear();
  m_type.clear();
  m_id.clear();
  m_skip_lf = false;
  m_dispatched = false;
  m_failed = false;
}

bool SseDecoder::process_line(std::string_view line) {
  if (line.empty()) {
    if (!m_data.empty()) return true;
    m_type.clear();  // an event without data is discarded, type included
    return false;
  }
  if (line.front() == ':') return false;  // comment (often a keep-alive ping)
  const std::size_t colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != k_npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (m_data.size() + value.size() + 1 > m_max_event_bytes) {
      m_failed = true;
      return false;
    }
    m_data.append(value);
    m_data.push_back('\n');
  } else if (field == "event") {
    m_type.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == k_npos) m_id.assign(value);
  }
  return false;
}

bool SseDecoder::grow_within_limit(std::size_t extra) {
  if (m_line.size() + m_data.size() + extra > m_max_event_bytes) m_failed = true;
  return !m_failed;
}

SseEvent SseDecoder::make_event() {
  std::string_view data = m_data;
  data.remove_suffix(1);  // the spec drops the '\n' that follows the last data line
  return SseEvent{m_type, data, m_id};
}

}  // namespace servebench::http
