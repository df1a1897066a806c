#include "servebench/load/trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::load {
namespace {

using util::ErrorKind;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer: a different stream per hash id
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The tokens of block `hash`: its first token is the hash's own ordinary id (distinct for distinct
// ids below the vocabulary's size, so two different blocks never start alike), the rest seeded.
std::vector<std::int32_t> block_tokens(std::int64_t hash, std::int64_t size, const Vocabulary& vocab, std::uint64_t seed) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(size));
  std::mt19937_64 rng(mix(seed ^ mix(static_cast<std::uint64_t>(hash))));
  const auto count = static_cast<std::uint64_t>(vocab.ordinary_count());
  out[0] = vocab.ordinary(static_cast<std::int32_t>(static_cast<std::uint64_t>(hash) % count));
  for (std::size_t i = 1; i < out.size(); ++i) out[i] = vocab.draw(rng);
  return out;
}

std::optional<std::int64_t> int_of(const boost::json::object& o, std::string_view key) { return util::json_int(o, key); }

}  // namespace

util::Result<std::vector<TraceRequest>> read_trace(const std::filesystem::path& file, const TraceOptions& o) {
  if (o.block_size < 1) return util::fail(ErrorKind::bad_input, "the trace block size must be >= 1");
  if (!(o.time_scale >= 0) || !std::isfinite(o.time_scale)) {
    return util::fail(ErrorKind::bad_input, "the trace time scale must be a finite number >= 0");
  }
  auto text = util::read_file(file);
  if (!text) return util::failf(ErrorKind::bad_input, "trace: {}", text.error().message);
  std::vector<TraceRequest> out;
  std::size_t line_no = 0;
  double last = 0;
  for (const auto line : util::split(*text, '\n')) {
    ++line_no;
    if (o.max_requests && std::ssize(out) >= *o.max_requests) break;
    if (util::trim(line).empty()) continue;
    const std::string where = fmt::format("{}:{}", file.string(), line_no);
    auto v = util::parse_json(line, where);
    const auto* obj = v ? v->if_object() : nullptr;
    const auto ts = obj ? util::json_number(*obj, "timestamp") : std::nullopt;
    const auto in = obj ? int_of(*obj, "input_length") : std::nullopt;
    const auto outlen = obj ? int_of(*obj, "output_length") : std::nullopt;
    const auto* ids = obj ? obj->if_contains("hash_ids") : nullptr;
    if (!ts || !in || !outlen || ids == nullptr || !ids->is_array()) {
      return util::failf(ErrorKind::bad_input, "{}: a trace line needs timestamp (ms), input_length, output_length and "
                                               "hash_ids (a list of integers)", where);
    }
    if (*in < 1 || *outlen < 1 || *ts < 0) {
      return util::failf(ErrorKind::bad_input, "{}: lengths must be >= 1 and the timestamp >= 0", where);
    }
    if (*ts < last) return util::failf(ErrorKind::bad_input, "{}: timestamps must not go back ({} after {})", where, *ts, last);
    if (o.max_duration_s && *ts > *o.max_duration_s * 1000.0) break;
    last = *ts;
    TraceRequest r;
    r.timestamp_ms = *ts;
    r.input_length = o.max_input_len ? std::min(*in, *o.max_input_len) : *in;
    r.output_length = o.max_output_len ? std::min(*outlen, *o.max_output_len) : *outlen;
    for (const auto& id : ids->get_array()) {
      if (!id.is_int64() && !id.is_uint64()) return util::failf(ErrorKind::bad_input, "{}: hash_ids must be integers", where);
      r.hash_ids.push_back(id.is_int64() ? id.get_int64() : static_cast<std::int64_t>(id.get_uint64()));
    }
    out.push_back(std::move(r));
  }
  if (out.empty()) return util::failf(ErrorKind::bad_input, "trace {} has no request (after truncation)", file.string());
  return out;
}

double trace_sharing(const std::vector<TraceRequest>& trace, const TraceOptions& o) {
  // Per block path (the hash ids up to and including it), the most tokens of that block an
  // earlier request sent.
  std::map<std::vector<std::int64_t>, std::int64_t> seen;
  double prompt_tokens = 0, cached_tokens = 0;
  for (const auto& r : trace) {
    std::vector<std::int64_t> path;
    std::int64_t have = 0;
    bool sharing = true;
    for (const auto hash : r.hash_ids) {
      if (have >= r.input_length) break;
      const std::int64_t take = std::min(o.block_size, r.input_length - have);
      have += take;
      path.push_back(hash);
      auto& most = seen[path];
      if (sharing) {
        cached_tokens += static_cast<double>(std::min(most, take));
        sharing = most >= take;
      }
      most = std::max(most, take);
    }
    prompt_tokens += static_cast<double>(r.input_length);
  }
  return prompt_tokens > 0 ? cached_tokens / prompt_tokens : 0;
}

util::Result<TracePrompts> trace_prompts(const std::vector<TraceRequest>& trace, const TraceOptions& o,
                                         const Vocabulary& vocab, std::uint64_t seed) {
  TracePrompts out;
  std::mt19937_64 tail_rng(mix(seed ^ 0x7261636555ULL));
  for (const auto& r : trace) {
    Prompt p;
    p.input_tokens = r.input_length;
    p.output_tokens = r.output_length;
    for (const auto hash : r.hash_ids) {
      const std::int64_t have = std::ssize(p.ids);
      if (have >= r.input_length) break;
      const std::int64_t take = std::min(o.block_size, r.input_length - have);
      const auto block = block_tokens(hash, o.block_size, vocab, seed);
      p.ids.insert(p.ids.end(), block.begin(), block.begin() + take);
    }
    // Tokens beyond the blocks are the request's own.
    while (std::ssize(p.ids) < r.input_length) p.ids.push_back(vocab.draw(tail_rng));
    out.offsets.push_back(std::chrono::duration_cast<util::Nanos>(
        std::chrono::duration<double, std::milli>(r.timestamp_ms * o.time_scale)));
    out.prompts.push_back(std::move(p));
  }
  out.expected_hit_rate = trace_sharing(trace, o);
  return out;
}

}  // namespace servebench::load
