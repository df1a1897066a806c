#include "servebench/report/report_files.hpp"

#include <algorithm>
#include <sstream>

#include "servebench/report/exports.hpp"
#include "servebench/report/html_renderer.hpp"
#include "servebench/report/markdown_renderer.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace fs = std::filesystem;
namespace {

bool wants(const std::vector<OutputFormat>& formats, OutputFormat f) {
  return std::find(formats.begin(), formats.end(), f) != formats.end();
}

template <class Write>
std::string to_text(Write write) {
  std::ostringstream out;
  write(out);
  return out.str();
}

std::optional<fs::path> baseline_from_campaign(const RunInput& run) {
  if (!run.campaign.baseline_ledger) return std::nullopt;
  const fs::path path = fs::path(run.label) / *run.campaign.baseline_ledger;
  return fs::exists(path) ? std::optional(path) : std::nullopt;
}

}  // namespace

util::Result<std::vector<OutputFormat>> parse_formats(std::string_view list) {
  std::vector<OutputFormat> out;
  for (const auto part : util::split(list, ',')) {
    const std::string name = util::to_lower(util::trim(part));
    OutputFormat f;
    if (name == "md" || name == "markdown")
      f = OutputFormat::markdown;
    else if (name == "html")
      f = OutputFormat::html;
    else if (name == "json")
      f = OutputFormat::json;
    else
      return util::failf(util::ErrorKind::bad_input, "unknown report format '{}'; expected md, html or json", name);
    if (!wants(out, f)) out.push_back(f);
  }
  return out;
}

util::Result<ReportInputs> load_report_inputs(const std::vector<fs::path>& dirs,
                                              const std::optional<fs::path>& baseline_path) {
  std::vector<RunInput> runs;
  for (const auto& dir : dirs) {
    auto run = read_run_input(dir);
    if (!run) return std::unexpected(run.error());
    runs.push_back(std::move(*run));
  }
  std::optional<fs::path> base = baseline_path;
  std::optional<std::string> label;
  if (!base && !runs.empty()) {
    base = baseline_from_campaign(runs.front());
    label = runs.front().campaign.baseline_name;
  }
  ReportInputs in{merge_runs(std::move(runs)), std::nullopt};
  if (base) {
    auto b = read_baseline(*base);
    if (!b) return std::unexpected(b.error());
    if (label) b->label = *label;
    in.baseline = std::move(*b);
  }
  return in;
}

std::vector<std::pair<std::string, std::string>> render_report(const ReportInputs& in, const ReportOptions& options,
                                                               const std::vector<OutputFormat>& formats) {
  std::vector<std::pair<std::string, std::string>> files;
  const bool document = wants(formats, OutputFormat::markdown) || wants(formats, OutputFormat::html);
  const Document doc = document ? build_report(in.set, in.baseline ? &*in.baseline : nullptr, options) : Document{};
  if (wants(formats, OutputFormat::markdown))
    files.emplace_back(".md", to_text([&](auto& o) { render_markdown(doc, o); }));
  if (wants(formats, OutputFormat::html)) files.emplace_back(".html", to_text([&](auto& o) { render_html(doc, o); }));
  if (wants(formats, OutputFormat::json)) {
    files.emplace_back(".cookbook.json", to_text([&](auto& o) { write_cookbook_rows(in.set, o); }));
    files.emplace_back(".inferencex.csv", to_text([&](auto& o) { write_inferencex_csv(in.set, o); }));
    files.emplace_back(".vllm.json", to_text([&](auto& o) { write_vllm_results(in.set, o); }));
  }
  return files;
}

util::Result<std::vector<fs::path>> write_report(const ReportInputs& in, const ReportOptions& options,
                                                 const std::vector<OutputFormat>& formats, const fs::path& prefix) {
  std::vector<fs::path> written;
  if (prefix.has_parent_path()) {
    if (auto ok = util::make_dirs(prefix.parent_path()); !ok) return std::unexpected(ok.error());
  }
  for (const auto& [suffix, content] : render_report(in, options, formats)) {
    const fs::path path = prefix.string() + suffix;
    if (auto ok = util::write_file_atomic(path, content); !ok) return std::unexpected(ok.error());
    written.push_back(path);
  }
  return written;
}

}  // namespace servebench::report
