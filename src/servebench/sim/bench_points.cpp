#include "servebench/sim/bench_points.hpp"

#include <cmath>

#include <fmt/format.h>

#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {

std::string quote_python_literals(std::string_view line) {
  std::string out;
  out.reserve(line.size() + 8);
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (in_string) {
      out += ch;
      if (ch == '\\' && i + 1 < line.size()) {
        out += line[++i];
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
      out += ch;
      continue;
    }
    bool replaced = false;
    for (const auto& [literal, text] : {std::pair{std::string_view("-Infinity"), "\"-inf\""},
                                        std::pair{std::string_view("Infinity"), "\"inf\""},
                                        std::pair{std::string_view("NaN"), "\"nan\""}}) {
      if (line.substr(i).starts_with(literal)) {
        out += text;
        i += literal.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += ch;
  }
  return out;
}

bool is_bench_results(std::string_view text) {
  for (const auto line : util::split(text, '\n')) {
    if (util::trim(line).empty()) continue;
    return line.find("\"mean_ttft_ms\"") != std::string_view::npos;
  }
  return false;
}

namespace {

// The first of `keys` the object holds as a number (the peers spell some metrics differently).
std::optional<double> number_of(const boost::json::object& o, std::initializer_list<std::string_view> keys) {
  for (const auto key : keys) {
    if (auto v = util::json_number(o, key)) return v;
  }
  return std::nullopt;
}

// A run with a finite request rate, or without a concurrency cap: the replay is a closed loop.
bool open_loop_run(const boost::json::object& o) {
  return util::json_number(o, "request_rate") || !util::json_int(o, "max_concurrency");
}

// One closed-loop line's point.
util::Result<MeasuredPoint> read_run(const boost::json::object& o, const std::string& where, const SimConfig& served_by,
                                     int gpus) {
  const auto bad = [&](std::string_view key, std::string_view why) {
    return util::failf(util::ErrorKind::bad_input, "{}: {}: {}", where, key, why);
  };
  const auto cap = util::json_int(o, "max_concurrency");
  if (*cap <= 0 || *cap > 100'000) return bad("max_concurrency", "must be in [1, 100000]");
  const auto completed = util::json_int(o, "completed");
  if (!completed || *completed <= 0) return bad("completed", "missing or 0: no request of this run finished");
  const auto in = util::json_number(o, "total_input_tokens"), out = util::json_number(o, "total_output_tokens");
  if (!in || !(*in > 0)) return bad("total_input_tokens", "missing or not > 0");
  if (!out || !(*out > 0)) return bad("total_output_tokens", "missing or not > 0");
  MeasuredPoint p;
  p.config = served_by;
  p.isl = std::max<std::int64_t>(1, std::llround(*in / static_cast<double>(*completed)));
  p.osl = std::max<std::int64_t>(1, std::llround(*out / static_cast<double>(*completed)));
  p.concurrency = static_cast<int>(*cap);
  const std::int64_t prompts = util::json_int(o, "num_prompts").value_or(*completed);
  if (prompts <= 0 || prompts > 100'000) return bad("num_prompts", "must be in [1, 100000]");
  p.num_prompts = static_cast<int>(prompts);
  p.ttft_ms = util::json_number(o, "mean_ttft_ms");
  p.tpot_ms = util::json_number(o, "mean_tpot_ms");
  p.output_tok_s = util::json_number(o, "output_throughput");
  const auto total = number_of(o, {"total_throughput", "total_token_throughput"});
  if (total && gpus > 0) p.total_tok_s_per_gpu = *total / gpus;
  p.accept_length = number_of(o, {"accept_length", "spec_decode_acceptance_length"});
  if (p.accept_length && !(*p.accept_length >= 1)) p.accept_length.reset();  // 0 / null: no speculation measured
  if (!p.ttft_ms && !p.tpot_ms && !p.output_tok_s) return bad("mean_ttft_ms", "no metric to compare in this run");
  const std::string tag = util::json_string(o, "tag").value_or(util::json_string(o, "label").value_or(""));
  p.label = fmt::format("{}→{} C{}{}{}", p.isl, p.osl, p.concurrency, tag.empty() ? "" : " ", tag);
  return p;
}

}  // namespace

util::Result<std::vector<MeasuredPoint>> parse_bench_points(const std::string& text, const std::string& file,
                                                            const SimConfig& served_by, int gpus) {
  const ServedBy fixed{served_by, gpus};
  return parse_bench_points(text, file, [&](const boost::json::object&, const std::string&) -> util::Result<ServedBy> {
    return fixed;
  });
}

util::Result<std::vector<MeasuredPoint>> parse_bench_points(const std::string& text, const std::string& file,
                                                            const ServedByLine& served_by) {
  std::vector<MeasuredPoint> points;
  int line_no = 0, open_loop = 0;
  for (const auto line : util::split(std::string_view(text), '\n')) {
    ++line_no;
    if (util::trim(line).empty()) continue;
    const std::string where = fmt::format("{}:{}", file, line_no);
    auto v = util::parse_json(quote_python_literals(line), where);
    if (!v) return std::unexpected(v.error());
    if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: expected a JSON object", where);
    if (open_loop_run(v->get_object())) {
      ++open_loop;
      continue;
    }
    auto served = served_by(v->get_object(), where);
    if (!served) return std::unexpected(served.error());
    auto p = read_run(v->get_object(), where, served->config, served->gpus);
    if (!p) return std::unexpected(p.error());
    p->source = fmt::format("{} line {}", file, line_no);
    points.push_back(std::move(*p));
  }
  if (points.empty()) {
    return util::failf(util::ErrorKind::bad_input,
                       "{}: no closed-loop run ({} open-loop: a finite request_rate or no max_concurrency); the "
                       "simulator replays closed loops only",
                       file, open_loop);
  }
  return points;
}

}  // namespace servebench::sim
