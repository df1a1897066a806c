// The serve-sim command itself: --help, exit codes, signals, recorded flags, step log lines.
#include <gtest/gtest.h>

#include <cctype>
#include <csignal>

#include "e2e/serve_sim_http.hpp"
#include "servebench/flags/flag_registry.hpp"

namespace servebench::e2e {

namespace {

// `flag` appears as a whole word (not as the prefix of a longer flag).
bool listed(const std::string& text, const std::string& flag) {
  for (auto at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
    const char next = at + flag.size() < text.size() ? text[at + flag.size()] : ' ';
    if (next != '-' && !std::isalnum(static_cast<unsigned char>(next))) return true;
  }
  return false;
}

}  // namespace

TEST(ServeSimCli, HelpDocumentsEveryFlagAndWhichAreRecordedOnly) {
  ChildProcess help = start_servebench({"serve-sim", "--help"}, "serve_sim_help");
  const std::string text = help.read_rest();
  ASSERT_EQ(help.wait_exit(), 0);
  const auto registry = flags::flag_registry(flags::Dialect::sglang).value();
  for (const auto& spec : registry->flags()) {
    EXPECT_TRUE(listed(text, spec.name)) << spec.name;
    for (const auto& alias : spec.aliases) {
      if (alias != "--model") {  // --model is the card here
        EXPECT_TRUE(listed(text, alias)) << alias;
      }
    }
  }
  for (const char* flag : {"--hw", "--model", "--model-path", "--log-level", "--sim-time-scale", "--sim-stamp-events",
                           "--sim-oracle", "--sim-seed", "--sim-accept-rate", "--sim-eos-probability",
                           "--sim-flush-keeps-host-tier", "--sim-bandwidth-efficiency", "--sim-max-body-mb"}) {
    EXPECT_TRUE(listed(text, flag)) << flag;
  }
  const auto recorded = text.find("recorded only (no effect");
  ASSERT_NE(recorded, std::string::npos);
  EXPECT_GT(text.find("--moe-runner-backend"), recorded);  // in the recorded group
  EXPECT_LT(text.find("--tp-size"), recorded);             // simulated flags come before it
}

TEST(ServeSimCli, SigtermShutsDownCleanly) {
  Sim sim({}, "serve_sim_sigterm");
  ASSERT_TRUE(sim.up());
  EXPECT_EQ(sim.get("/health").status, 200);
  sim.process.signal(SIGTERM);
  EXPECT_EQ(sim.process.wait_exit(), 0) << sim.process.stderr_text();
}

TEST(ServeSimCli, SigintShutsDownCleanly) {
  Sim sim({}, "serve_sim_sigint");
  ASSERT_TRUE(sim.up());
  sim.process.signal(SIGINT);
  EXPECT_EQ(sim.process.wait_exit(), 0) << sim.process.stderr_text();
}

TEST(ServeSimCli, BindFailureExits3NamingTheAddress) {
  Sim first({}, "serve_sim_bind_first");
  ASSERT_TRUE(first.up());
  const std::string port = std::to_string(first.port());
  ChildProcess second = start_servebench({"serve-sim", "--port", port, "--log-level", "error"}, "serve_sim_bind_second");
  EXPECT_EQ(second.wait_exit(std::chrono::seconds(30)), 3);
  EXPECT_NE(second.stderr_text().find("127.0.0.1:" + port), std::string::npos) << second.stderr_text();
}

TEST(ServeSimCli, BadFlagValuesExit2) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"serve-sim", "--tp-size", "three"},
                                                                {"serve-sim", "--kv-cache-dtype", "fp3"},
                                                                {"serve-sim", "--model", "no-such-model"},
                                                                {"serve-sim", "--no-such-flag"},
                                                                {"serve-sim", "--tp-size", "3", "--ep-size", "2"},
                                                                {"serve-sim", "--sim-max-body-mb", "0"},
                                                                {"serve-sim", "--sim-time-scale", "nan"},
                                                                {"serve-sim", "--sim-time-scale", "1e300"}}) {
    ChildProcess p = start_servebench(args, "serve_sim_bad_flag");
    EXPECT_EQ(p.wait_exit(std::chrono::seconds(30)), 2) << args.back() << ": " << p.stderr_text();
  }
}

TEST(ServeSimCli, CookbookCommandRunsAndEchoesRecordedFlags) {
  // A cookbook-style SGLang command with the program name swapped: the model card comes from
  // --model-path, unmodelled flags are recorded.
  Sim sim({"--model-path",
           "zai-org/GLM-5.3-Flash",
           "--hw",
           "b200",
           "--tp",
           "4",
           "--ep-size",
           "4",
           "--moe-runner-backend",
           "flashinfer_trtllm",
           "--kv-cache-dtype",
           "fp8_e4m3",
           "--trust-remote-code",
           "--cuda-graph-bs",
           "1",
           "2",
           "4",
           "--enable-metrics",
           "--speculative-algorithm",
           "EAGLE",
           "--speculative-num-steps",
           "5",
           "--speculative-eagle-topk",
           "1",
           "--speculative-num-draft-tokens",
           "6"},
          "serve_sim_cookbook");
  ASSERT_TRUE(sim.up());
  const auto info = boost::json::parse(sim.get("/server_info").body).as_object();
  EXPECT_EQ(info.at("tp_size"), 4);
  EXPECT_EQ(info.at("kv_cache_dtype"), "fp8_e4m3");
  EXPECT_EQ(info.at("speculative_num_draft_tokens"), 6);
  EXPECT_EQ(info.at("model_path"), "zai-org/GLM-5.3-Flash");
  EXPECT_EQ(info.at("sim").at("model"), "glm-5.3-flash");
  const auto& recorded = info.at("recorded_flags").as_object();
  EXPECT_EQ(recorded.at("--moe-runner-backend"), "flashinfer_trtllm");
  EXPECT_EQ(recorded.at("--trust-remote-code"), "");
  EXPECT_EQ(recorded.at("--cuda-graph-bs"), "1 2 4");
  EXPECT_EQ(boost::json::parse(sim.get("/v1/models").body).at("data").at(0).at("id"), "zai-org/GLM-5.3-Flash");
}

TEST(ServeSimCli, InfoLogLevelPrintsSglangStepLines) {
  Sim sim({"--log-level", "info", "--decode-log-interval", "5"}, "serve_sim_log");
  ASSERT_TRUE(sim.up());
  ASSERT_EQ(sim.post("/v1/completions", R"({"prompt":"log me","max_tokens":40,"ignore_eos":true})").status, 200);
  sim.process.signal(SIGTERM);
  ASSERT_EQ(sim.process.wait_exit(), 0);
  const std::string log = sim.process.stderr_text();
  EXPECT_NE(log.find("KV Cache is allocated. #tokens: "), std::string::npos) << log;
  EXPECT_NE(log.find("] Prefill batch. #new-seq: 1, #new-token: "), std::string::npos) << log;
  const auto decode = log.find("] Decode batch. #running-req: 1, #token: ");
  ASSERT_NE(decode, std::string::npos) << log;
  for (const char* part : {"token usage: ", "cuda graph: True", "gen throughput (token/s): ", "#queue-req: 0"}) {
    EXPECT_NE(log.find(part, decode), std::string::npos) << part;
  }
}

}  // namespace servebench::e2e
