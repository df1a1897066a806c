// Live tests against a real llama.cpp llama-server (ctest label `live`). They run when
// SERVEBENCH_LLAMA_SERVER names the llama-server binary and SERVEBENCH_LLAMA_MODEL a GGUF model
// (docs/engines.md: how to build one from llama.cpp's source and make a tiny random-weight
// model), and skip with the reason otherwise. Each test starts its own server on a free loopback
// port: bench closed and open loop (llama-server closes the connection after every streamed
// response), flush + hit-rate verification, the server's counter deltas, TPOT against the
// server's own per-token time, and a two-arm campaign.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include <boost/json.hpp>

#include "e2e/bench_process.hpp"
#include "e2e/campaign_process.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;

struct LiveEnv {
  std::string server, model, why_not;
};

LiveEnv live_env() {
  LiveEnv e;
  const char* server = std::getenv("SERVEBENCH_LLAMA_SERVER");
  const char* model = std::getenv("SERVEBENCH_LLAMA_MODEL");
  if (server == nullptr || *server == '\0') {
    e.why_not = "skipped: SERVEBENCH_LLAMA_SERVER is not set (the path of a llama-server binary; docs/engines.md)";
  } else if (!std::filesystem::is_regular_file(server)) {
    e.why_not = std::string("skipped: SERVEBENCH_LLAMA_SERVER=") + server + " is not a file";
  } else if (model == nullptr || *model == '\0') {
    e.why_not = "skipped: SERVEBENCH_LLAMA_MODEL is not set (the path of a GGUF model; docs/engines.md)";
  } else if (!std::filesystem::is_regular_file(model)) {
    e.why_not = std::string("skipped: SERVEBENCH_LLAMA_MODEL=") + model + " is not a file";
  } else {
    e.server = server;
    e.model = model;
  }
  return e;
}

#define SKIP_UNLESS_LIVE(env)                        \
  const LiveEnv env = live_env();                    \
  if (!env.why_not.empty()) GTEST_SKIP() << env.why_not

// A free loopback port (llama-server needs a number; the race with another binder is remote).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t n = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  ::close(fd);
  return ntohs(a.sin_port);
}

// The launch flags every live server gets: metrics for the counters, a slot save path so slots
// can be erased (flush), no host-memory prompt cache (cold runs), a small context.
std::string server_flags(const LiveEnv& env, const std::filesystem::path& dir, int slots) {
  return fmt::format("-m {} --host 127.0.0.1 -np {} -c {} --metrics --slot-save-path {} --cache-ram 0", env.model,
                     slots, 1024 * slots, dir.string());
}

struct LlamaServer {
  std::filesystem::path dir;
  int port = free_port();
  std::string url = "http://127.0.0.1:" + std::to_string(port);
  ChildProcess child;

  LlamaServer(const LiveEnv& env, const std::string& name, int slots = 4)
      : dir(bench_temp_dir("live_" + name)),
        child(util::shell_split(env.server + " " + server_flags(env, dir, slots) + " --port " +
                                      std::to_string(port))
                  .value_or(std::vector<std::string>{}),
              {{}, dir / "server_stdout.txt", dir / "server_stderr.txt"}) {}

