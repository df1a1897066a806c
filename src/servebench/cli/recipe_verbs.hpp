#pragma once
// The verbs of `servebench recipe` (recipe.cpp registers them; each runner lives with its kin:
// recipe.cpp list/render, recipe_lint.cpp lint, recipe_evidence.cpp status/export/campaign,
// recipe_diff.cpp diff).
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/render.hpp"

namespace servebench::cli {

struct RecipeArgs {
  std::string catalog, other, filter, engine, format = "text", output, name;
  std::vector<std::string> selects, evidence, sets;
};

void print_json(const boost::json::value& v);
// Throws CommandError (exit 2) unless `format` is one of `allowed`.
void require_format(const std::string& format, std::initializer_list<std::string_view> allowed);
std::string padded(const std::string& s, std::size_t width);
recipe::Target target_of(const recipe::Catalog& c, const std::string& engine);

int run_list(const RecipeArgs& a);
int run_render(const RecipeArgs& a);
int run_lint(const RecipeArgs& a);
int run_status(const RecipeArgs& a);
int run_export(const RecipeArgs& a);
int run_campaign(const RecipeArgs& a);
int run_diff(const RecipeArgs& a);

}  // namespace servebench::cli
