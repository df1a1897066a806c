// SSE decoder: the bytes split at a fuzzer-chosen point (and fed one byte at a time) must give the
// same events as the bytes fed whole; a small event limit exercises the failed state.
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "servebench/http/sse_decoder.hpp"

namespace {

struct Decoded {
  std::vector<std::string> events;  // type '\0' data '\0' id
  bool failed = false;
};

template <class Feed>
Decoded decode(std::size_t limit, Feed&& feed) {
  servebench::http::SseDecoder decoder(limit);
  Decoded out;
  const auto on_event = [&](const servebench::http::SseEvent& e) {
    out.events.push_back(std::string(e.type) + '\0' + std::string(e.data) + '\0' + std::string(e.id));
  };
  feed([&](std::string_view bytes) { decoder.feed(bytes, on_event); });
  out.failed = decoder.failed();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const std::size_t limit = (in.take_byte() & 1) ? 64 : servebench::http::SseDecoder::k_default_max_event_bytes;
  const std::size_t split = in.take_byte();
  const std::string_view bytes = in.rest();
  const auto whole = decode(limit, [&](auto&& feed) { feed(bytes); });
  const auto halves = decode(limit, [&](auto&& feed) {
    const std::size_t at = std::min(split, bytes.size());
    feed(bytes.substr(0, at));
    feed(bytes.substr(at));
  });
  servebench::fuzz::expect(whole.failed == halves.failed, "failed state depends on the split");
  if (!whole.failed) servebench::fuzz::expect(whole.events == halves.events, "events depend on the split");
  if (bytes.size() <= 512) {
    const auto bytewise = decode(limit, [&](auto&& feed) {
      for (std::size_t i = 0; i < bytes.size(); ++i) feed(bytes.substr(i, 1));
    });
    if (!whole.failed) servebench::fuzz::expect(whole.events == bytewise.events, "events differ byte by byte");
  }
  return 0;
}