  // Polls /health until 200 (the model is loaded), for at most two minutes.
  bool ready() {
    auto client = http::BlockingClient::create(url);
    if (!client) return false;
    for (int i = 0; i < 1200; ++i) {
      auto r = (*client)->send({http::Method::get, "/health", "", "application/json", {}}, std::chrono::seconds(2));
      if (r && r->status == 200) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  Finished bench(std::vector<std::string> extra) const {
    std::vector<std::string> a{"bench", "--backend", "llamacpp", "--base-url", url, "--no-progress",
                               "--output-file", (dir / "out.jsonl").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_servebench(a, dir);
  }
  json::object result() const {
    const auto lines = util::split(util::trim(util::read_file(dir / "out.jsonl").value_or("")), '\n');
    auto v = util::parse_json(lines.back(), "out.jsonl");
    return v && v->is_object() ? v->as_object() : json::object{};
  }
  std::string log() const { return util::read_file(dir / "server_stderr.txt").value_or(""); }
};

double num(const json::object& o, std::string_view key) { return util::json_number(o, key).value_or(-1); }

TEST(LiveLlamaServer, BenchClosedLoopHasNoFailuresAndExactCounts) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "closed");
  ASSERT_TRUE(s.ready()) << s.log();
  const Finished r = s.bench({"--num-prompts", "16", "--max-concurrency", "4", "--random-input-len", "32",
                              "--random-output-len", "16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto o = s.result();
  EXPECT_EQ(num(o, "completed"), 16);
  EXPECT_EQ(num(o, "failed"), 0);  // llama-server closes the connection after each stream
  EXPECT_EQ(num(o, "total_output_tokens"), 16 * 16);
  EXPECT_EQ(num(o, "output_token_mismatches"), 0);
  EXPECT_TRUE(o.at("client").as_object().at("healthy").as_bool());
}

TEST(LiveLlamaServer, BenchOpenLoopHasNoFailures) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "open");
  ASSERT_TRUE(s.ready()) << s.log();
  const Finished r = s.bench({"--num-prompts", "24", "--request-rate", "8", "--random-input-len", "32",
                              "--random-output-len", "16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto o = s.result();
  EXPECT_EQ(num(o, "completed"), 24);
  EXPECT_EQ(num(o, "failed"), 0);
  EXPECT_GT(num(o, "median_ttft_from_intended_ms"), 0);
}

TEST(LiveLlamaServer, FlushVerifiesAColdCacheAndCountersMoveByTheRun) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "flush");
  ASSERT_TRUE(s.ready()) << s.log();
  auto adapter = engines::make_adapter("llamacpp");
  ASSERT_TRUE(adapter);
  auto client = http::BlockingClient::create(s.url);
  ASSERT_TRUE(client);
  const auto before = (*adapter)->snapshot(**client);
  ASSERT_TRUE(before) << before.error().message;
  const Finished r = s.bench({"--num-prompts", "8", "--max-concurrency", "2", "--random-input-len", "48",
                              "--random-output-len", "12", "--flush-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto after = (*adapter)->snapshot(**client);
  ASSERT_TRUE(after) << after.error().message;
  const auto o = s.result();
  const auto& cache = o.at("cache").as_object();
  EXPECT_TRUE(cache.at("flushed").as_bool());
  ASSERT_FALSE(cache.at("hit_rate").is_null());
  EXPECT_LE(util::json_number(cache, "hit_rate").value_or(1), 0.05);  // random prompts share no prefix
  // The server generated exactly what the run (plus its warmup) asked for.
  ASSERT_TRUE(before->generation_tokens && after->generation_tokens);
  const double generated = *after->generation_tokens - *before->generation_tokens;
  EXPECT_GE(generated, num(o, "total_output_tokens"));
  EXPECT_LE(generated, num(o, "total_output_tokens") + 32.0 * std::max(1.0, num(o, "warmup_requests")));
}

TEST(LiveLlamaServer, TpotAgreesWithTheServersOwnPerTokenTime) {
  SKIP_UNLESS_LIVE(env);
  LlamaServer s(env, "tpot", 1);
  ASSERT_TRUE(s.ready()) << s.log();
  auto adapter = engines::make_adapter("llamacpp");
  ASSERT_TRUE(adapter);
  auto client = http::BlockingClient::create(s.url);
  ASSERT_TRUE(client);
  const auto metrics = [&] {
    auto r = (*client)->send({http::Method::get, "/metrics", "", "text/plain", {}}, std::chrono::seconds(10));
    return r ? wire::parse_prometheus(r->body) : std::vector<wire::Sample>{};
  };
  const auto b = metrics();
  const Finished r = s.bench({"--num-prompts", "4", "--max-concurrency", "1", "--random-input-len", "16",
                              "--random-output-len", "64", "--warmup-requests", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto a = metrics();
  const auto seconds = [](const std::vector<wire::Sample>& m) {
    return wire::sum_metric(m, "llamacpp:tokens_predicted_seconds_total").value_or(0);
  };
  const auto tokens = [](const std::vector<wire::Sample>& m) {
    return wire::sum_metric(m, "llamacpp:tokens_predicted_total").value_or(0);
  };
  ASSERT_GT(tokens(a) - tokens(b), 0);
  // The server's own time per generated token (its `timings.predicted_per_token_ms`, summed).
  const double server_ms = 1e3 * (seconds(a) - seconds(b)) / (tokens(a) - tokens(b));
  const double tpot_ms = num(s.result(), "mean_tpot_ms");
  EXPECT_NEAR(tpot_ms, server_ms, 0.10 * server_ms + 0.2) << "client TPOT " << tpot_ms << " ms, server " << server_ms;
}

TEST(LiveLlamaServer, TwoArmCampaignHasNoFailures) {
  SKIP_UNLESS_LIVE(env);
  const auto dir = campaign_temp_dir("live_campaign");
  const auto arm = [&](const std::string& name, int slots) {
    return "  - {name: " + name + ", engine: llamacpp, launch: \"" + env.server + " " +
           server_flags(env, dir, slots) + " --port {port}\", ready_timeout_s: 120}\n";
  };
  write_text(dir / "c.yaml", "name: live\nprotocol:\n  num_prompts: \"max(2, c)\"\n  warmup_requests: 1\n"
                             "arms:\n" + arm("np2", 2) + arm("np4", 4) +
                             "scenarios:\n  - {name: chat, isl: 32, osl: 16, concurrency: [1, 2]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto ledger = read_run_ledger(dir / "out");
  ASSERT_EQ(ledger.latest().size(), 4u);
  for (const auto& p : ledger.latest()) {
    EXPECT_EQ(p.status, results::PointStatus::ok) << p.arm << ": " << p.reason;
    EXPECT_EQ(p.completed, p.num_prompts);
  }
}

}  // namespace
}  // namespace servebench::e2e
