#include "servebench/load/file_dataset.hpp"

#include <algorithm>
#include <random>

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;

std::string normalized_role(std::string_view role) {
  if (role == "human" || role == "user") return "user";
  if (role == "gpt" || role == "assistant" || role == "chatgpt" || role == "bot") return "assistant";
  return std::string(role);
}

util::Result<std::vector<ChatMessage>> parse_messages(const json::array& turns) {
  std::vector<ChatMessage> out;
  for (const json::value& t : turns) {
    if (!t.is_object()) return util::fail(util::ErrorKind::bad_input, "a conversation turn is not an object");
    const auto& o = t.as_object();
    auto role = util::json_string(o, "role");
    if (!role) role = util::json_string(o, "from");
    auto content = util::json_string(o, "content");
    if (!content) content = util::json_string(o, "value");
    if (!role || !content) return util::fail(util::ErrorKind::bad_input, "a conversation turn needs role and content");
    out.push_back({normalized_role(*role), std::move(*content)});
  }
  return out;
}

// Input length (server count) and, when unknown, output length from the reference reply.
util::Result<void> measure(Prompt& p, const std::string& reply, std::optional<std::int64_t> line_output,
                           const FileDatasetOptions& opts, TextCodec* codec) {
  if (p.ids.empty() && codec != nullptr) {
    auto ids = codec->tokenize(prompt_text(p), Specials::add);
    if (!ids) return std::unexpected(ids.error());
    p.input_tokens = static_cast<std::int64_t>(ids->size());
  }
  if (opts.output_len) {
    p.output_tokens = *opts.output_len;
  } else if (line_output) {
    p.output_tokens = *line_output;
  } else if (!reply.empty() && codec != nullptr) {
    auto ids = codec->tokenize(reply, Specials::omit);
    if (!ids) return std::unexpected(ids.error());
    p.output_tokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(ids->size()));
  } else {
    p.output_tokens = opts.default_output_len;
  }
  return {};
}

util::Result<Prompt> prompt_from_object(const json::object& o, const FileDatasetOptions& opts, TextCodec* codec) {
  Prompt p;
  std::string reply;
  if (const json::value* v = o.if_contains("prompt")) {
    if (v->is_string()) {
      p.text = std::string(v->as_string());
    } else if (v->is_array()) {
      for (const json::value& id : v->as_array()) {
        if (!id.is_int64()) return util::fail(util::ErrorKind::bad_input, "prompt ids must be integers");
        p.ids.push_back(static_cast<std::int32_t>(id.as_int64()));
      }
      p.input_tokens = static_cast<std::int64_t>(p.ids.size());
    } else {
      return util::fail(util::ErrorKind::bad_input, "prompt must be a string or an array of token ids");
    }
  } else {
    const json::value* turns = o.if_contains("messages");
    if (turns == nullptr) turns = o.if_contains("conversations");
    if (turns == nullptr || !turns->is_array()) {
      return util::fail(util::ErrorKind::bad_input, "a line needs prompt, messages or conversations");
    }
    auto messages = parse_messages(turns->as_array());
    if (!messages) return std::unexpected(messages.error());
    if (!messages->empty() && messages->back().role == "assistant") {
      reply = std::move(messages->back().content);
      messages->pop_back();
    }
    if (messages->empty()) return util::fail(util::ErrorKind::bad_input, "a conversation has no turn to send");
    p.messages = std::move(*messages);
  }
  const auto line_output = util::json_int(o, "output_len");
  if (auto ok = measure(p, reply, line_output, opts, codec); !ok) return std::unexpected(ok.error());
  return p;
}

util::Result<void> check_count(std::size_t have, const FileDatasetOptions& opts, const std::filesystem::path& path) {
  if (opts.num_prompts <= 0) return util::fail(util::ErrorKind::bad_input, "--num-prompts must be positive");
  if (have < static_cast<std::size_t>(opts.num_prompts)) {
    return util::failf(util::ErrorKind::bad_input, "{} has {} usable prompts, fewer than --num-prompts {}",
                       path.string(), have, opts.num_prompts);
  }
  return {};
}

}  // namespace

util::Result<std::vector<Prompt>> load_custom_jsonl(const std::filesystem::path& path, const FileDatasetOptions& opts,
                                                    TextCodec* codec) {
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  std::vector<Prompt> prompts;
  std::size_t line_no = 0;
  for (std::string_view line : util::split(*text, '\n')) {
    ++line_no;
    if (util::trim(line).empty()) continue;
    if (std::ssize(prompts) >= opts.num_prompts) break;
    const std::string where = fmt::format("{}:{}", path.string(), line_no);
    auto v = util::parse_json(line, where);
    if (!v) return std::unexpected(util::Error{util::ErrorKind::bad_input, v.error().message});
    if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: not a JSON object", where);
    auto p = prompt_from_object(v->as_object(), opts, codec);
    if (!p) return std::unexpected(util::with_context(p.error(), where));
    prompts.push_back(std::move(*p));
  }
  if (auto ok = check_count(prompts.size(), opts, path); !ok) return std::unexpected(ok.error());
  return prompts;
}

util::Result<std::vector<Prompt>> load_sharegpt(const std::filesystem::path& path, const FileDatasetOptions& opts,
                                                TextCodec* codec) {
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto v = util::parse_json(*text, path.string());
  if (!v) return std::unexpected(util::Error{util::ErrorKind::bad_input, v.error().message});
  if (!v->is_array()) return util::failf(util::ErrorKind::bad_input, "{}: not a ShareGPT array", path.string());
  // Keep conversations with a human turn followed by a reply, as sglang does.
  std::vector<json::object> usable;
  for (const json::value& item : v->as_array()) {
    const json::value* conv = item.is_object() ? item.as_object().if_contains("conversations") : nullptr;
    if (conv == nullptr || !conv->is_array() || conv->as_array().size() < 2) continue;
    const auto& turns = conv->as_array();
    usable.push_back(json::object{{"conversations", json::array{turns[0], turns[1]}}});
  }
  if (auto ok = check_count(usable.size(), opts, path); !ok) return std::unexpected(ok.error());
  std::mt19937_64 rng(opts.seed);
  std::shuffle(usable.begin(), usable.end(), rng);
  std::vector<Prompt> prompts;
  for (std::int64_t i = 0; i < opts.num_prompts; ++i) {
    auto p = prompt_from_object(usable[static_cast<std::size_t>(i)], opts, codec);
    if (!p) return std::unexpected(util::with_context(p.error(), path.string()));
    // ShareGPT prompts are single-turn text: the human turn.
    p->text = prompt_text(*p);
    p->messages.clear();
    prompts.push_back(std::move(*p));
  }
  return prompts;
}

}  // namespace servebench::load
