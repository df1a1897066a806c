#include "servebench/load/prompt.hpp"

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(Prompt, TextOfAChatPromptJoinsContents) {
  Prompt p;
  p.messages = {{"system", "be brief"}, {"user", "hi"}};
  EXPECT_EQ(prompt_text(p), "be brief\nhi");
  Prompt t;
  t.text = "plain";
  EXPECT_EQ(prompt_text(t), "plain");
}

}  // namespace
}  // namespace servebench::load
