// `servebench recipe diff A B`: selection-level differences between two catalogs or
// cookbook-selections exports (a .jsonl file is an export; anything else is a catalog). Exit 1 when
// they differ, 0 when every selection matches.
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/recipe_verbs.hpp"
#include "servebench/recipe/page_diff.hpp"
#include "servebench/recipe/page_json.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::cli {
namespace {

std::vector<boost::json::object> pages_of(const std::string& path) {
  if (path.ends_with(".jsonl")) {
    auto text = util::read_file(path);
    if (!text) throw CommandError(k_exit_bad_input, text.error().message);
    return unwrap(recipe::read_pages(*text, path));
  }
  return recipe::export_pages(unwrap(recipe::load_catalog(path)));
}

}  // namespace

int run_diff(const RecipeArgs& a) {
  require_format(a.format, {"text", "json"});
  const auto d = recipe::diff_pages(pages_of(a.catalog), pages_of(a.other));
  if (a.format == "json") {
    print_json(recipe::to_json(d));
  } else {
    fmt::print("{}", recipe::to_text(d, a.catalog, a.other));
  }
  return d.same() ? k_exit_ok : k_exit_measured_failure;
}

}  // namespace servebench::cli
