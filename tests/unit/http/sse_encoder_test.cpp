#include "servebench/http/sse_encoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "servebench/http/sse_decoder.hpp"

using namespace servebench::http;

namespace {

std::vector<std::string> round_trip(const std::string& framed) {
  std::vector<std::string> out;
  SseDecoder decoder;
  decoder.feed(framed, [&](const SseEvent& e) { out.emplace_back(e.data); });
  return out;
}

}  // namespace

TEST(SseEncoder, FramesAPayloadAsOneDataEvent) {
  std::string out;
  append_sse_data(out, R"({"choices":[]})");
  EXPECT_EQ(out, "data: {\"choices\":[]}\n\n");
}

TEST(SseEncoder, AppendsWithoutClearing) {
  std::string out = "prefix|";
  append_sse_data(out, "a");
  append_sse_done(out);
  EXPECT_EQ(out, "prefix|data: a\n\ndata: [DONE]\n\n");
}

TEST(SseEncoder, SplitsMultiLinePayloadsIntoDataLines) {
  std::string out;
  append_sse_data(out, "one\ntwo\r\nthree\rfour");
  EXPECT_EQ(out, "data: one\ndata: two\ndata: three\ndata: four\n\n");
}

TEST(SseEncoder, EmptyPayloadIsStillAnEvent) {
  std::string out;
  append_sse_data(out, "");
  EXPECT_EQ(out, "data: \n\n");
  EXPECT_EQ(round_trip(out), std::vector<std::string>{""});
}

TEST(SseEncoder, RoundTripsThroughTheDecoder) {
  const std::vector<std::string> payloads = {"{\"a\":1}", "line\nbreak", "trailing\n", " lead", "[DONE]"};
  std::string framed;
  for (const auto& p : payloads) append_sse_data(framed, p);
  EXPECT_EQ(round_trip(framed), payloads);
}

TEST(SseEncoder, DoneIsTheOpenAiTerminator) {
  std::string out;
  append_sse_done(out);
  EXPECT_EQ(out, "data: [DONE]\n\n");
  EXPECT_EQ(round_trip(out), std::vector<std::string>{"[DONE]"});
}
