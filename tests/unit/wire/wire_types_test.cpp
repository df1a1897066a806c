#include "servebench/wire/wire_types.hpp"

#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

TEST(FinishReason, ParsesOpenAiSglangAndLlamacppSpellings) {
  EXPECT_EQ(parse_finish_reason("length"), FinishReason::length);
  EXPECT_EQ(parse_finish_reason("limit"), FinishReason::length);
  EXPECT_EQ(parse_finish_reason("stop"), FinishReason::stop);
  EXPECT_EQ(parse_finish_reason("eos"), FinishReason::stop);
  EXPECT_EQ(parse_finish_reason("word"), FinishReason::stop);
  EXPECT_EQ(parse_finish_reason("abort"), FinishReason::abort);
  EXPECT_EQ(parse_finish_reason("tool_calls"), FinishReason::tool_calls);
  EXPECT_EQ(parse_finish_reason("content_filter"), FinishReason::other);
  EXPECT_EQ(parse_finish_reason(""), FinishReason::none);
}

TEST(FinishReason, NamesRoundTrip) {
  for (auto r : {FinishReason::length, FinishReason::stop, FinishReason::abort, FinishReason::tool_calls,
                 FinishReason::other}) {
    EXPECT_EQ(parse_finish_reason(to_string(r)), r);
  }
  EXPECT_EQ(to_string(FinishReason::none), "");
}

}  // namespace
}  // namespace servebench::wire
