// The two command texts of a cookbook page: the plain command (env prefix, the engine's serve
// command, one flag per line indented two spaces) and the Docker command (vendor lines, network,
// mounts, env, image, then the same flags indented four). Lines end in " \" except the last; hint
// lines (and the multi-node header) go above both as "# …" comments.
#include <algorithm>

#include "servebench/recipe/lookup_keys.hpp"
#include "servebench/recipe/page.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

std::string with_comments(const std::vector<std::string>& header, const std::vector<std::string>& hints,
                          const std::vector<std::string>& lines) {
  std::vector<std::string> out = header;
  for (const auto& h : hints) out.push_back(h.empty() ? "#" : "# " + h);
  out.push_back(util::join(lines, " \\\n"));
  return util::join(out, "\n");
}

std::string published_port(const EngineRendering& r, const std::vector<std::string>& flags) {
  for (const auto& f : flags) {
    if (f.starts_with(r.port_flag + " ") || f.starts_with(r.port_flag + "=")) return std::string(util::trim(f.substr(r.port_flag.size() + 1)));
  }
  return r.default_port;
}

bool host_network(const Catalog& c, const PageView& page, const std::string& pd_role) {
  if (page.nnodes > 1 || !pd_role.empty()) return true;
  return c.docker.host_network_when && conditions_hold(*c.docker.host_network_when, page.selection.options);
}

// The docker run options before the image, one per line.
std::vector<std::string> run_options(const Catalog& c, const PageView& page, const std::string& pd_role,
                                     const PlaceholderValues& values) {
  const Option& hw = chosen(c, page.selection, 0);
  const VendorDocker* vendor = c.render.vendor(hw.gpu.vendor);
  if (vendor == nullptr) vendor = c.render.vendor("nvidia");
  std::vector<std::string> out = vendor != nullptr ? vendor->lines : std::vector<std::string>{"docker run"};
  const std::string port = published_port(c.rendering(), page.flags);
  out.push_back(host_network(c, page, pd_role) ? "--network host" : "-p " + port + ":" + port);
  if (page.nnodes > 1 || !pd_role.empty()) {
    for (const auto key : {std::string_view(hw.gpu.vendor), std::string_view(hw.id)}) {
      if (const auto* fabric = c.render.fabric_for(key)) out.insert(out.end(), fabric->begin(), fabric->end());
    }
  }
  if (vendor == nullptr || vendor->hf_cache) out.push_back(c.render.hf_cache_mount);
  for (const auto& m : c.docker.mounts) out.push_back(interpolate(m.text, values));
  const bool hf_token = std::any_of(c.placeholders.begin(), c.placeholders.end(), [](const auto& p) { return p.name == "HF_TOKEN"; });
  if (hf_token) out.push_back(interpolate("--env \"HF_TOKEN={{HF_TOKEN}}\"", values));
  for (const auto& e : page.env) out.push_back("--env " + e);
  out.emplace_back("--ipc=host");
  return out;
}

}  // namespace

std::string plain_command(const Catalog& catalog, const PageView& page, const std::vector<std::string>& header) {
  std::vector<std::string> lines;
  for (const auto& e : page.env) lines.push_back(e);
  lines.push_back(catalog.launcher);
  for (const auto& f : page.flags) lines.push_back("  " + f);
  return with_comments(header, page.hints, lines);
}

std::string docker_command(const Catalog& catalog, const PageView& page, const std::vector<std::string>& header,
                           const std::string& pd_role, const PlaceholderValues& values) {
  const auto options = run_options(catalog, page, pd_role, values);
  std::vector<std::string> lines{options.front()};
  for (std::size_t i = 1; i < options.size(); ++i) lines.push_back("  " + options[i]);
  const std::string* image = lookup(catalog.docker.images, lookup_keys(catalog, page.selection.options, docker_image_patterns()));
  lines.push_back("  " + (image != nullptr ? *image : catalog.rendering().docker_image));
  const std::string run = catalog.docker.run_command.value_or(catalog.rendering().docker_command);
  if (!run.empty()) lines.push_back("  " + run);
  for (const auto& f : page.flags) lines.push_back("    " + f);
  return with_comments(header, page.hints, lines);
}

}  // namespace servebench::recipe
