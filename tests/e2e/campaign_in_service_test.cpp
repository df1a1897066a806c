// Verified restore end to end: serve-sim plays the in-service server; the arm's `before` hook stops
// it and the `after` hook starts it again, once with other launch flags (the restore is detected
// as failed: exit 1, status.txt, in_service.json, the report's banner) and once the same (restored).
#include <signal.h>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "e2e/serve_sim_process.hpp"
#include "servebench/results/in_service_file.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

// Stops whatever in-service server service.pid names when the test ends, however it ends.
struct ServiceGuard {
  std::filesystem::path pid_file;
  ~ServiceGuard() {
    if (auto pid = util::read_file(pid_file); pid && !pid->empty()) kill(std::stoi(*pid), SIGKILL);
  }
};

std::string in_service_campaign(const std::string& url) {
  return "name: e2e-in-service\n"
         "protocol: {num_prompts: \"2\", warmup_requests: 0, client_lag_limit: 1000}\n"
         "arms:\n"
         "  - name: a\n"
         "    engine: sim\n"
         "    gate: false\n"
         "    launch: \"" + sim_launch() + "\"\n"
         "    in_service: {url: \"" + url + "\", restore_check: facts, restore_timeout_s: 60}\n"
         "    before: \"sh stop.sh\"\n"
         "    after: \"sh start.sh\"\n"
         "scenarios:\n"
         "  - {name: s, isl: 64, osl: 8, concurrency: [1]}\n";
}

TEST(CampaignInService, ARestoreWithOtherFactsIsLoudAndTheSameFactsAreRestored) {
  const auto dir = campaign_temp_dir("in_service");
  ChildProcess original = start_servebench(
      {"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--max-running-requests", "32", "--port", "0",
       "--sim-time-scale", "0", "--log-level", "warning"},
      "in_service_original");
  const auto line = original.read_line(std::chrono::seconds(60));
  ASSERT_TRUE(line && line->starts_with(k_listening_prefix)) << line.value_or("(no line)");
  const std::string url = line->substr(k_listening_prefix.size());
  const std::string port = url.substr(url.rfind(':') + 1);
  write_text(dir / "service.pid", std::to_string(original.pid()));
  ServiceGuard guard{dir / "service.pid"};
  // The operator's scripts: stop the service, later start it again (here with --max-running-requests 16).
  write_text(dir / "stop.sh", "kill $(cat service.pid)\n");
  const auto start_script = [&](const std::string& mrr) {
    write_text(dir / "start.sh", "servebench serve-sim --hw h200 --model llama-3.1-8b --max-running-requests " + mrr +
                                     " --port " + port + " --sim-time-scale 0 --log-level warning > restored.log 2>&1 &\n"
                                     "echo $! > service.pid\n");
  };
  write_text(dir / "c.yaml", in_service_campaign(url));
  start_script("16");
  const auto failed = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(180), "failed");
  EXPECT_EQ(failed.exit_code, 1) << failed.out << failed.err;
  EXPECT_NE(failed.out.find("arm a: IN-SERVICE RESTORE FAILED: " + url), std::string::npos) << failed.out;
  EXPECT_NE(failed.out.find("max_running_requests 32 → 16"), std::string::npos) << failed.out;
  ASSERT_TRUE(original.wait_exit(std::chrono::seconds(10)).has_value()) << "the before hook stopped the original";
  auto record = results::read_in_service(dir / "out/arms/a/in_service.json");
  ASSERT_TRUE(record && *record);
  EXPECT_EQ((*record)->restored, std::optional<bool>(false));
  ASSERT_TRUE((*record)->before && (*record)->before->facts);
  EXPECT_EQ((*record)->before->facts->max_running_requests, 32);
  ASSERT_TRUE((*record)->after && (*record)->after->facts);
  EXPECT_EQ((*record)->after->facts->max_running_requests, 16);
  EXPECT_EQ((*record)->differences, std::vector<std::string>{"max_running_requests 32 → 16"});
  const auto status = util::read_file(dir / "out/status.txt").value_or("");
  EXPECT_NE(status.find("IN-SERVICE RESTORE FAILED"), std::string::npos) << status;
  EXPECT_EQ(read_run_ledger(dir / "out").latest().at(0).status, results::PointStatus::ok) << "the points themselves are fine";
  // The report of that run opens with the failure, in both formats, and lists the assets it ran with.
  const auto report = run_servebench({"report", "out"}, dir, std::chrono::seconds(60), "report");
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const auto md = util::read_file(dir / "out/report.md").value_or("");
  const auto banner = md.find("> **RESTORE FAILED — arm a: the in-service server at " + url);
  ASSERT_NE(banner, std::string::npos) << md;
  EXPECT_LT(banner, md.find("## Campaign")) << "the banner comes first";
  EXPECT_NE(md.find("max_running_requests 32 → 16"), std::string::npos);
  bool hook_listed = false;
  for (const auto line : util::split(md, '\n')) {
    hook_listed = hook_listed || (line.starts_with("| hook ") && line.find("stop.sh") != std::string_view::npos);
  }
  EXPECT_TRUE(hook_listed) << "the appendix lists the hook script with its checksum\n" << md;
  const auto html = util::read_file(dir / "out/report.html").value_or("");
  EXPECT_NE(html.find("<div class=\"banner\" role=\"alert\">RESTORE FAILED — arm a"), std::string::npos);

  // The service now runs with 16; a second campaign that restarts it the same way restores it.
  write_text(dir / "c.yaml", in_service_campaign(url));
  const auto same = run_servebench({"campaign", "run", "c.yaml", "--out", "again"}, dir, std::chrono::seconds(180), "same");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("arm a: in-service server " + url + " restored (health and facts identical)"), std::string::npos)
      << same.out;
  record = results::read_in_service(dir / "again/arms/a/in_service.json");
  ASSERT_TRUE(record && *record);
  EXPECT_EQ((*record)->restored, std::optional<bool>(true));
  EXPECT_TRUE((*record)->differences.empty());
}

TEST(CampaignInService, AnInServiceServerThatDoesNotAnswerStopsTheArmBeforeItsHooks) {
  const auto dir = campaign_temp_dir("in_service_down");
  write_text(dir / "stop.sh", "touch stopped\n");
  write_text(dir / "start.sh", "touch started\n");
  write_text(dir / "c.yaml", in_service_campaign("http://127.0.0.1:1"));
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(120));
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("does not answer before the before hook"), std::string::npos) << run.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "stopped")) << "before must not run";
  EXPECT_FALSE(std::filesystem::exists(dir / "started")) << "nor after";
}

}  // namespace
}  // namespace servebench::e2e
