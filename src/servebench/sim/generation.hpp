#pragma once
// Generation: one HTTP exchange's answer while the engine produces it — a generator the engine
// thread feeds with token events and that writes chunks to the exchange's stream: OpenAI
// completion/chat chunks (role-only first chunk for chat, usage chunk, [DONE]), SGLang /generate
// objects with meta_info, or one complete body when not streaming. Stop strings are matched on
// the detokenized output. Used on the engine thread only; per chunk it encodes into the caller's
// reused buffers and allocates nothing beyond the growth of its own text.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "servebench/http/handler.hpp"
#include "servebench/sim/request_plan.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/wire/response_encoder.hpp"

namespace servebench::sim {

enum class StampEvents { off, on };                   // sb_emit_ns on every chunk (--sim-stamp-events)
enum class StreamOutput { cumulative, incremental };  // /generate text and output_ids per chunk

// Settings shared by every generation of a server.
struct GenerationContext {
  const Tokenizer* tokenizer = nullptr;
  std::string model;  // served model name
  StampEvents stamp = StampEvents::off;
  StreamOutput generate_output = StreamOutput::cumulative;
  bool speculative = false;                          // meta_info carries spec_verify_ct
  const util::Clock* clock = &util::steady_clock();  // sb_emit_ns
};

// Scratch space the engine thread lends to every generation (capacity is kept between chunks).
struct ChunkBuffers {
  std::string json, frame;
};

class Generation {
 public:
  // `id` names the response ("cmpl-…", "chatcmpl-…"); `created` is Unix seconds.
  Generation(RequestPlan plan, std::shared_ptr<http::Stream> stream, const GenerationContext& context, std::string id,
             std::int64_t created);

  // The engine requests to submit, moved out (once).
  std::vector<SimRequest> take_requests();
  // The engine accepted every item (ids in item order): a stream's first bytes (header, chat role
  // chunk) go out.
  void accepted(std::span<const RequestId> ids, ChunkBuffers& buffers);
  // The engine refused an item: answers 400 with `message` (SGLang's wording).
  void rejected(std::string_view message);
  // Tokens of item `item` produced at virtual time `now`. Returns true when a stop string matched
  // before the engine finished the item: the caller cancels its engine request.
  bool on_event(std::size_t item, const TokenEvent& event, VirtualTime now, ChunkBuffers& buffers);

  // A generation of several items (n > 1, a /generate batch) writes once per engine step: its
  // items' chunks gather until the engine loop calls flush() after the step's events. (Their
  // sb_emit_ns stamps are taken when encoded, so they include the rest of that dispatch.) A
  // single item's chunk goes out from on_event, its last one with the end of the response.
  bool pending() const { return !m_outbox.empty() || m_outbox_last; }
  void flush();

  std::span<const RequestId> ids() const { return m_ids; }
  bool finished() const { return m_open_items == 0 && !m_ids.empty(); }
  bool closed() const { return m_stream->closed(); }

 private:
  struct Item {
    std::vector<std::int32_t> output;
    std::string text;           // detokenized output, cut at a matched stop string
    std::size_t text_sent = 0;  // bytes of `text` already streamed
    std::size_t ids_sent = 0;   // output ids already streamed (incremental /generate)
    RequestMeta meta;
    wire::FinishReason finish = wire::FinishReason::none;
    std::optional<wire::MatchedStop> matched;  // the EOS token or stop string that ended the item
    VirtualTime finished_at{};
  };

  std::optional<std::size_t> append_output(Item& item, const TokenEvent& event);
  std::size_t streamable_end(const Item& item) const;
  void stream_chunk(std::size_t index, ChunkBuffers& buffers);
  void encode_openai_chunk(std::size_t index, ChunkBuffers& buffers);
  wire::GenerateOutput next_generate_output(std::size_t index, bool whole);
  void finish_stream(ChunkBuffers& buffers);
  void respond_whole();
  wire::Usage usage_of(const Item& item) const;
  wire::Usage total_usage() const;
  wire::SglangMeta meta_of(const Item& item) const;
  std::optional<std::int64_t> stamp() const;
  wire::ResponseHeader header() const { return {m_id, m_context->model, m_created}; }
  wire::ResponseKind response_kind() const {
    return m_plan.route == wire::ServerRoute::chat_completions ? wire::ResponseKind::chat : wire::ResponseKind::completion;
  }

  RequestPlan m_plan;
  std::shared_ptr<http::Stream> m_stream;
  const GenerationContext* m_context;
  std::string m_id;
  std::int64_t m_created;
  std::vector<RequestId> m_ids;
  std::vector<Item> m_items;
  std::size_t m_open_items = 0;
  std::size_t m_stop_holdback = 0;  // longest stop string - 1: text that may still become a match
  std::string m_outbox;             // several items: this step's frames, written by flush()
  bool m_outbox_last = false;       // several items: the response ends with this step's write
};

}  // namespace servebench::sim
