#include "servebench/wire/wire_types.hpp"

namespace servebench::wire {

std::string_view to_string(FinishReason r) {
  switch (r) {
    case FinishReason::none: return "";
    case FinishReason::length: return "length";
    case FinishReason::stop: return "stop";
    case FinishReason::abort: return "abort";
    case FinishReason::tool_calls: return "tool_calls";
    case FinishReason::other: return "other";
  }
  return "";
}

FinishReason parse_finish_reason(std::string_view s) {
  if (s.empty()) return FinishReason::none;
  if (s == "length" || s == "limit") return FinishReason::length;
  if (s == "stop" || s == "eos" || s == "word") return FinishReason::stop;
  if (s == "abort") return FinishReason::abort;
  if (s == "tool_calls") return FinishReason::tool_calls;
  return FinishReason::other;
}

}  // namespace servebench::wire
