#include "servebench/campaign/gate.hpp"

#include <algorithm>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/gsm8k.hpp"
#include "servebench/campaign/word_problems.hpp"
#include "servebench/stats/intervals.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/chunk_parser.hpp"

namespace servebench::campaign {
namespace {

namespace json = boost::json;

constexpr std::chrono::milliseconds k_probe_timeout{300'000};
constexpr std::string_view k_tool_name = "get_weather";
constexpr std::string_view k_identity_prompt = "Write two sentences about the sea at dawn.";
constexpr std::int64_t k_identity_tokens = 64;  // enough to see a divergence, cheap on a slow server

struct Reply {
  std::string text, body;
  wire::FinishReason finish = wire::FinishReason::none;
};

// One non-streaming chat request at temperature 0; fails naming the HTTP status or parse error.
util::Result<Reply> ask(const ArmSpec& arm, http::Exchange& ex, const std::string& model, std::string prompt,
                        std::int64_t max_tokens, std::string extra_body = {}) {
  wire::GenerationRequest g;
  g.prompt = std::vector<wire::ChatMessage>{{"user", std::move(prompt)}};
  g.model = model;
  g.max_tokens = max_tokens;
  g.temperature = 0.0;
  g.seed = arm.gate.seed;
  g.stream = false;
  g.extra_body = std::move(extra_body);
  const wire::Backend backend = backend_of(arm, RequestApi::chat);
  http::Request request;
  request.method = http::Method::post;
  request.target = std::string(wire::path_of(wire::route_of(backend)));
  if (auto ok = wire::build_request_body(backend, g, request.body); !ok) return std::unexpected(ok.error());
  auto r = ex.send(request, k_probe_timeout);
  if (!r) return std::unexpected(r.error());
  if (r->status != 200) {
    return util::failf(util::ErrorKind::failed, "POST {} answered HTTP {}: {}", request.target, r->status,
                       r->body.substr(0, 200));
  }
  wire::ChunkParser parser;
  wire::Chunk chunk;
  if (auto ok = parser.parse_response(r->body, chunk); !ok) return std::unexpected(ok.error());
  if (chunk.error) return util::failf(util::ErrorKind::failed, "the server answered an error: {}", chunk.error->message);
  return Reply{std::string(chunk.text), std::move(r->body), chunk.finish};
}

// The built-in problems, or the first gate.problems of gate.dataset (GSM8K format: the probe is then
// "gsm8k" and records the Wilson interval of its accuracy).
ProbeResult arithmetic_probe(const ArmSpec& arm, http::Exchange& ex, const std::string& model) {
  ProbeResult p;
  p.name = arm.gate.dataset.empty() ? "arithmetic" : "gsm8k";
  std::vector<WordProblem> problems;
  if (arm.gate.dataset.empty()) {
    problems = make_word_problems(static_cast<std::size_t>(arm.gate.problems), arm.gate.seed);
  } else {
    p.dataset = arm.gate.dataset.filename().string();
    auto loaded = load_gsm8k(arm.gate.dataset, static_cast<std::size_t>(arm.gate.problems));
    if (!loaded) {
      p.detail = loaded.error().message;
      return p;
    }
    problems = std::move(*loaded);
  }
  std::int64_t stops = 0;
  std::vector<std::string> wrong;
  for (const auto& problem : problems) {
    auto reply = ask(arm, ex, model, std::string(word_problem_instruction()) + problem.text, arm.gate.max_tokens);
    ++p.n;
    if (!reply) {
      p.detail = fmt::format("request failed: {}", reply.error().message);
      return p;
    }
    stops += reply->finish == wire::FinishReason::stop ? 1 : 0;
    if (parse_answer(reply->text) == problem.answer) ++p.correct;
    else if (wrong.size() < 2) wrong.push_back(fmt::format("expected {}, got \"{}\"", problem.answer, reply->text.substr(0, 80)));
  }
  p.accuracy = static_cast<double>(p.correct) / static_cast<double>(p.n);
  if (!arm.gate.dataset.empty()) {
    const stats::Interval w = stats::wilson(p.correct, p.n);
    p.wilson_low = w.low;
    p.wilson_high = w.high;
  }
  p.natural_stop_rate = static_cast<double>(stops) / static_cast<double>(p.n);
  p.passed = p.accuracy >= arm.gate.min_accuracy && p.natural_stop_rate >= arm.gate.min_natural_stop_rate;
  if (!p.passed) {
    p.detail = fmt::format("accuracy {:.3g} (min {}), natural stop rate {:.3g} (min {}){}{}", p.accuracy,
                           arm.gate.min_accuracy, p.natural_stop_rate, arm.gate.min_natural_stop_rate,
                           wrong.empty() ? "" : "; ", util::join(wrong, "; "));
  }
  return p;
}

ProbeResult identity_probe(const ArmSpec& arm, http::Exchange& ex, const std::string& model) {
  ProbeResult p;
  p.name = "greedy_identity";
  std::vector<std::string> texts;
  for (int i = 0; i < 3; ++i) {
    auto reply = ask(arm, ex, model, std::string(k_identity_prompt), std::min(k_identity_tokens, arm.gate.max_tokens));
    ++p.n;
    if (!reply) {
      p.detail = fmt::format("request failed: {}", reply.error().message);
      return p;
    }
    texts.push_back(std::move(reply->text));
  }
  p.identical = texts[0] == texts[1] && texts[1] == texts[2] && !texts[0].empty();
  p.passed = *p.identical;
  if (!p.passed) p.detail = texts[0].empty() ? "empty replies" : "three greedy replies to one prompt differ";
  return p;
}

bool declares_tool_parser(const ArmSpec& arm) {
  const std::string launch = arm.pd ? arm.pd->decode : arm.launch.value_or("");  // a PD arm's generating part
  return launch.find("--tool-call-parser") != std::string::npos || launch.find("--jinja") != std::string::npos;
}

std::string tools_body() {
  json::object params{{"type", "object"},
                      {"properties", json::object{{"city", json::object{{"type", "string"}}}}},
                      {"required", json::array{"city"}}};
  json::object fn{{"name", k_tool_name}, {"description", "Get the current weather in a city"}, {"parameters", params}};
  return util::to_json_text(json::object{{"tools", json::array{json::object{{"type", "function"}, {"function", fn}}}},
                                         {"tool_choice", "auto"}});
}

// The function names of the reply's tool calls (choices[0].message.tool_calls[].function.name).
std::vector<std::string> called_functions(const std::string& body) {
  std::vector<std::string> names;
  auto v = util::parse_json(body, "tool reply");
  const auto* o = v ? v->if_object() : nullptr;
  const auto* choices = o ? o->if_contains("choices") : nullptr;
  if (choices == nullptr || !choices->is_array() || choices->get_array().empty()) return names;
  const auto* choice = choices->get_array()[0].if_object();
  const auto* message = choice ? choice->if_contains("message") : nullptr;
  const auto* calls = message && message->is_object() ? message->get_object().if_contains("tool_calls") : nullptr;
  if (calls == nullptr || !calls->is_array()) return names;
  for (const auto& call : calls->get_array()) {
    const auto* fn = call.is_object() ? call.get_object().if_contains("function") : nullptr;
    if (fn == nullptr || !fn->is_object()) continue;
    if (auto name = util::json_string(fn->get_object(), "name")) names.push_back(*name);
  }
  return names;
}

ProbeResult tool_probe(const ArmSpec& arm, http::Exchange& ex, const std::string& model) {
  ProbeResult p;
  p.name = "tool_call";
  const bool run = arm.gate.tool_call == ToolCallProbe::on ||
                   (arm.gate.tool_call == ToolCallProbe::when_declared && declares_tool_parser(arm));
  if (!run) {
    p.skipped = p.passed = true;
    p.detail = "the launch declares no tool-call parser";
    return p;
  }
  p.n = 1;
  auto reply = ask(arm, ex, model, "What is the weather in Paris right now? Use the tool.", arm.gate.max_tokens, tools_body());
  if (!reply) {
    p.detail = fmt::format("request failed: {}", reply.error().message);
    return p;
  }
  const auto called = called_functions(reply->body);
  const bool named = std::find(called.begin(), called.end(), k_tool_name) != called.end();
  p.passed = reply->finish == wire::FinishReason::tool_calls && named;
  p.correct = p.passed ? 1 : 0;
  if (!p.passed) {
    p.detail = fmt::format("expected a call of {} with finish_reason tool_calls, got finish_reason '{}'{}", k_tool_name,
                           wire::to_string(reply->finish),
                           called.empty() ? "" : fmt::format(" and called {}", util::join(called, ", ")));
  }
  return p;
}

}  // namespace

GateResult run_gate(const ArmSpec& arm, http::Exchange& ex, const std::string& model) {
  GateResult g;
  g.enabled = arm.gate.enabled;
  g.required = arm.gate.required;
  if (!g.enabled) return g;
  g.probes.push_back(arithmetic_probe(arm, ex, model));
  g.probes.push_back(identity_probe(arm, ex, model));
  g.probes.push_back(tool_probe(arm, ex, model));
  g.passed = std::all_of(g.probes.begin(), g.probes.end(), [](const ProbeResult& p) { return p.passed; });
  return g;
}

results::GateSummary summary_of(const GateResult& g) { return {g.passed, g.required}; }

}  // namespace servebench::campaign
