#pragma once
// What an arm's launch command says about its deployment that the server's HTTP API does not.
#include "servebench/engines/adapter.hpp"
#include "servebench/flags/command.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::engines {

// Corrects facts read over HTTP with what only the launch command tells; cannot fail.
// llama-server: a unified KV cache (--kv-unified, or --parallel left at auto, which turns it on;
// also through LLAMA_ARG_* variables) lets every slot use the whole context, so the KV pool is the
// context (-c, else one slot's n_ctx), not n_ctx × slots (docs/engines.md). Other engines: unchanged.
void apply_launch(Engine engine, const flags::NormalizedCommand& launch, wire::ServerFacts& facts);

}  // namespace servebench::engines
