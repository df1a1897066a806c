#include "servebench/sim/generation.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fake_stream.hpp"

using namespace servebench;
using namespace servebench::sim;
using namespace std::chrono_literals;
using sim::test::FakeStream;

namespace {

constexpr std::int32_t k_eos = 128009;

struct Fixture {
  Tokenizer tokenizer{128256, TokenIds{128000, k_eos, 128000}};
  GenerationContext context;
  ChunkBuffers buffers;
  std::shared_ptr<FakeStream> stream = std::make_shared<FakeStream>();
  std::vector<std::vector<std::int32_t>> held;  // token storage the events point into
  RequestMeta meta;                             // the meta the events point at

  Fixture() {
    context.tokenizer = &tokenizer;
    context.model = "sim-model";
  }

  std::unique_ptr<Generation> make(RequestPlan plan, std::size_t items = 1) {
    for (std::size_t i = plan.items.size(); i < items; ++i) plan.items.push_back(SimRequest{{1, 2, 3}, {}});
    auto g = std::make_unique<Generation>(std::move(plan), stream, context, "id-1", 1700000000);
    g->take_requests();
    std::vector<RequestId> ids;
    for (std::size_t i = 0; i < items; ++i) ids.push_back(100 + i);
    g->accepted(ids, buffers);
    return g;
  }

  // Tokens of `text` for item `item`; `completion` is the running count after them.
  // One engine step with one event: the event, then the step's flush (as EngineLoop does).
  bool feed(Generation& g, std::size_t item, std::string_view text, std::int64_t completion,
            FinishReason finish = FinishReason::none, std::vector<std::int32_t> extra = {}) {
    const bool stopped = event(g, item, text, completion, finish, std::move(extra));
    g.flush();
    return stopped;
  }
  // An event alone, within a step that goes on.
  bool event(Generation& g, std::size_t item, std::string_view text, std::int64_t completion,
             FinishReason finish = FinishReason::none, std::vector<std::int32_t> extra = {}) {
    held.push_back(tokenizer.encode(text));
    held.back().insert(held.back().end(), extra.begin(), extra.end());
    TokenEvent e;
    e.id = 100 + item;
    e.tokens = held.back();
    e.finish = finish;
    meta.prompt_tokens = 3;
    meta.completion_tokens = completion;
    meta.cached_device = 1;
    meta.arrival = VirtualTime{};
    e.meta = &meta;
    return g.on_event(item, e, VirtualTime{250ms}, buffers);
  }

  std::vector<boost::json::object> chunks() const {
    std::vector<boost::json::object> out;
    for (const auto& e : stream->events()) {
      if (e == "[DONE]") continue;
      out.push_back(boost::json::parse(e).as_object());
    }
    return out;
  }
};

RequestPlan plan_for(wire::ServerRoute route, bool stream) {
  RequestPlan p;
  p.route = route;
  p.stream = stream;
  return p;
}

std::string text_of(const boost::json::object& chunk) {
  const auto& choice = chunk.at("choices").as_array().at(0).as_object();
  if (const auto* t = choice.if_contains("text")) return std::string(t->as_string());
  const auto& delta = choice.at("delta").as_object();
  return delta.contains("content") ? std::string(delta.at("content").as_string()) : "";
}

}  // namespace

TEST(Generation, CompletionStreamSendsTextThenUsageThenDone) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, true);
  plan.include_usage = true;
  auto g = f.make(std::move(plan));
  f.feed(*g, 0, " alpha", 1);
  f.feed(*g, 0, " beta gamma", 3, FinishReason::length);
  ASSERT_TRUE(f.stream->closed());
  const auto events = f.stream->events();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events.back(), "[DONE]");
  const auto chunks = f.chunks();
  EXPECT_EQ(text_of(chunks[0]), " alpha");
  EXPECT_EQ(text_of(chunks[1]), " beta gamma");
  EXPECT_EQ(chunks[1].at("choices").as_array()[0].at("finish_reason"), "length");
  EXPECT_TRUE(chunks[2].at("choices").as_array().empty());
  const auto& usage = chunks[2].at("usage").as_object();
  EXPECT_EQ(usage.at("completion_tokens"), 3);
  EXPECT_EQ(usage.at("prompt_tokens_details").at("cached_tokens"), 1);
  EXPECT_TRUE(g->finished());
}

TEST(Generation, ChatStreamStartsWithARoleOnlyChunk) {
  Fixture f;
  auto g = f.make(plan_for(wire::ServerRoute::chat_completions, true));
  ASSERT_TRUE(f.stream->wait_sends(1, 0ms));
  auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 1u);
  const auto& delta = chunks[0].at("choices").as_array()[0].at("delta").as_object();
  EXPECT_EQ(delta.at("role"), "assistant");
  EXPECT_EQ(delta.at("content"), "");
  f.feed(*g, 0, " hi", 1, FinishReason::stop, {k_eos});
  chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(text_of(chunks[1]), " hi");
  EXPECT_EQ(chunks[1].at("choices").as_array()[0].at("finish_reason"), "stop");
  EXPECT_FALSE(chunks[1].contains("usage"));  // no usage chunk unless asked
}

