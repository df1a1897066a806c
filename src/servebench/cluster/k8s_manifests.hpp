#pragma once
// `campaign run --executor k8s --emit DIR`: the campaign as Kubernetes objects to apply, no
// cluster needed to write them (docs/scale-out.md). One ConfigMap holds the campaign as the
// clients run it (every arm attaching to its server on localhost); each single-node arm becomes a
// batch/v1 Job whose pod runs the arm's launch command as a native sidecar container `server`
// (GPUs from the arm as nvidia.com/gpu) and the campaign's client as container `client`, which
// measures the arm into its own run directory on a shared volume; a multi-node arm becomes a
// LeaderWorkerSet of `nodes` pods whose ranks get the engine's multi-node flags. Afterwards
// `servebench campaign merge` joins the jobs' run directories.
#include <filesystem>
#include <string>
#include <vector>

#include "servebench/campaign/spec.hpp"
#include "servebench/recipe/render_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::cluster {

struct K8sOptions {
  std::string image = "servebench:latest";  // the client's image (and the server's for simulated arms)
  std::string server_image;                 // the engine's image for other arms ("" → image)
  std::string volume_claim = "servebench-runs";  // a ReadWriteMany claim the jobs write their run directories to
  std::string mount = "/runs";
  int port = 30000;  // the port every server listens on inside its pod
  bool request_gpus = true;  // nvidia.com/gpu limits from the arm
};

struct Manifest {
  std::string file;  // "<campaign>-<arm>.yaml", "<campaign>-campaign.yaml"
  std::string yaml;
};

// The manifests for every arm of `spec`. Fails (bad_input) for an arm without a launch command
// (nothing to run in the pod) or a multi-node arm of an engine without multi-node flags.
util::Result<std::vector<Manifest>> k8s_manifests(const campaign::CampaignSpec& spec, const recipe::RenderFacts& facts,
                                                  const K8sOptions& options);
// Writes them into `dir` (created); returns the files written.
util::Result<std::vector<std::filesystem::path>> write_k8s_manifests(const std::filesystem::path& dir,
                                                                    const std::vector<Manifest>& manifests);

}  // namespace servebench::cluster
