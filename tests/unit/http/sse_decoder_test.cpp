#include "servebench/http/sse_decoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using servebench::http::SseDecoder;
using servebench::http::SseEvent;

namespace {

struct Owned {
  std::string type, data, id;
  bool operator==(const Owned&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Owned& e) {
  return out << "{type=" << e.type << " data=" << e.data << " id=" << e.id << "}";
}

std::vector<Owned> decode_pieces(const std::vector<std::string>& pieces, SseDecoder& decoder) {
  std::vector<Owned> events;
  for (const auto& piece : pieces) {
    decoder.feed(piece, [&](const SseEvent& e) { events.push_back({std::string(e.type), std::string(e.data), std::string(e.id)}); });
  }
  return events;
}

std::vector<Owned> decode(const std::string& input, std::size_t max = SseDecoder::k_default_max_event_bytes) {
  SseDecoder decoder(max);
  return decode_pieces({input}, decoder);
}

// A stream exercising every framing rule at once.
const std::string k_mixed =
    ": keep-alive comment\n"
    "data: {\"a\":1}\n\n"
    "event: delta\r\nid: 7\r\ndata: line one\r\ndata:line two\r\n\r\n"
    "data: cr only\r\rretry: 100\nunknown: x\ndata\n\n"
    "data:  two leading spaces\n\n"
    "event: orphan\n\n"
    "data: [DONE]\n\n";

const std::vector<Owned> k_mixed_events = {
    {"", "{\"a\":1}", ""},
    {"delta", "line one\nline two", "7"},
    {"", "cr only", "7"},
    {"", "", "7"},
    {"", " two leading spaces", "7"},
    {"", "[DONE]", "7"},
};

}  // namespace

TEST(SseDecoder, DecodesOpenAiChunks) {
  const auto events = decode("data: {\"x\":1}\n\ndata: {\"x\":2}\n\ndata: [DONE]\n\n");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].data, "{\"x\":1}");
  EXPECT_EQ(events[1].data, "{\"x\":2}");
  EXPECT_EQ(events[2].data, "[DONE]");
  EXPECT_EQ(events[0].type, "");
}

TEST(SseDecoder, AppliesEveryFramingRule) { EXPECT_EQ(decode(k_mixed), k_mixed_events); }

TEST(SseDecoder, JoinsMultiLineDataWithNewline) {
  const auto events = decode("data: a\ndata: b\ndata: c\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "a\nb\nc");
}

TEST(SseDecoder, IgnoresCommentsAndUnknownFields) {
  EXPECT_TRUE(decode(": ping\n\n:another\n\nfoo: bar\n\n").empty());
}

TEST(SseDecoder, DropsAnEventWithoutDataAndItsType) {
  const auto events = decode("event: lonely\n\ndata: x\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "");  // the type of the dropped event does not leak
}

TEST(SseDecoder, KeepsTheLastIdAcrossEvents) {
  const auto events = decode("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].id, "1");
  EXPECT_EQ(events[1].id, "1");
  EXPECT_EQ(events[2].id, "");  // a bare "id" line resets it
}

TEST(SseDecoder, SameEventsForEverySplitPoint) {
  for (std::size_t cut = 0; cut <= k_mixed.size(); ++cut) {
    SseDecoder decoder;
    const auto events = decode_pieces({k_mixed.substr(0, cut), k_mixed.substr(cut)}, decoder);
    EXPECT_EQ(events, k_mixed_events) << "split at " << cut;
  }
}

TEST(SseDecoder, SameEventsForEveryPairOfSplitPoints) {
  const std::string input = "data: a\r\n\r\nevent: e\rdata: b\r\rdata: c\n\n";
  const auto whole = decode(input);
  ASSERT_EQ(whole.size(), 3u);
  for (std::size_t i = 0; i <= input.size(); ++i) {
    for (std::size_t j = i; j <= input.size(); ++j) {
      SseDecoder decoder;
      EXPECT_EQ(decode_pieces({input.substr(0, i), input.substr(i, j - i), input.substr(j)}, decoder), whole)
          << "splits at " << i << "," << j;
    }
  }
}

TEST(SseDecoder, ByteAtATimeGivesTheSameEvents) {
  std::vector<std::string> bytes;
  for (const char c : k_mixed) bytes.emplace_back(1, c);
  SseDecoder decoder;
  EXPECT_EQ(decode_pieces(bytes, decoder), k_mixed_events);
}

TEST(SseDecoder, HoldsATornFinalEventUntilCompleted) {
  SseDecoder decoder;
  auto events = decode_pieces({"data: done\n\ndata: {\"partial\":"}, decoder);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(decoder.has_partial());
  events = decode_pieces({"true}\n"}, decoder);
  EXPECT_TRUE(events.empty());  // no blank line yet
  EXPECT_TRUE(decoder.has_partial());
  events = decode_pieces({"\n"}, decoder);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "{\"partial\":true}");
  EXPECT_FALSE(decoder.has_partial());
}

TEST(SseDecoder, CrAtTheEndOfAnInputPairsWithALeadingLf) {
  SseDecoder decoder;
  // "\r" then "\n" is one line end: a second blank line would not appear.
  const auto events = decode_pieces({"data: a\r", "\ndata: b\r", "\n\r", "\n"}, decoder);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "a\nb");
}

TEST(SseDecoder, FailsOnALineWithoutEnd) {
  SseDecoder decoder(64);
  const std::string endless(40, 'x');
  EXPECT_TRUE(decoder.feed("data: " + endless, [](const SseEvent&) {}));
  EXPECT_FALSE(decoder.feed(endless, [](const SseEvent&) {}));
  EXPECT_TRUE(decoder.failed());
  int count = 0;
  EXPECT_FALSE(decoder.feed("\n\ndata: ok\n\n", [&](const SseEvent&) { ++count; }));
  EXPECT_EQ(count, 0);  // a failed decoder ignores input
}

TEST(SseDecoder, FailsOnAnEventWhoseDataGrowsTooLarge) {
  SseDecoder decoder(32);
  int count = 0;
  EXPECT_FALSE(decoder.feed("data: 0123456789\ndata: 0123456789\ndata: 0123456789\n\n", [&](const SseEvent&) { ++count; }));
  EXPECT_EQ(count, 0);
}

TEST(SseDecoder, AnEventAtTheLimitPasses) {
  const std::string payload(20, 'p');
  const auto events = decode("data: " + payload + "\n\n", 26);  // the line, "data: " included
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, payload);
}

