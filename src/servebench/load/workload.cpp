#include "servebench/load/workload.hpp"

#include "servebench/load/file_dataset.hpp"

namespace servebench::load {
namespace {

using util::ErrorKind;

struct KindName {
  DatasetKind kind;
  std::string_view name;
};
constexpr KindName k_kinds[] = {{DatasetKind::random, "random"},
                                {DatasetKind::random_ids, "random-ids"},
                                {DatasetKind::corpus, "corpus"},
                                {DatasetKind::custom, "custom"},
                                {DatasetKind::sharegpt, "sharegpt"},
                                {DatasetKind::generated_shared_prefix, "generated-shared-prefix"},
                                {DatasetKind::multi_turn, "multi-turn"},
                                {DatasetKind::trace, "trace"}};

util::Result<Vocabulary> vocabulary_for(const WorkloadOptions& o, ServerControl& control) {
  if (o.vocabulary) return *o.vocabulary;
  if (auto v = control.vocabulary()) return *v;
  return util::fail(ErrorKind::bad_input,
                    "the server does not report its vocabulary size, which token-id prompts need; pass --vocab-size");
}

Workload split(std::vector<Prompt> all, std::int64_t warmup) {
  Workload w;
  const auto cut = all.begin() + warmup;
  w.warmup.assign(std::make_move_iterator(all.begin()), std::make_move_iterator(cut));
  w.prompts.assign(std::make_move_iterator(cut), std::make_move_iterator(all.end()));
  return w;
}

// Warmup prompts of `input_len` from another seed, sharing nothing with the measured prompts.
util::Result<std::vector<Prompt>> warmup_prompts(const WorkloadOptions& o, std::int64_t input_len,
                                                 std::int64_t output_len, const Vocabulary& vocab) {
  if (o.warmup_prompts == 0) return std::vector<Prompt>{};
  return make_random_prompts({.num_prompts = o.warmup_prompts, .input_len = input_len, .output_len = output_len,
                              .seed = o.seed ^ 0x9e3779b97f4a7c15ULL},
                             vocab);
}

util::Result<Workload> conversations(const WorkloadOptions& o, const Vocabulary& vocab) {
  ConversationWorkload cw = o.conversation;
  cw.seed = o.seed;
  auto prompts = make_conversation_prompts(cw, vocab);
  if (!prompts) return std::unexpected(prompts.error());
  auto warm = warmup_prompts(o, cw.user_len, cw.reply_len, vocab);
  if (!warm) return std::unexpected(warm.error());
  return Workload{std::move(*prompts), std::move(*warm), false, expected_hit_rate(cw), {}};
}

util::Result<Workload> synthetic(const WorkloadOptions& o, ServerControl& control) {
  auto vocab = vocabulary_for(o, control);
  if (!vocab) return std::unexpected(vocab.error());
  if (o.kind == DatasetKind::generated_shared_prefix) {
    SharedPrefixWorkload gsp = o.shared_prefix;
    gsp.seed = o.seed;
    auto prompts = make_shared_prefix_prompts(gsp, *vocab);
    if (!prompts) return std::unexpected(prompts.error());
    // Warmup prompts of the same length outside every group.
    auto warm = warmup_prompts(o, gsp.system_len + gsp.question_len, gsp.output_len, *vocab);
    if (!warm) return std::unexpected(warm.error());
    return Workload{std::move(*prompts), std::move(*warm), false, expected_hit_rate(gsp), {}};
  }
  if (o.kind == DatasetKind::multi_turn) return conversations(o, *vocab);
  RandomWorkload rw{.pattern = o.kind == DatasetKind::random ? IdPattern::random : IdPattern::sequential,
                    .num_prompts = o.num_prompts + o.warmup_prompts, .input_len = o.input_len,
                    .output_len = o.output_len, .range_ratio = o.range_ratio, .seed = o.seed};
  auto all = make_random_prompts(rw, *vocab);
  if (!all) return std::unexpected(all.error());
  return split(std::move(*all), o.warmup_prompts);
}

util::Result<Workload> from_trace(const WorkloadOptions& o, ServerControl& control) {
  auto vocab = vocabulary_for(o, control);
  if (!vocab) return std::unexpected(vocab.error());
  auto trace = read_trace(o.path, o.trace);
  if (!trace) return std::unexpected(trace.error());
  auto built = trace_prompts(*trace, o.trace, *vocab, o.seed);
  if (!built) return std::unexpected(built.error());
  // Warmup prompts as long as the first request, sharing none of its blocks.
  auto warm = warmup_prompts(o, built->prompts.front().input_tokens, built->prompts.front().output_tokens, *vocab);
  if (!warm) return std::unexpected(warm.error());
  Workload w{std::move(built->prompts), std::move(*warm), false, built->expected_hit_rate, std::move(built->offsets)};
  return w;
}

util::Result<Workload> from_corpus(const WorkloadOptions& o, ServerControl& control) {
  TextCodec* codec = control.codec();
  if (codec == nullptr) {
    return util::fail(ErrorKind::bad_input, "--dataset-name corpus needs the server's /tokenize, which it does not offer");
  }
  auto corpus = Corpus::load(o.path, *codec);
  if (!corpus) return std::unexpected(corpus.error());
  CorpusCursor local;
  CorpusCursor& cursor = o.cursor != nullptr ? *o.cursor : local;
  auto take = corpus->take(cursor, o.num_prompts + o.warmup_prompts, o.input_len, o.output_len);
  if (!take) return std::unexpected(take.error());
  Workload w = split(std::move(take->prompts), o.warmup_prompts);
  w.recycled = take->recycled;
  return w;
}

util::Result<Workload> from_file(const WorkloadOptions& o, ServerControl& control) {
  FileDatasetOptions f{.num_prompts = o.num_prompts + o.warmup_prompts, .output_len = o.fixed_output_len,
                       .default_output_len = o.output_len, .seed = o.seed};
  auto all = o.kind == DatasetKind::custom ? load_custom_jsonl(o.path, f, control.codec())
                                           : load_sharegpt(o.path, f, control.codec());
  if (!all) return std::unexpected(all.error());
  return split(std::move(*all), o.warmup_prompts);
}

}  // namespace

std::string_view to_string(DatasetKind k) {
  for (const auto& n : k_kinds) {
    if (n.kind == k) return n.name;
  }
  return "random";
}

util::Result<DatasetKind> parse_dataset_kind(std::string_view s) {
  for (const auto& n : k_kinds) {
    if (n.name == s) return n.kind;
  }
  return util::failf(ErrorKind::bad_input,
                     "--dataset-name '{}' is not one of random, random-ids, corpus, custom, sharegpt, "
                     "generated-shared-prefix, multi-turn, trace",
                     s);
}

util::Result<Workload> make_workload(const WorkloadOptions& o, ServerControl& control) {
  if (o.warmup_prompts < 0) return util::fail(ErrorKind::bad_input, "--warmup-requests must not be negative");
  const bool needs_path = o.kind == DatasetKind::corpus || o.kind == DatasetKind::custom ||
                          o.kind == DatasetKind::sharegpt || o.kind == DatasetKind::trace;
  if (needs_path && o.path.empty()) {
    return util::failf(ErrorKind::bad_input, "--dataset-name {} needs --dataset-path", to_string(o.kind));
  }
  switch (o.kind) {
    case DatasetKind::random:
    case DatasetKind::random_ids:
    case DatasetKind::generated_shared_prefix:
    case DatasetKind::multi_turn: return synthetic(o, control);
    case DatasetKind::corpus: return from_corpus(o, control);
    case DatasetKind::custom:
    case DatasetKind::sharegpt: return from_file(o, control);
    case DatasetKind::trace: return from_trace(o, control);
  }
  return util::fail(ErrorKind::bad_input, "unknown dataset");
}

}  // namespace servebench::load
