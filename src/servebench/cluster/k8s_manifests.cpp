#include "servebench/cluster/k8s_manifests.hpp"

#include <cctype>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "servebench/cluster/node_launch.hpp"
#include "servebench/cluster/slurm_executor.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/results/job_record.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::cluster {
namespace {

using campaign::ArmSpec;
using campaign::CampaignSpec;

constexpr std::string_view k_campaign_mount = "/etc/servebench";

// A DNS-1123 label: lowercase letters, digits and '-', at most 63 characters.
std::string object_name(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-');
  }
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

void labels(YAML::Emitter& y, const CampaignSpec& spec, const std::string* arm) {
  y << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "app.kubernetes.io/name" << YAML::Value << "servebench";
  y << YAML::Key << "servebench/campaign" << YAML::Value << object_name(spec.name);
  if (arm != nullptr) y << YAML::Key << "servebench/arm" << YAML::Value << object_name(*arm);
  y << YAML::EndMap;
}

void metadata(YAML::Emitter& y, const CampaignSpec& spec, const std::string& name, const std::string* arm) {
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << name;
  labels(y, spec, arm);
  y << YAML::EndMap;
}

std::string campaign_map_name(const CampaignSpec& spec) { return object_name("servebench-" + spec.name); }

// The launch command the server container runs: {port} fixed, multi-node flags per rank from the
// LeaderWorkerSet's environment.
util::Result<std::string> server_command(const ArmSpec& arm, const recipe::RenderFacts& facts, const K8sOptions& o) {
  auto command = ranked_launch(arm, facts, "$LWS_WORKER_INDEX", "$LWS_LEADER_ADDRESS");
  if (!command) return std::unexpected(command.error());
  return util::replace_all(*command, "{port}", std::to_string(o.port));
}

void server_container(YAML::Emitter& y, const ArmSpec& arm, const std::string& command, const K8sOptions& o, bool sidecar) {
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << "server";
  y << YAML::Key << "image" << YAML::Value
    << (arm.engine == engines::Engine::sim || o.server_image.empty() ? o.image : o.server_image);
  // A native sidecar (Kubernetes >= 1.29): it starts first, runs beside the client and is stopped
  // when the client exits, so the Job completes.
  if (sidecar) y << YAML::Key << "restartPolicy" << YAML::Value << "Always";
  y << YAML::Key << "command" << YAML::Value << YAML::Flow << YAML::BeginSeq << "/bin/sh" << "-c" << command << YAML::EndSeq;
  if (!arm.env.empty()) {
    y << YAML::Key << "env" << YAML::Value << YAML::BeginSeq;
    for (const auto& e : arm.env) {
      y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << e.name << YAML::Key << "value"
        << YAML::Value << YAML::DoubleQuoted << e.value << YAML::EndMap;
    }
    y << YAML::EndSeq;
  }
  y << YAML::Key << "ports" << YAML::Value << YAML::BeginSeq << YAML::Flow << YAML::BeginMap << YAML::Key
    << "containerPort" << YAML::Value << o.port << YAML::EndMap << YAML::EndSeq;
  if (o.request_gpus) {
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value << YAML::BeginMap
      << YAML::Key << "nvidia.com/gpu" << YAML::Value << gpus_per_node(arm) << YAML::EndMap << YAML::EndMap;
  }
  y << YAML::EndMap;
}

void client_container(YAML::Emitter& y, const CampaignSpec& spec, const ArmSpec& arm, const K8sOptions& o) {
  const std::string out = fmt::format("{}/{}/{}", o.mount, spec.name, results::job_dir_ref(arm.name, 1));
  y << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << "client";
  y << YAML::Key << "image" << YAML::Value << o.image;
  y << YAML::Key << "command" << YAML::Value << YAML::Flow << YAML::BeginSeq << "servebench" << "campaign" << "run"
    << fmt::format("{}/{}.yaml", k_campaign_mount, spec.name) << "--only" << "arm=" + arm.name << "--out" << out
    << "--no-progress" << YAML::EndSeq;
  y << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq;
  y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "runs" << YAML::Key << "mountPath"
    << YAML::Value << o.mount << YAML::EndMap;
  y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "campaign" << YAML::Key << "mountPath"
    << YAML::Value << std::string(k_campaign_mount) << YAML::Key << "readOnly" << YAML::Value << true << YAML::EndMap;
  y << YAML::EndSeq;
  y << YAML::EndMap;
}

void volumes(YAML::Emitter& y, const CampaignSpec& spec, const K8sOptions& o) {
  y << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq;
  y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "runs" << YAML::Key << "persistentVolumeClaim"
    << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "claimName" << YAML::Value << o.volume_claim
    << YAML::EndMap << YAML::EndMap;
  y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "campaign" << YAML::Key << "configMap" << YAML::Value
    << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << campaign_map_name(spec) << YAML::EndMap
    << YAML::EndMap;
  y << YAML::EndSeq;
}

// The pod of a single-node arm, or the leader pod of a multi-node one: server sidecar + client.
void client_pod_spec(YAML::Emitter& y, const CampaignSpec& spec, const ArmSpec& arm, const std::string& command,
                     const K8sOptions& o, bool job) {
  y << YAML::BeginMap;
  if (job) y << YAML::Key << "restartPolicy" << YAML::Value << "Never";
  y << YAML::Key << "initContainers" << YAML::Value << YAML::BeginSeq;
  server_container(y, arm, command, o, true);
  y << YAML::EndSeq;
  y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq;
  client_container(y, spec, arm, o);
  y << YAML::EndSeq;
  volumes(y, spec, o);
  y << YAML::EndMap;
}

std::string job_manifest(const CampaignSpec& spec, const ArmSpec& arm, const std::string& command, const K8sOptions& o) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "apiVersion" << YAML::Value << "batch/v1";
  y << YAML::Key << "kind" << YAML::Value << "Job";
  metadata(y, spec, object_name(fmt::format("servebench-{}-{}", spec.name, arm.name)), &arm.name);
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "backoffLimit" << YAML::Value << 1;  // one resubmission; the retry resumes the run directory
  y << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  labels(y, spec, &arm.name);
  y << YAML::EndMap;
  y << YAML::Key << "spec" << YAML::Value;
  client_pod_spec(y, spec, arm, command, o, true);
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

std::string leader_worker_manifest(const CampaignSpec& spec, const ArmSpec& arm, const std::string& command,
                                   const K8sOptions& o) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "apiVersion" << YAML::Value << "leaderworkerset.x-k8s.io/v1";
  y << YAML::Key << "kind" << YAML::Value << "LeaderWorkerSet";
  metadata(y, spec, object_name(fmt::format("servebench-{}-{}", spec.name, arm.name)), &arm.name);
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "replicas" << YAML::Value << 1;
  y << YAML::Key << "leaderWorkerTemplate" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "size" << YAML::Value << arm.nodes;
  y << YAML::Key << "restartPolicy" << YAML::Value << "RecreateGroupOnPodRestart";
  y << YAML::Key << "leaderTemplate" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  labels(y, spec, &arm.name);
  y << YAML::EndMap;
  y << YAML::Key << "spec" << YAML::Value;
  client_pod_spec(y, spec, arm, command, o, false);
  y << YAML::EndMap;
  y << YAML::Key << "workerTemplate" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq;
  server_container(y, arm, command, o, false);
  y << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

// The campaign as the clients run it: every arm attaches to the server beside it.
std::string campaign_map(const CampaignSpec& spec, const K8sOptions& o) {
  CampaignSpec attached = spec;
  for (auto& a : attached.arms) {
    a.launch.reset();
    a.base_url = fmt::format("http://127.0.0.1:{}", o.port);
  }
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "apiVersion" << YAML::Value << "v1";
  y << YAML::Key << "kind" << YAML::Value << "ConfigMap";
  metadata(y, spec, campaign_map_name(spec), nullptr);
  y << YAML::Key << "data" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << spec.name + ".yaml" << YAML::Value << YAML::Literal << campaign::resolved_yaml(attached);
  y << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

}  // namespace

util::Result<std::vector<Manifest>> k8s_manifests(const CampaignSpec& spec, const recipe::RenderFacts& facts,
                                                  const K8sOptions& options) {
  std::vector<Manifest> out;
  out.push_back({spec.name + "-campaign.yaml", campaign_map(spec, options)});
  for (const auto& arm : spec.arms) {
    if (arm.pd) {
      return util::failf(util::ErrorKind::bad_input,
                         "arm '{}' is prefill/decode-disaggregated: the k8s executor writes one server per arm and "
                         "no manifest for its three parts (run it with --executor local)", arm.name);
    }
    if (!arm.launch) {
      return util::failf(util::ErrorKind::bad_input,
                         "arm '{}' has no launch command: there is nothing to run in its pod (attach arms run with "
                         "--executor local)", arm.name);
    }
    auto command = server_command(arm, facts, options);
    if (!command) return std::unexpected(command.error());
    out.push_back({fmt::format("{}-{}.yaml", spec.name, arm.name),
                   arm.nodes > 1 ? leader_worker_manifest(spec, arm, *command, options)
                                 : job_manifest(spec, arm, *command, options)});
  }
  return out;
}

util::Result<std::vector<std::filesystem::path>> write_k8s_manifests(const std::filesystem::path& dir,
                                                                    const std::vector<Manifest>& manifests) {
  if (auto ok = util::make_dirs(dir); !ok) return std::unexpected(ok.error());
  std::vector<std::filesystem::path> written;
  for (const auto& m : manifests) {
    const auto path = dir / m.file;
    if (auto ok = util::write_file_atomic(path, m.yaml); !ok) return std::unexpected(ok.error());
    written.push_back(path);
  }
  return written;
}

}  // namespace servebench::cluster
