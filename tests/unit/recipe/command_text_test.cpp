#include "servebench/recipe/command_text.hpp"

#include <gtest/gtest.h>

#include "servebench/util/json_text.hpp"

using namespace servebench::recipe;

namespace {

RenderedCommand sample() {
  RenderedCommand c;
  c.selection = "hw=b200,quant=fp8";
  c.env = {"SGLANG_X=1"};
  c.program = {"python3", "-m", "sglang.launch_server"};
  c.flags = {{"--model-path", "org/m"}, {"--tp-size", "4"}, {"--chat-template", "a b"}};
  c.hints = {"flush does not clear the host tier"};
  return c;
}

}  // namespace

TEST(CommandText, ShellIsLaidOutLikeThePageButQuoted) {
  EXPECT_EQ(to_shell(sample()),
            "# flush does not clear the host tier\n"
            "SGLANG_X=1 \\\n"
            "python3 -m sglang.launch_server \\\n"
            "  --model-path org/m \\\n"
            "  --tp-size 4 \\\n"
            "  --chat-template 'a b'\n");
}

TEST(CommandText, CommandLineQuotesWords) {
  EXPECT_EQ(to_command_line(sample()),
            "SGLANG_X=1 python3 -m sglang.launch_server --model-path org/m --tp-size 4 --chat-template 'a b'");
}

TEST(CommandText, JsonCarriesArgvEnvAndFingerprint) {
  const auto j = to_json(sample(), "sglang", "sha256:ab");
  EXPECT_EQ(servebench::util::to_json_text(j),
            R"({"schema":"servebench.recipe_command/1","selection":"hw=b200,quant=fp8","target":"sglang",)"
            R"("command":"SGLANG_X=1 python3 -m sglang.launch_server --model-path org/m --tp-size 4 --chat-template 'a b'",)"
            R"("argv":["python3","-m","sglang.launch_server","--model-path","org/m","--tp-size","4","--chat-template","a b"],)"
            R"("env":{"SGLANG_X":"1"},"hints":["flush does not clear the host tier"],"fingerprint":"sha256:ab"})");
}
