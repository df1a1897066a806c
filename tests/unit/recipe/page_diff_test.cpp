#include "servebench/recipe/page_diff.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

using namespace servebench::recipe;

namespace {

boost::json::object page(const std::string& json) { return boost::json::parse(json).as_object(); }

}  // namespace

TEST(PageDiff, MatchesSelectionsWhateverTheKeyOrderAndNamesEachField) {
  const std::vector<boost::json::object> a{
      page(R"({"selection": {"hw": "b200", "q": "fp8"}, "flags": ["--a", "--b"], "command": "x\ny", "nnodes": 1})"),
      page(R"({"selection": {"hw": "h100", "q": "fp8"}, "flags": []})")};
  const std::vector<boost::json::object> b{
      page(R"({"selection": {"q": "fp8", "hw": "b200"}, "flags": ["--a", "--c"], "command": "x\nz", "nnodes": 1})"),
      page(R"({"selection": {"hw": "b300", "q": "fp8"}, "flags": []})")};
  const PagesDiff d = diff_pages(a, b);
  EXPECT_FALSE(d.same());
  EXPECT_EQ(d.compared, 1u);
  ASSERT_EQ(d.differing.size(), 1u);
  EXPECT_EQ(d.differing[0].selection, "hw=b200,q=fp8");
  ASSERT_EQ(d.differing[0].fields.size(), 2u);
  EXPECT_EQ(d.differing[0].fields[0].detail, "- --b; + --c");
  EXPECT_EQ(d.differing[0].fields[1].detail, "line 2: y | z");
  EXPECT_EQ(d.only_a, (std::vector<std::string>{"hw=h100,q=fp8"}));
  EXPECT_EQ(d.only_b, (std::vector<std::string>{"hw=b300,q=fp8"}));
  EXPECT_EQ(to_text(d, "A", "B"),
            "hw=b200,q=fp8: flags: - --b; + --c\n"
            "hw=b200,q=fp8: command: line 2: y | z\n"
            "hw=h100,q=fp8: only in A\n"
            "hw=b300,q=fp8: only in B\n"
            "1 selections compared, 1 differ, 1 only in A, 1 only in B\n");
}

TEST(PageDiff, AbsentFieldsAndReorderedListsAreDifferences) {
  const std::vector<boost::json::object> a{page(R"({"selection": {"hw": "b200"}, "flags": ["--a", "--b"], "warn": null})")};
  const std::vector<boost::json::object> b{page(R"({"selection": {"hw": "b200"}, "flags": ["--b", "--a"]})")};
  const PagesDiff d = diff_pages(a, b);
  ASSERT_EQ(d.differing.size(), 1u);
  EXPECT_EQ(d.differing[0].fields[0].detail, "same items in another order");
  EXPECT_EQ(d.differing[0].fields[1].field, "warn");
  EXPECT_EQ(d.differing[0].fields[1].detail, "null | (absent)");
  EXPECT_TRUE(diff_pages(a, a).same());
}
