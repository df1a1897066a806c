// The Kubernetes manifests of the demo campaign, read back with yaml-cpp: kinds, GPU resources,
// the server and client commands, and the volumes the run directories go to.
#include "servebench/cluster/k8s_manifests.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "servebench/campaign/spec.hpp"

namespace servebench::cluster {
namespace {

campaign::CampaignSpec demo() {
  auto spec = campaign::read_campaign(std::string(SERVEBENCH_SOURCE_DIR) + "/examples/demo.yaml");
  EXPECT_TRUE(spec) << spec.error().message;
  return spec.value_or(campaign::CampaignSpec{});
}

std::vector<Manifest> manifests(const campaign::CampaignSpec& spec, const K8sOptions& o = {}) {
  auto facts = recipe::load_render_facts();
  EXPECT_TRUE(facts);
  auto m = k8s_manifests(spec, *facts, o);
  EXPECT_TRUE(m) << m.error().message;
  return m.value_or(std::vector<Manifest>{});
}

std::vector<std::string> strings(const YAML::Node& seq) {
  std::vector<std::string> out;
  for (const auto& n : seq) out.push_back(n.as<std::string>());
  return out;
}

TEST(K8sManifests, DemoCampaignIsAConfigMapAndOneJobPerArm) {
  const auto spec = demo();
  const auto m = manifests(spec);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].file, "demo-campaign.yaml");
  const YAML::Node map = YAML::Load(m[0].yaml);
  EXPECT_EQ(map["kind"].as<std::string>(), "ConfigMap");
  EXPECT_EQ(map["metadata"]["name"].as<std::string>(), "servebench-demo");
  // The clients' campaign attaches to the server beside them: it parses, and no arm launches.
  auto attached = campaign::parse_campaign(map["data"]["demo.yaml"].as<std::string>(), "configmap", "/");
  ASSERT_TRUE(attached) << attached.error().message;
  ASSERT_EQ(attached->arms.size(), 2u);
  for (const auto& a : attached->arms) {
    EXPECT_FALSE(a.launch.has_value()) << a.name;
    EXPECT_EQ(a.base_url, "http://127.0.0.1:30000");
  }
  for (std::size_t i = 0; i < spec.arms.size(); ++i) {
    const auto& arm = spec.arms[i];
    SCOPED_TRACE(arm.name);
    EXPECT_EQ(m[i + 1].file, "demo-" + arm.name + ".yaml");
    const YAML::Node job = YAML::Load(m[i + 1].yaml);
    EXPECT_EQ(job["apiVersion"].as<std::string>(), "batch/v1");
    EXPECT_EQ(job["kind"].as<std::string>(), "Job");
    EXPECT_EQ(job["metadata"]["labels"]["servebench/arm"].as<std::string>(), arm.name);
    EXPECT_EQ(job["spec"]["backoffLimit"].as<int>(), 1);
    const YAML::Node pod = job["spec"]["template"]["spec"];
    EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "Never");
    ASSERT_EQ(pod["initContainers"].size(), 1u);
    const YAML::Node server = pod["initContainers"][0];
    EXPECT_EQ(server["name"].as<std::string>(), "server");
    EXPECT_EQ(server["restartPolicy"].as<std::string>(), "Always") << "a native sidecar, so the Job completes";
    EXPECT_EQ(server["resources"]["limits"]["nvidia.com/gpu"].as<int>(), arm.gpus);
    const auto command = strings(server["command"]);
    ASSERT_EQ(command.size(), 3u);
    EXPECT_EQ(command[0], "/bin/sh");
    EXPECT_EQ(command[2].find("{port}"), std::string::npos);
    EXPECT_NE(command[2].find("servebench serve-sim --hw rtx-pro-6000"), std::string::npos) << command[2];
    EXPECT_NE(command[2].find("--port 30000"), std::string::npos) << command[2];
    EXPECT_EQ(server["ports"][0]["containerPort"].as<int>(), 30000);
    ASSERT_EQ(pod["containers"].size(), 1u);
    const YAML::Node client = pod["containers"][0];
    EXPECT_EQ(client["name"].as<std::string>(), "client");
    EXPECT_EQ(strings(client["command"]),
              (std::vector<std::string>{"servebench", "campaign", "run", "/etc/servebench/demo.yaml", "--only",
                                        "arm=" + arm.name, "--out", "/runs/demo/jobs/" + arm.name + "-1", "--no-progress"}));
    ASSERT_EQ(client["volumeMounts"].size(), 2u);
    EXPECT_EQ(client["volumeMounts"][0]["mountPath"].as<std::string>(), "/runs");
    ASSERT_EQ(pod["volumes"].size(), 2u);
    EXPECT_EQ(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>(), "servebench-runs");
    EXPECT_EQ(pod["volumes"][1]["configMap"]["name"].as<std::string>(), "servebench-demo");
  }
}

TEST(K8sManifests, MultiNodeArmIsALeaderWorkerSetWithRankedFlags) {
  auto spec = demo();
  spec.arms[1].nodes = 2;  // tp2pp4 over two nodes
  K8sOptions o;
  o.request_gpus = false;
  const auto m = manifests(spec, o);
  ASSERT_EQ(m.size(), 3u);
  const YAML::Node lws = YAML::Load(m[2].yaml);
  EXPECT_EQ(lws["apiVersion"].as<std::string>(), "leaderworkerset.x-k8s.io/v1");
  EXPECT_EQ(lws["kind"].as<std::string>(), "LeaderWorkerSet");
  const YAML::Node t = lws["spec"]["leaderWorkerTemplate"];
  EXPECT_EQ(t["size"].as<int>(), 2);
  const auto leader_server = strings(t["leaderTemplate"]["spec"]["initContainers"][0]["command"])[2];
  const auto worker_server = strings(t["workerTemplate"]["spec"]["containers"][0]["command"])[2];
  EXPECT_EQ(leader_server, worker_server) << "every rank runs one command; the rank comes from the environment";
  // After the last parallelism flag (--pp-size is not one of SGLang's node-flag anchors; --tp-size is).
  EXPECT_NE(leader_server.find("--tp-size 2 --nnodes 2 --node-rank $LWS_WORKER_INDEX --dist-init-addr $LWS_LEADER_ADDRESS:20000 --pp-size 4"),
            std::string::npos)
      << leader_server;
  EXPECT_FALSE(t["leaderTemplate"]["spec"]["initContainers"][0]["resources"].IsDefined()) << "--no-gpu-request";
  EXPECT_EQ(t["leaderTemplate"]["spec"]["containers"][0]["name"].as<std::string>(), "client");
  // The single-node arm stays a Job.
  EXPECT_EQ(YAML::Load(m[1].yaml)["kind"].as<std::string>(), "Job");
}

TEST(K8sManifests, AnArmWithoutALaunchCommandIsRefused) {
  auto spec = demo();
  spec.arms[0].launch.reset();
  spec.arms[0].base_url = "http://127.0.0.1:1";
  auto facts = recipe::load_render_facts();
  ASSERT_TRUE(facts);
  auto m = k8s_manifests(spec, *facts, {});
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("arm 'e7b' has no launch command"), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace servebench::cluster
