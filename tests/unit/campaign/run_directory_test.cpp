#include "support/temp_dir.hpp"
#include "servebench/campaign/run_directory.hpp"

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

namespace servebench::campaign {
namespace {

CampaignSpec named(const std::string& name) {
  auto s = parse_campaign("name: " + name + "\narms: [{name: a, engine: sim, base_url: 'http://x:1'}]\n"
                          "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                          "c.yaml", "/");
  EXPECT_TRUE(s);
  return *s;
}

using servebench::testing::fresh_dir;

TEST(RunDirectory, ClaimCreatesLocksAndWritesTheResolvedSpec) {
  const auto dir = fresh_dir("campaign_rundir", "claim", servebench::testing::Create::no) / "nested";
  auto claimed = RunDirectory::claim(dir, named("one"));
  ASSERT_TRUE(claimed) << claimed.error().message;
  EXPECT_EQ(claimed->ledger(), dir / "ledger.jsonl");
  EXPECT_EQ(existing_campaign_name(dir), "one");
  auto second = RunDirectory::claim(dir, named("one"));
  ASSERT_FALSE(second) << "one campaign at a time";
  EXPECT_NE(second.error().message.find("another campaign is running in"), std::string::npos);
}

TEST(RunDirectory, TheLockGoesWithTheClaim) {
  const auto dir = fresh_dir("campaign_rundir", "release", servebench::testing::Create::no);
  { ASSERT_TRUE(RunDirectory::claim(dir, named("one"))); }
  EXPECT_TRUE(RunDirectory::claim(dir, named("one")));
}

TEST(RunDirectory, AnotherCampaignsDirectoryIsRefused) {
  const auto dir = fresh_dir("campaign_rundir", "other", servebench::testing::Create::no);
  { ASSERT_TRUE(RunDirectory::claim(dir, named("one"))); }
  auto r = RunDirectory::claim(dir, named("two"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("holds campaign 'one', not 'two'"), std::string::npos) << r.error().message;
  EXPECT_EQ(existing_campaign_name(fresh_dir("campaign_rundir", "empty", servebench::testing::Create::no)), "");
}

}  // namespace
}  // namespace servebench::campaign
