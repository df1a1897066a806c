#include "servebench/wire/chunk_parser.hpp"

#include <algorithm>
#include <string>

#include <boost/json/basic_parser_impl.hpp>
#include <fmt/format.h>

#include "servebench/util/strings.hpp"
#include "servebench/wire/chunk_handler.hpp"

// SAX (boost::json::basic_parser) rather than a DOM: bench/chunk_json.cpp measures both, and the
// SAX handler (chunk_handler.hpp) parses a typical chunk in about half the DOM's time.
namespace servebench::wire {

using chunk_sax::error_code;
using Handler = chunk_sax::Handler;

struct ChunkParser::Impl {
  boost::json::basic_parser<Handler> parser{boost::json::parse_options{}};
  std::int64_t prev_native = 0;     // last meta_info.completion_tokens
  std::int64_t prev_usage = 0;      // last usage.completion_tokens
  std::size_t prev_text_len = 0;    // cumulative /generate text already reported
  bool counting_decided = false;    // decided at the first token-bearing chunk
  bool counting_by_usage = false;   // continuous usage stats are on

  util::Result<void> run(std::string_view data, Chunk& out);
  void count_native(Chunk& out, bool stream);
  void count_openai(Chunk& out);
  void finish_error(Chunk& out);
};

util::Result<void> ChunkParser::Impl::run(std::string_view data, Chunk& out) {
  out = Chunk{};
  Handler& h = parser.handler();
  h.begin(out);
  parser.reset();
  error_code ec;
  parser.write_some(false, data.data(), data.size(), ec);
  if (ec || !parser.done()) {
    const std::string_view head = data.substr(0, 80);
    return util::failf(util::ErrorKind::failed, "response data is not JSON ({}): {}", ec.message(), head);
  }
  finish_error(out);
  return {};
}

void ChunkParser::Impl::finish_error(Chunk& out) {
  Handler& h = parser.handler();
  if (h.object_is_error && !out.error) out.error.emplace();
  if (!out.error) return;
  out.error->code = h.error_code_value;
  out.error->message = h.error_message;
}

// SGLang /generate: meta_info.completion_tokens is cumulative; so is text unless the server runs
// with --incremental-streaming-output, recognisable by output_ids being shorter than the count.
void ChunkParser::Impl::count_native(Chunk& out, bool stream) {
  Handler& h = parser.handler();
  const std::int64_t total = *out.meta->completion_tokens;
  out.finish = out.meta->finish;
  out.text = h.text;
  if (!stream) {
    out.tokens = total;
    out.source = TokenCountSource::response;
    out.token_bearing = total > 0 || !h.text.empty();
    return;
  }
  out.tokens = std::max<std::int64_t>(0, total - prev_native);
  prev_native = std::max(prev_native, total);
  out.token_bearing = out.tokens > 0;
  out.source = out.token_bearing ? TokenCountSource::native : TokenCountSource::none;
  const bool cumulative = h.output_ids == 0 || h.output_ids == total;
  if (cumulative) {
    out.text = std::string_view(h.text).substr(std::min(prev_text_len, h.text.size()));
    prev_text_len = std::max(prev_text_len, h.text.size());
  }
}

void ChunkParser::Impl::count_openai(Chunk& out) {
  Handler& h = parser.handler();
  out.text = h.text;
  out.token_bearing = !h.text.empty() || h.other_token_text || h.token_ids > 0;
  const std::optional<std::int64_t> total = out.usage ? out.usage->completion_tokens : std::nullopt;
  if (out.token_bearing) {
    if (!counting_decided) {
      counting_decided = true;
      counting_by_usage = total.has_value();
    }
    if (counting_by_usage && total) {
      out.tokens = std::max<std::int64_t>(0, *total - prev_usage);
      out.source = TokenCountSource::usage_delta;
    } else if (h.token_ids > 0) {
      out.tokens = h.token_ids;
      out.source = TokenCountSource::token_ids;
    } else {
      out.tokens = 1;
      out.source = TokenCountSource::assumed_one;
    }
  }
  if (total) prev_usage = std::max(prev_usage, *total);
}

ChunkParser::ChunkParser() : m_impl(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;

void ChunkParser::reset() {
  m_impl->prev_native = m_impl->prev_usage = 0;
  m_impl->prev_text_len = 0;
  m_impl->counting_decided = m_impl->counting_by_usage = false;
}

util::Result<void> ChunkParser::parse_event(std::string_view data, Chunk& out) {
  data = util::trim(data);
  if (data == "[DONE]") {
    out = Chunk{};
    out.done = true;
    return {};
  }
  if (auto ok = m_impl->run(data, out); !ok) return ok;
  if (out.meta && out.meta->completion_tokens) {
    m_impl->count_native(out, true);
  } else {
    m_impl->count_openai(out);
  }
  return {};
}

util::Result<void> ChunkParser::parse_response(std::string_view body, Chunk& out) {
  if (auto ok = m_impl->run(body, out); !ok) return ok;
  if (out.meta && out.meta->completion_tokens) {
    m_impl->count_native(out, false);
    return {};
  }
  const Handler& h = m_impl->parser.handler();
  out.text = h.text;
  out.token_bearing = !h.text.empty() || h.other_token_text || h.token_ids > 0;
  std::optional<std::int64_t> total = out.usage ? out.usage->completion_tokens : std::nullopt;
  if (!total && out.timings) total = out.timings->predicted_n;
  out.tokens = total.value_or(out.token_bearing ? std::max<std::int64_t>(1, h.token_ids) : 0);
  out.source = TokenCountSource::response;
  return {};
}

}  // namespace servebench::wire
