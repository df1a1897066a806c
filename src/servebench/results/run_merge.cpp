#include "servebench/results/run_merge.hpp"

#include <algorithm>
#include <map>
#include <system_error>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/results/ledger.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace fs = std::filesystem;
namespace json = boost::json;
namespace {

MergeMeasurement measurement(const std::string& source, const PointRecord& r) {
  return {source, r.started_at, r.status};
}

json::object measurement_json(const MergeMeasurement& m) {
  return {{"source", m.source}, {"started_at", m.started_at}, {"status", to_string(m.status)}};
}

util::Result<MergeMeasurement> measurement_of(const json::value& v) {
  if (!v.is_object()) return util::fail(util::ErrorKind::bad_input, "a measurement must be an object");
  const auto& o = v.get_object();
  MergeMeasurement m;
  m.source = util::json_string(o, "source").value_or("");
  m.started_at = util::json_string(o, "started_at").value_or("");
  auto status = parse_point_status(util::json_string(o, "status").value_or("ok"));
  if (!status) return std::unexpected(status.error());
  m.status = *status;
  return m;
}

// Copies a file or a directory tree, replacing what is there.
util::Result<void> copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::exists(from, ec)) return {};
  fs::create_directories(to.parent_path(), ec);
  if (fs::is_directory(from)) {
    fs::remove_all(to, ec);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  } else {
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  }
  if (ec) return util::failf(util::ErrorKind::io, "cannot copy {} to {}: {}", from.string(), to.string(), ec.message());
  return {};
}

