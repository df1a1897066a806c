#include "servebench/load/request_record.hpp"

namespace servebench::load {

std::string_view to_string(RequestError e) {
  switch (e) {
    case RequestError::none: return "none";
    case RequestError::http_status: return "http_status";
    case RequestError::connect_refused: return "connect_refused";
    case RequestError::reset: return "reset";
    case RequestError::timeout: return "timeout";
    case RequestError::malformed: return "malformed";
    case RequestError::cancelled: return "cancelled";
    case RequestError::no_tokens: return "no_tokens";
    case RequestError::stream_error: return "stream_error";
    case RequestError::stalled: return "stalled";
  }
  return "unknown";
}

}  // namespace servebench::load
