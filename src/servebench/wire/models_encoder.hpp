#pragma once
// Bodies of the GET routes that describe the served model, as an SGLang server answers them: the
// OpenAI /v1/models list and SGLang's /model_info. Appended to a caller buffer; they cannot fail.
#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::wire {

// One entry of /v1/models. SGLang adds root and max_model_len (the context length, which the
// adapters read from here).
struct ModelEntry {
  std::string_view id;  // the served model name
  std::int64_t created = 0;  // Unix seconds
  std::string_view owned_by = "sglang";
  std::string_view root;  // the model path
  std::int64_t max_model_len = 0;
};
// {"object":"list","data":[{"id","object":"model","created","owned_by","root","max_model_len"}]}
void encode_models_response(std::string& out, const ModelEntry& model);

// SGLang GET /model_info (= /get_model_info).
struct ModelInfo {
  std::string_view model_path, tokenizer_path;
  bool is_generation = true;
  std::string_view weight_version = "default";
  std::string_view model_type;
};
// {"model_path","tokenizer_path","is_generation","weight_version","model_type"}
void encode_model_info(std::string& out, const ModelInfo& info);

}  // namespace servebench::wire