bool same_path(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace

util::Result<void> copy_arm_files(const RunLayout& from, const RunLayout& to, const std::string& arm,
                                  const std::vector<PointRecord>& points) {
  if (auto ok = copy_into(from.arm_dir(arm), to.arm_dir(arm)); !ok) return ok;
  for (const auto& r : points) {
    if (auto ok = copy_into(from.requests(r.arm, r.scenario, r.concurrency), to.requests(r.arm, r.scenario, r.concurrency)); !ok) {
      return ok;
    }
  }
  return {};
}

MergedPoints merge_points(const std::vector<std::string>& sources, const std::vector<std::vector<PointRecord>>& latest) {
  MergedPoints out;
  out.summary.sources = sources;
  std::map<PointKey, std::size_t> slot;
  std::map<PointKey, std::vector<MergeMeasurement>> dropped;
  for (std::size_t s = 0; s < latest.size(); ++s) {
    for (const auto& r : latest[s]) {
      const PointKey key = key_of(r);
      const auto [it, inserted] = slot.try_emplace(key, out.records.size());
      if (inserted) {
        out.records.push_back(r);
        out.origin.push_back(s);
        continue;
      }
      PointRecord& kept = out.records[it->second];
      std::size_t& kept_origin = out.origin[it->second];
      // The later measurement wins; on the same start time, the source named later.
      if (r.started_at >= kept.started_at) {
        dropped[key].push_back(measurement(sources[kept_origin], kept));
        kept = r;
        kept_origin = s;
      } else {
        dropped[key].push_back(measurement(sources[s], r));
      }
    }
  }
  for (std::size_t k = 0; k < out.records.size(); ++k) {
    const auto it = dropped.find(key_of(out.records[k]));
    if (it == dropped.end()) continue;
    out.summary.superseded.push_back(
        {point_id(it->first), measurement(sources[out.origin[k]], out.records[k]), it->second});
  }
  out.summary.points = out.records.size();
  return out;
}

util::Result<MergeSummary> merge_run_dirs(const fs::path& out, const std::vector<fs::path>& dirs) {
  if (dirs.empty()) return util::fail(util::ErrorKind::bad_input, "merge needs at least one run directory");
  const RunLayout target(out);
  std::vector<std::string> sources;
  std::vector<std::vector<PointRecord>> latest;
  std::string campaign;
  for (const auto& dir : dirs) {
    if (same_path(dir, out)) {
      return util::failf(util::ErrorKind::bad_input, "{}: the output directory cannot also be a source", dir.string());
    }
    const RunLayout run(dir);
    if (!fs::is_regular_file(run.ledger())) {
      return util::failf(util::ErrorKind::bad_input, "{}: not a run directory (no ledger)", dir.string());
    }
    auto ledger = read_latest(run.ledger());
    if (!ledger) return std::unexpected(ledger.error());
    for (const auto& r : ledger->records) {
      if (campaign.empty()) campaign = r.campaign;
      if (r.campaign != campaign) {
        return util::failf(util::ErrorKind::bad_input,
                           "{}: holds campaign '{}', the other sources '{}'; merge joins the jobs of one campaign "
                           "(report several campaigns with `servebench report DIR...` instead)",
                           dir.string(), r.campaign, campaign);
      }
    }
    sources.push_back(dir.string());
    latest.push_back(std::move(ledger->records));
  }
  if (fs::exists(target.ledger()) && !fs::exists(merge_file(target))) {
    return util::failf(util::ErrorKind::bad_input, "{}: already holds a run that is not a merge; choose a new directory",
                       out.string());
  }
  MergedPoints merged = merge_points(sources, latest);
  if (auto ok = util::make_dirs(out); !ok) return std::unexpected(ok.error());
  for (const auto& dir : dirs) {  // the campaign file and asset ledger of the first source that has them
    const RunLayout run(dir);
    if (!fs::exists(target.campaign_file()) && fs::exists(run.campaign_file())) {
      if (auto ok = copy_into(run.campaign_file(), target.campaign_file()); !ok) return std::unexpected(ok.error());
    }
  }
  std::map<std::string, std::size_t> arm_source;  // arm → source of its most recently measured kept point
  std::map<std::string, std::string> arm_latest;
  for (std::size_t k = 0; k < merged.records.size(); ++k) {
    const PointRecord& r = merged.records[k];
    if (auto it = arm_latest.find(r.arm); it == arm_latest.end() || r.started_at >= it->second) {
      arm_latest[r.arm] = r.started_at;
      arm_source[r.arm] = merged.origin[k];
    }
    const RunLayout from(dirs[merged.origin[k]]);
    const auto requests = from.requests(r.arm, r.scenario, r.concurrency);
    if (auto ok = copy_into(requests, target.requests(r.arm, r.scenario, r.concurrency)); !ok) {
      return std::unexpected(ok.error());
    }
  }
  for (std::size_t s = 0; s < dirs.size(); ++s) {  // arms without points still bring their facts
    for (const auto& arm : RunLayout(dirs[s]).arm_names()) arm_source.try_emplace(arm, s);
  }
  for (const auto& [arm, s] : arm_source) {
    if (auto ok = copy_into(RunLayout(dirs[s]).arm_dir(arm), target.arm_dir(arm)); !ok) return std::unexpected(ok.error());
  }
  std::string text;
  for (const auto& r : merged.records) {
    text += to_json_line(r);
    text.push_back('\n');
  }
  if (auto ok = util::write_file_atomic(target.ledger(), text); !ok) return std::unexpected(ok.error());
  if (auto ok = util::write_file_atomic(merge_file(target), util::to_json_text_pretty(to_json(merged.summary)) + "\n"); !ok) {
    return std::unexpected(ok.error());
  }
  return merged.summary;
}

json::object to_json(const MergeSummary& s) {
  json::array sources;
  for (const auto& src : s.sources) sources.emplace_back(src);
  json::array superseded;
  for (const auto& p : s.superseded) {
    json::array dropped;
    for (const auto& d : p.dropped) dropped.push_back(measurement_json(d));
    superseded.push_back(json::object{{"point", p.point}, {"kept", measurement_json(p.kept)}, {"dropped", std::move(dropped)}});
  }
  return {{"schema", k_merge_schema},
          {"sources", std::move(sources)},
          {"points", static_cast<std::int64_t>(s.points)},
          {"superseded", std::move(superseded)}};
}

util::Result<MergeSummary> merge_summary_from_json(const json::object& o) {
  if (util::json_string(o, "schema").value_or("") != k_merge_schema) {
    return util::failf(util::ErrorKind::bad_input, "schema must be {}", k_merge_schema);
  }
  MergeSummary s;
  if (const auto* src = o.if_contains("sources"); src && src->is_array()) {
    for (const auto& v : src->get_array()) {
      if (v.is_string()) s.sources.emplace_back(v.get_string());
    }
  }
  s.points = static_cast<std::size_t>(std::max<std::int64_t>(util::json_int(o, "points").value_or(0), 0));
  const auto* sup = o.if_contains("superseded");
  if (sup == nullptr || !sup->is_array()) return s;
  for (const auto& v : sup->get_array()) {
    if (!v.is_object()) return util::fail(util::ErrorKind::bad_input, "superseded[] must hold objects");
    const auto& p = v.get_object();
    SupersededPoint point;
    point.point = util::json_string(p, "point").value_or("");
    const auto* kept = p.if_contains("kept");
    auto k = measurement_of(kept ? *kept : json::value());
    if (!k) return std::unexpected(util::with_context(k.error(), "superseded[].kept"));
    point.kept = *k;
    if (const auto* d = p.if_contains("dropped"); d && d->is_array()) {
      for (const auto& m : d->get_array()) {
        auto dm = measurement_of(m);
        if (!dm) return std::unexpected(util::with_context(dm.error(), "superseded[].dropped"));
        point.dropped.push_back(*dm);
      }
    }
    s.superseded.push_back(std::move(point));
  }
  return s;
}

util::Result<std::optional<MergeSummary>> read_merge_summary(const fs::path& run_dir) {
  const fs::path path = merge_file(RunLayout(run_dir));
  if (!fs::exists(path)) return std::optional<MergeSummary>{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto v = util::parse_json(*text, path.string());
  if (!v) return std::unexpected(v.error());
  if (!v->is_object()) return util::failf(util::ErrorKind::bad_input, "{}: not a JSON object", path.string());
  auto s = merge_summary_from_json(v->get_object());
  if (!s) return std::unexpected(util::with_context(s.error(), path.string()));
  return std::optional<MergeSummary>(std::move(*s));
}

}  // namespace servebench::results