TEST(Generation, StopStringCutsTheTextAndAsksForCancellation) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, true);
  plan.stop = {"STOP"};
  auto g = f.make(std::move(plan));
  EXPECT_FALSE(f.feed(*g, 0, " one ST", 2));
  // " one ST" could begin "STOP": the last 3 bytes are held back.
  ASSERT_EQ(f.chunks().size(), 1u);
  EXPECT_EQ(text_of(f.chunks()[0]), " one");
  EXPECT_TRUE(f.feed(*g, 0, "OP two", 4));
  const auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(text_of(chunks[1]), " ");
  EXPECT_EQ(chunks[1].at("choices").as_array()[0].at("finish_reason"), "stop");
  EXPECT_TRUE(f.stream->closed());
}

TEST(Generation, StopStringOnTheEnginesLastEventNeedsNoCancellation) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, false);
  plan.stop = {"x"};
  auto g = f.make(std::move(plan));
  EXPECT_FALSE(f.feed(*g, 0, " ax b", 3, FinishReason::length));
  const auto body = boost::json::parse(f.stream->response()->body).as_object();
  EXPECT_EQ(body.at("choices").as_array()[0].at("text"), " a");
  EXPECT_EQ(body.at("choices").as_array()[0].at("finish_reason"), "stop");
}

TEST(Generation, NonStreamBatchJoinsChoicesInOrder) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, false);
  plan.batch = true;
  auto g = f.make(std::move(plan), 2);
  f.feed(*g, 1, " second", 1, FinishReason::length);
  EXPECT_FALSE(f.stream->closed());  // waits for every item
  f.feed(*g, 0, " first", 1, FinishReason::length);
  const auto response = f.stream->response();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  const auto body = boost::json::parse(response->body).as_object();
  const auto& choices = body.at("choices").as_array();
  ASSERT_EQ(choices.size(), 2u);
  EXPECT_EQ(choices[0].at("index"), 0);
  EXPECT_EQ(choices[0].at("text"), " first");
  EXPECT_EQ(choices[1].at("index"), 1);
  EXPECT_EQ(choices[1].at("text"), " second");
  EXPECT_EQ(body.at("usage").at("prompt_tokens"), 6);
}

TEST(Generation, StreamedBatchChunksNameTheirPrompt) {
  Fixture f;
  auto completions = plan_for(wire::ServerRoute::completions, true);
  completions.batch = true;
  auto g = f.make(std::move(completions), 2);
  f.feed(*g, 1, " b", 1, FinishReason::length);
  f.feed(*g, 0, " a", 1, FinishReason::length);
  auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].at("choices").as_array()[0].at("index"), 1);
  EXPECT_EQ(chunks[1].at("choices").as_array()[0].at("index"), 0);

  Fixture h;
  auto generate = plan_for(wire::ServerRoute::generate, true);
  generate.batch = true;
  auto gen = h.make(std::move(generate), 2);
  h.feed(*gen, 1, " b", 1, FinishReason::length);
  chunks = h.chunks();
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].at("index"), 1);
  EXPECT_EQ(chunks[0].at("text"), " b");
}

TEST(Generation, ASingleItemsLastChunkAndTheEndGoInOneWrite) {
  Fixture f;
  auto g = f.make(plan_for(wire::ServerRoute::completions, true));
  f.feed(*g, 0, " alpha", 1);
  EXPECT_EQ(f.stream->sends(), 1);  // a single item writes from on_event, before the step's flush
  f.feed(*g, 0, " beta", 2, FinishReason::length);
  EXPECT_EQ(f.stream->sends(), 2);  // the last chunk, usage, [DONE] and the end: one write
  EXPECT_TRUE(f.stream->ended_with_bytes());
  EXPECT_EQ(f.stream->events().back(), "[DONE]");
}

TEST(Generation, SeveralItemsOfOneStepGoOutInOneWrite) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, true);
  plan.batch = true;
  auto g = f.make(std::move(plan), 2);
  f.event(*g, 0, " a", 1);
  f.event(*g, 1, " b", 1);
  EXPECT_EQ(f.stream->sends(), 0);  // gathered until the step ends
  EXPECT_TRUE(g->pending());
  g->flush();
  EXPECT_EQ(f.stream->sends(), 1);
  EXPECT_FALSE(g->pending());
  EXPECT_EQ(f.chunks().size(), 2u);
  f.event(*g, 0, " c", 2, FinishReason::length);
  f.event(*g, 1, " d", 2, FinishReason::length);
  g->flush();
  EXPECT_EQ(f.stream->sends(), 2);  // both last chunks, [DONE] and the end
  EXPECT_TRUE(f.stream->closed());
  EXPECT_TRUE(f.stream->ended_with_bytes());
  EXPECT_EQ(f.stream->events().back(), "[DONE]");
}

