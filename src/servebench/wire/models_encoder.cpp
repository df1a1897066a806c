#include "servebench/wire/models_encoder.hpp"

#include "servebench/wire/json_writer.hpp"

namespace servebench::wire {

void encode_models_response(std::string& out, const ModelEntry& model) {
  JsonWriter json(out);
  json.begin_object();
  json.member("object", "list");
  json.key("data");
  json.begin_array();
  json.begin_object();
  json.member("id", model.id);
  json.member("object", "model");
  json.member("created", model.created);
  json.member("owned_by", model.owned_by);
  json.member("root", model.root);
  json.member("max_model_len", model.max_model_len);
  json.end_object();
  json.end_array();
  json.end_object();
}

void encode_model_info(std::string& out, const ModelInfo& info) {
  JsonWriter json(out);
  json.begin_object();
  json.member("model_path", info.model_path);
  json.member("tokenizer_path", info.tokenizer_path);
  json.member("is_generation", info.is_generation);
  json.member("weight_version", info.weight_version);
  json.member("model_type", info.model_type);
  json.end_object();
}

}  // namespace servebench::wire
