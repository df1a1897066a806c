#include "servebench/sim/request_plan.hpp"

#include <algorithm>
#include <variant>

#include "servebench/sim/oracle.hpp"

namespace servebench::sim {
namespace {

std::vector<std::int32_t> encode_with_bos(const Tokenizer& tokenizer, std::string_view text) {
  std::vector<std::int32_t> ids;
  const std::int32_t bos = tokenizer.specials().bos;
  if (bos >= 0) ids.push_back(bos);
  const auto body = tokenizer.encode(text);
  ids.insert(ids.end(), body.begin(), body.end());
  return ids;
}

std::vector<std::int32_t> prompt_ids(const wire::PromptInput& p, const Tokenizer& tokenizer) {
  if (const auto* ids = std::get_if<wire::TokenIds>(&p)) return *ids;
  return encode_with_bos(tokenizer, std::get<std::string>(p));
}

std::int64_t max_tokens_for(const wire::InferenceRequest& r, std::int64_t prompt_len, std::int64_t context_length) {
  if (r.max_tokens) return *r.max_tokens;
  switch (r.route) {
    case wire::ServerRoute::completions:
      return k_default_completion_tokens;
    case wire::ServerRoute::generate:
      return k_default_generate_tokens;
    case wire::ServerRoute::chat_completions:
      break;
  }
  return std::max<std::int64_t>(context_length - prompt_len, 1);
}

SamplingParams sampling_for(const wire::InferenceRequest& r) {
  SamplingParams s;
  s.min_tokens = r.min_tokens;
  s.ignore_eos = r.ignore_eos;
  s.temperature = r.temperature.value_or(1.0);  // OpenAI's and SGLang's default
  s.seed = r.seed;
  return s;
}

// The reply the oracle forces, ended by EOS like a model that stops by itself.
std::vector<std::int32_t> forced_reply(const Tokenizer& tokenizer, std::string_view text) {
  auto ids = tokenizer.encode(text);
  ids.push_back(tokenizer.specials().eos);
  return ids;
}

std::string tool_call_text(std::string_view name) {
  return "{\"name\": \"" + std::string(name) + "\", \"arguments\": {}}";
}

}  // namespace

std::string render_chat(std::span<const wire::ChatMessage> messages) {
  std::string out;
  for (const auto& m : messages) {
    out += "<|" + m.role + "|>\n";
    out += m.content;
    out += '\n';
  }
  out += "<|assistant|>\n";
  return out;
}

std::string oracle_text(const wire::InferenceRequest& request, std::size_t item, const Tokenizer& tokenizer) {
  if (request.route == wire::ServerRoute::chat_completions) {
    std::string out;
    for (const auto& m : request.messages) out += m.content + "\n";
    return out;
  }
  const auto& p = request.prompts.at(item);
  if (const auto* text = std::get_if<std::string>(&p)) return *text;
  return tokenizer.decode(std::get<wire::TokenIds>(p), SpecialTokens::skip).value_or("");
}

RequestPlan plan_request(const wire::InferenceRequest& request, const Tokenizer& tokenizer, const PlanOptions& options,
                         const std::optional<std::string>& first_tool) {
  RequestPlan plan;
  plan.route = request.route;
  plan.stream = request.stream;
  plan.batch = request.batch;
  plan.include_usage = request.include_usage || options.default_include_usage;
  plan.continuous_usage = request.continuous_usage;
  plan.stop = request.stop;
  std::erase_if(plan.stop, [](const std::string& s) { return s.empty(); });
  const bool chat = request.route == wire::ServerRoute::chat_completions;
  const std::size_t n = chat ? 1 : request.prompts.size();
  for (std::size_t i = 0; i < n; ++i) {
    SimRequest item;
    item.prompt =
        chat ? encode_with_bos(tokenizer, render_chat(request.messages)) : prompt_ids(request.prompts[i], tokenizer);
    item.sampling = sampling_for(request);
    item.sampling.max_tokens =
        max_tokens_for(request, static_cast<std::int64_t>(item.prompt.size()), options.context_length);
    if (options.oracle == OracleMode::on) {
      if (chat && first_tool) {
        plan.tool_call = *first_tool;
        item.sampling.forced_output = forced_reply(tokenizer, tool_call_text(*first_tool));
      } else if (const auto answer = solve_word_problem(oracle_text(request, i, tokenizer))) {
        item.sampling.forced_output = forced_reply(tokenizer, oracle_reply(*answer));
      }
    }
    plan.items.push_back(std::move(item));
  }
  return plan;
}

}  // namespace servebench::sim