TEST(SseDecoder, ResetForgetsPartialInputAndTheFailure) {
  SseDecoder decoder(16);
  decoder.feed("data: far too long for the limit", [](const SseEvent&) {});
  ASSERT_TRUE(decoder.failed());
  decoder.reset();
  EXPECT_FALSE(decoder.failed());
  EXPECT_FALSE(decoder.has_partial());
  const auto events = decode_pieces({"data: ok\n\n"}, decoder);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "ok");
}

TEST(SseDecoder, PullFormReturnsEventsOneByOne) {
  SseDecoder decoder;
  std::string_view input = "data: 1\n\ndata: 2\n\ndata: 3";
  auto first = decoder.next(input);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->data, "1");
  auto second = decoder.next(input);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->data, "2");
  EXPECT_FALSE(decoder.next(input));
  EXPECT_TRUE(input.empty());
  EXPECT_TRUE(decoder.has_partial());
}

TEST(SseDecoder, ReusesItsBuffersInSteadyState) {
  SseDecoder decoder;
  const std::string chunk = "data: {\"choices\":[{\"text\":\"tok\"}]}\n\n";
  const char* first_data = nullptr;
  for (int i = 0; i < 100; ++i) {
    decoder.feed(chunk.substr(0, 10), [](const SseEvent&) {});
    decoder.feed(chunk.substr(10), [&](const SseEvent& e) {
      if (!first_data) first_data = e.data.data();
      EXPECT_EQ(e.data.data(), first_data);  // same storage every time: no reallocation
    });
  }
  EXPECT_NE(first_data, nullptr);
}

// Found by fuzz_sse_decoder (fuzz/regressions/sse_decoder/): a line that arrived whole was held to a
// looser limit than the same line assembled from pieces, so where reads split a stream decided
// whether it failed.
TEST(SseDecoder, TheLimitDoesNotDependOnWhereReadsSplitTheStream) {
  for (const std::string& input : {"data: " + std::string(60, 'x') + "\n\n", ": " + std::string(100, 'c') + "\n",
                                  "event: " + std::string(80, 'e') + "\ndata: 1\n\n"}) {
    SseDecoder whole(64), pieces(64);
    whole.feed(input, [](const SseEvent&) {});
    for (char ch : input) pieces.feed(std::string_view(&ch, 1), [](const SseEvent&) {});
    EXPECT_EQ(whole.failed(), pieces.failed()) << input;
    EXPECT_TRUE(whole.failed()) << "every input has a line over 64 bytes: " << input;
  }
}
