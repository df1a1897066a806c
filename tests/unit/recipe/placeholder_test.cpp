#include "servebench/recipe/placeholder.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

TEST(Placeholder, NamesInOrderOfAppearance) {
  EXPECT_EQ(placeholder_names("--dist {{HOST_IP}}:{{PORT}} {{HOST_IP}}"),
            (std::vector<std::string>{"HOST_IP", "PORT", "HOST_IP"}));
  EXPECT_TRUE(placeholder_names("--tp-size 4 {not} {{unclosed").empty());
}

TEST(Placeholder, SubstitutesEveryOccurrence) {
  PlaceholderValues v;
  v.set("HOST_IP", "10.0.0.1");
  v.set("PORT", "30000");
  v.set("PORT", "31000");  // a later set replaces
  EXPECT_EQ(*substitute("{{HOST_IP}}:{{PORT}}/{{HOST_IP}}", v), "10.0.0.1:31000/10.0.0.1");
  EXPECT_EQ(*substitute("no placeholders", v), "no placeholders");
}

TEST(Placeholder, MissingValueNamesThePlaceholder) {
  const auto r = substitute("--model-path {{MODEL_NAME}}", PlaceholderValues{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "placeholder {{MODEL_NAME}} has no value");
  EXPECT_EQ(r.error().kind, servebench::util::ErrorKind::bad_input);
}