TEST(Generation, NonStreamBatchGenerateIsAnArrayInPromptOrder) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::generate, false);
  plan.batch = true;
  auto g = f.make(std::move(plan), 2);
  f.feed(*g, 1, " second", 1, FinishReason::length);
  f.feed(*g, 0, " first", 1, FinishReason::length);
  const auto body = boost::json::parse(f.stream->response()->body).as_array();
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[0].at("index"), 0);
  EXPECT_EQ(body[0].at("text"), " first");
  EXPECT_EQ(body[1].at("index"), 1);
  EXPECT_EQ(body[1].at("text"), " second");
  EXPECT_EQ(body[1].at("meta_info").at("finish_reason").at("type"), "length");
}

// SGLang's meta_info.finish_reason.matched: the stop string itself, or the stop token's id.
TEST(Generation, MatchedStopIsTheStringOrTheTokenId) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::generate, true);
  plan.stop = {"END", "STOP"};
  auto g = f.make(std::move(plan));
  EXPECT_TRUE(f.feed(*g, 0, " a STOP b END", 4));
  const auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].at("text"), " a ");
  EXPECT_EQ(chunks[0].at("meta_info").at("finish_reason").at("type"), "stop");
  EXPECT_EQ(chunks[0].at("meta_info").at("finish_reason").at("matched"), "STOP");

  Fixture h;
  auto whole = h.make(plan_for(wire::ServerRoute::generate, false));
  EXPECT_FALSE(h.feed(*whole, 0, " a", 2, FinishReason::stop, {k_eos}));
  const auto body = boost::json::parse(h.stream->response()->body).as_object();
  EXPECT_FALSE(body.contains("index"));
  EXPECT_EQ(body.at("meta_info").at("finish_reason").at("matched"), k_eos);
}

TEST(Generation, GenerateStreamIsCumulativeWithMetaInfo) {
  Fixture f;
  f.context.speculative = true;
  auto g = f.make(plan_for(wire::ServerRoute::generate, true));
  f.feed(*g, 0, " a", 1);
  f.feed(*g, 0, " b", 2, FinishReason::length);
  const auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].at("text"), " a");
  EXPECT_EQ(chunks[1].at("text"), " a b");
  EXPECT_EQ(chunks[1].at("output_ids").as_array().size(), 2u);
  const auto& meta = chunks[1].at("meta_info").as_object();
  EXPECT_EQ(meta.at("finish_reason").at("type"), "length");
  EXPECT_EQ(meta.at("finish_reason").at("length"), 2);
  EXPECT_EQ(meta.at("cached_tokens_details").at("device"), 1);
  EXPECT_TRUE(meta.contains("spec_verify_ct"));
  EXPECT_DOUBLE_EQ(meta.at("e2e_latency").to_number<double>(), 0.25);
  EXPECT_EQ(f.stream->events().back(), "[DONE]");
}

TEST(Generation, IncrementalGenerateStreamSendsOnlyNewOutput) {
  Fixture f;
  f.context.generate_output = StreamOutput::incremental;
  auto g = f.make(plan_for(wire::ServerRoute::generate, true));
  f.feed(*g, 0, " a", 1);
  f.feed(*g, 0, " b", 2, FinishReason::length);
  const auto chunks = f.chunks();
  EXPECT_EQ(chunks[1].at("text"), " b");
  EXPECT_EQ(chunks[1].at("output_ids").as_array().size(), 1u);
}

TEST(Generation, StampedChunksCarryTheEmissionTime) {
  Fixture f;
  util::ManualClock clock(util::TimePoint{std::chrono::nanoseconds(123456789)});
  f.context.stamp = StampEvents::on;
  f.context.clock = &clock;
  auto plan = plan_for(wire::ServerRoute::completions, true);
  plan.include_usage = true;
  auto g = f.make(std::move(plan));
  f.feed(*g, 0, " a", 1, FinishReason::length);
  for (const auto& chunk : f.chunks()) EXPECT_EQ(chunk.at("sb_emit_ns"), 123456789);
}

TEST(Generation, RefusalAnswers400WithTheMessage) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::completions, true);
  plan.items.push_back(SimRequest{{1}, {}});
  Generation g(std::move(plan), f.stream, f.context, "id", 0);
  g.rejected("Requested token count exceeds the model's maximum context length");
  const auto response = f.stream->response();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 400);
  EXPECT_NE(response->body.find("maximum context length"), std::string::npos);
}

TEST(Generation, ToolCallReplyReplacesTheText) {
  Fixture f;
  auto plan = plan_for(wire::ServerRoute::chat_completions, true);
  plan.tool_call = "get_weather";
  auto g = f.make(std::move(plan));
  f.feed(*g, 0, "{\"name\": \"get_weather\"", 5);
  EXPECT_EQ(f.chunks().size(), 1u);  // the role chunk only: the call goes out whole
  f.feed(*g, 0, ", \"arguments\": {}}", 9, FinishReason::stop, {k_eos});
  const auto chunks = f.chunks();
  ASSERT_EQ(chunks.size(), 2u);
  const auto& choice = chunks[1].at("choices").as_array()[0].as_object();
  EXPECT_EQ(choice.at("finish_reason"), "tool_calls");
  const auto& call = choice.at("delta").at("tool_calls").as_array()[0].as_object();
  EXPECT_EQ(call.at("function").at("name"), "get_weather");
  EXPECT_EQ(call.at("function").at("arguments"), "{}");
}
