#pragma once
// The one place SSE framing is written (server side). Appends into a caller-owned buffer so a
// producer can reuse its capacity and frame many events into one socket write.
#include <string>
#include <string_view>

namespace servebench::http {

// Appends one event carrying `payload` as its data: "data: <payload>\n\n". A payload containing
// line breaks ("\n", "\r\n" or "\r") becomes one "data:" line per payload line, so any payload
// round-trips through SseDecoder (line breaks come back as '\n').
void append_sse_data(std::string& out, std::string_view payload);

// Appends the OpenAI stream terminator "data: [DONE]\n\n".
void append_sse_done(std::string& out);

}  // namespace servebench::http
