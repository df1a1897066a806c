// Secrets never stored or shown: keys planted in a launch command, its env words, the arm's env, a
// hook's output and the environment a campaign reads its key from appear nowhere in the run
// directory, the report, or what the commands print — and the key still reaches the server.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "e2e/serve_sim_http.hpp"

namespace servebench::e2e {
namespace {

// Each file under `dir` (recursively) that contains `needle`.
std::vector<std::string> files_containing(const std::filesystem::path& dir, const std::string& needle) {
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find(needle) != std::string::npos) found.push_back(e.path().string());
  }
  return found;
}

TEST(CampaignSecrets, PlantedSecretsAppearNowhereAndTheKeyStillReachesTheServer) {
  const auto dir = campaign_temp_dir("secrets");
  const auto out = dir / "out";
  const std::string key = "sk-planted-key-7c1d";          // the server's --api-key, given by value
  const std::string token = "hf-planted-token-9e2a";      // an env word of the launch command
  const std::string env_secret = "planted-env-secret-4b4f";  // the arm's env
  const std::string bearer = "planted-bearer-0f3c";       // a hook prints a header
  ASSERT_EQ(setenv("SB_E2E_SERVER_KEY", key.c_str(), 1), 0);
  write_text(dir / "c.yaml",
             "name: secrets\n"
             "api_key_env: SB_E2E_SERVER_KEY\n"
             "protocol: {num_prompts: \"2\", warmup_requests: 1, client_lag_limit: 1000}\n"
             "arms:\n"
             "  - name: a\n"
             "    engine: sim\n"
             "    gate: {problems: 2}\n"
             "    env: {DB_SECRET: \"" + env_secret + "\"}\n"
             "    before: \"echo 'Authorization: Bearer " + bearer + "'; echo DB_SECRET=" + env_secret + "\"\n"
             "    launch: \"HF_TOKEN=" + token + " " + sim_launch("--api-key " + key + " --log-level debug") + "\"\n"
             "scenarios:\n"
             "  - {name: s, isl: 64, osl: 8, concurrency: [1]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(120), "run");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto ledger = read_run_ledger(out);
  ASSERT_EQ(ledger.latest().size(), 1u);
  EXPECT_EQ(ledger.latest().front().status, results::PointStatus::ok) << "the key did not reach the server";
  const auto status = run_servebench({"campaign", "status", "out"}, dir, std::chrono::seconds(60), "status");
  EXPECT_EQ(status.exit_code, 0) << status.err;
  const auto report = run_servebench({"report", "out"}, dir, std::chrono::seconds(60), "report");
  ASSERT_EQ(report.exit_code, 0) << report.err;

  // The captured stdout/stderr of every command above are in dir; the input file is the only
  // place the secrets may be.
  std::filesystem::remove(dir / "c.yaml");
  for (const std::string& secret : {key, token, env_secret, bearer}) {
    EXPECT_EQ(files_containing(dir, secret), std::vector<std::string>{}) << secret;
  }
  // What was redacted is still said: the flag, the variable, the hook's header scheme.
  const auto launched = util::read_file(out / "campaign.yaml").value_or("");
  EXPECT_NE(launched.find("--api-key <redacted>"), std::string::npos) << launched;
  EXPECT_NE(launched.find("HF_TOKEN=<redacted>"), std::string::npos) << launched;
  EXPECT_NE(launched.find("api_key_env: \"SB_E2E_SERVER_KEY\""), std::string::npos) << launched;
  const auto hooks = util::read_file(out / "arms/a/hooks.log").value_or("");
  EXPECT_NE(hooks.find("Authorization: Bearer <redacted>"), std::string::npos) << hooks;
  EXPECT_NE(hooks.find("DB_SECRET=<redacted>"), std::string::npos) << hooks;
  unsetenv("SB_E2E_SERVER_KEY");
}

TEST(CampaignSecrets, AnUnsetKeyVariableStopsTheCampaignBeforeAnythingLaunches) {
  const auto dir = campaign_temp_dir("secrets_unset");
  unsetenv("SB_E2E_NO_SUCH_KEY");
  write_text(dir / "c.yaml", "name: unset\n"
                             "arms:\n"
                             "  - {name: a, engine: sim, api_key_env: SB_E2E_NO_SUCH_KEY, launch: \"" + sim_launch() + "\"}\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 64, osl: 8, concurrency: [1]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(60), "run");
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE((run.out + run.err).find("SB_E2E_NO_SUCH_KEY"), std::string::npos) << run.out << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out/arms/a/server.log"));
}

TEST(ServeSimApiKey, RequestsWithoutTheKeyAre401AndServerInfoDoesNotEchoIt) {
  const std::string key = "sk-sim-own-key-51aa";
  Sim sim({"--api-key", key}, "serve_sim_api_key");
  ASSERT_TRUE(sim.up());
  EXPECT_EQ(sim.get("/health").status, 200);  // open, as SGLang's middleware leaves it
  EXPECT_EQ(sim.get("/metrics").status, 200);
  EXPECT_EQ(sim.get("/v1/models").status, 401);
  EXPECT_EQ(sim.post("/v1/completions", R"({"model":"m","prompt":"hi","max_tokens":2})").status, 401);
  auto with_key = [&](http::Method m, std::string target, std::string body, std::string bearer) {
    auto r = sim.client->send({m, std::move(target), std::move(body), "application/json", {{"Authorization", "Bearer " + bearer}}},
                              60s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  };
  EXPECT_EQ(with_key(http::Method::post, "/v1/completions", R"({"model":"m","prompt":"hi","max_tokens":2})", "wrong").status, 401);
  EXPECT_EQ(with_key(http::Method::post, "/v1/completions", R"({"model":"m","prompt":"hi","max_tokens":2})", key).status, 200);
  const auto info = with_key(http::Method::get, "/server_info", "", key);
  ASSERT_EQ(info.status, 200);
  EXPECT_EQ(info.body.find(key), std::string::npos) << info.body;
  EXPECT_EQ(with_key(http::Method::post, "/flush_cache", "", key).status, 200);
  EXPECT_EQ(sim.process.stderr_text().find(key), std::string::npos);
  EXPECT_EQ(sim.process.stdout_text().find(key), std::string::npos);
}

}  // namespace
}  // namespace servebench::e2e
