#include "support/temp_dir.hpp"
#include "servebench/campaign/hook.hpp"

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

namespace servebench::campaign {
namespace {

using servebench::testing::fresh_dir;

TEST(Hook, RunsWithTheCampaignsEnvironmentAndLogs) {
  const auto dir = fresh_dir("campaign_hook", "ok");
  const HookRun hook{"e7b", "before", "echo $SERVEBENCH_HOOK $SERVEBENCH_ARM > \"$SERVEBENCH_RUN_DIR/seen\"; echo logged",
                     dir, dir / "arms/e7b/hooks.log", "/x/servebench"};
  ASSERT_TRUE(run_hook(hook));
  EXPECT_EQ(util::read_file(dir / "seen").value_or(""), "before e7b\n");
  const auto log = util::read_file(dir / "arms/e7b/hooks.log").value_or("");
  EXPECT_NE(log.find("before hook of arm 'e7b'"), std::string::npos) << log;
  EXPECT_NE(log.find("logged"), std::string::npos);
}

TEST(Hook, AFailingHookNamesItsExitAndOutput) {
  const auto dir = fresh_dir("campaign_hook", "fail");
  auto r = run_hook({"a", "after", "echo cannot restore >&2; exit 4", dir, dir / "hooks.log", "/x/servebench"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "after hook of arm 'a' exited with status 4: cannot restore");
}

}  // namespace
}  // namespace servebench::campaign
