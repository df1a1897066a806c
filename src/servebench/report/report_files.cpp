#include "servebench/report/report_files.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "servebench/report/exports.hpp"
#include "servebench/report/html_renderer.hpp"
#include "servebench/report/markdown_renderer.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
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
  return std::move(out).str();  // no copy of the rendered text
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
                                              const std::optional<fs::path>& baseline_path,
                                              const std::optional<fs::path>& structure_path) {
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
  ReportInputs in{merge_runs(std::move(runs)), std::nullopt, std::nullopt};
  if (structure_path) {
    auto s = read_baseline_structure(*structure_path);
    if (!s) return std::unexpected(s.error());
    in.structure = std::move(*s);
  }
  if (base) {
    auto b = read_baseline(*base);
    if (!b) return std::unexpected(b.error());
    if (label) b->label = *label;
    in.baseline = std::move(*b);
  }
  return in;
}

namespace {

// Builds the document once and hands each rendered file to `emit` in turn, so only one rendered
// file is in memory at a time (a 100,000-point report renders tens of MB per format).
util::Result<void> render_each(const ReportInputs& in, const ReportOptions& options,
                               const std::vector<OutputFormat>& formats,
                               const std::function<util::Result<void>(std::string, std::string)>& emit) {
  const bool document = wants(formats, OutputFormat::markdown) || wants(formats, OutputFormat::html);
  const Baseline* baseline = in.baseline ? &*in.baseline : nullptr;
  Document doc;
  if (document) {
    doc = in.structure ? build_structured_report(in.set, *in.structure, baseline, options)
                       : build_report(in.set, baseline, options);
  }
  std::vector<std::pair<std::string, std::function<void(std::ostream&)>>> files;
  if (wants(formats, OutputFormat::markdown)) files.emplace_back(".md", [&](std::ostream& o) { render_markdown(doc, o); });
  if (wants(formats, OutputFormat::html)) files.emplace_back(".html", [&](std::ostream& o) { render_html(doc, o); });
  if (wants(formats, OutputFormat::json)) {
    files.emplace_back(".cookbook.json", [&](std::ostream& o) { write_cookbook_rows(in.set, o); });
    files.emplace_back(".inferencex.csv", [&](std::ostream& o) { write_inferencex_csv(in.set, o); });
    files.emplace_back(".vllm.json", [&](std::ostream& o) { write_vllm_results(in.set, o); });
  }
  for (auto& [suffix, write] : files) {
    if (auto ok = emit(suffix, to_text(write)); !ok) return ok;
  }
  return {};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> render_report(const ReportInputs& in, const ReportOptions& options,
                                                               const std::vector<OutputFormat>& formats) {
  std::vector<std::pair<std::string, std::string>> files;
  (void)render_each(in, options, formats, [&](std::string suffix, std::string content) -> util::Result<void> {
    files.emplace_back(std::move(suffix), std::move(content));
    return {};
  });
  return files;
}

util::Result<std::vector<fs::path>> write_report(const ReportInputs& in, const ReportOptions& options,
                                                 const std::vector<OutputFormat>& formats, const fs::path& prefix) {
  std::vector<fs::path> written;
  if (prefix.has_parent_path()) {
    if (auto ok = util::make_dirs(prefix.parent_path()); !ok) return std::unexpected(ok.error());
  }
  auto ok = render_each(in, options, formats, [&](std::string suffix, std::string content) -> util::Result<void> {
    const fs::path path = prefix.string() + suffix;
    // Run directories written before redaction existed still hold keys in their launch commands.
    if (auto w = util::write_file_atomic(path, util::redact(content)); !w) return w;
    written.push_back(path);
    return {};
  });
  if (!ok) return std::unexpected(ok.error());
  return written;
}

}  // namespace servebench::report
