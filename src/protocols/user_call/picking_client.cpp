#include "picking_client.hpp"

#include "wirebench/protocols/call_placeholder.hpp"

namespace wirebench {
namespace {

// Each thread's generator: async_greet may be called from any thread, and a per-thread state
// needs no lock. Seeded apart, as each codec's placeholders are.
std::uint64_t& thread_state() {
  thread_local std::uint64_t state = next_placeholder_seed();
  return state;
}

class picking_protocol_client final : public protocol_client {
 public:
  picking_protocol_client(std::unique_ptr<protocol_client> inner, std::shared_ptr<const pick_table> table)
      : inner_(std::move(inner)), table_(std::move(table)) {}

  void async_greet(std::string_view name, call_options options, call_completion done) override {
    inner_->async_greet(table_->pick(name, thread_state()), options, std::move(done));
  }
  void close() override { inner_->close(); }
  client_counters counters() const override { return inner_->counters(); }
  std::vector<asio::io_context*> event_loops() override { return inner_->event_loops(); }
  bool greets() const override { return inner_->greets(); }

 private:
  std::unique_ptr<protocol_client> inner_;
  std::shared_ptr<const pick_table> table_;
};

// On one connection's thread, as every codec; only encode() differs from the codec underneath.
class picking_codec final : public client_codec {
 public:
  picking_codec(std::unique_ptr<client_codec> inner, std::shared_ptr<const pick_table> table)
      : inner_(std::move(inner)), table_(std::move(table)) {}

  reply_order order() const override { return inner_->order(); }
  bool may_refuse() const override { return inner_->may_refuse(); }
  std::error_code open(gather_queue& out) override { return inner_->open(out); }
  std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) override {
    return inner_->encode(id, table_->pick(request, state_), out);
  }
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override {
    return inner_->decode(data, into, out, error);
  }
  bool cancel(std::uint32_t id, gather_queue& out) override { return inner_->cancel(id, out); }
  bool ping(gather_queue& out) override { return inner_->ping(out); }
  std::error_code produce(gather_queue& out) override { return inner_->produce(out); }
  void end_of_stream(bool clean, decoded& into) override { inner_->end_of_stream(clean, into); }
  bool mid_reply() const override { return inner_->mid_reply(); }
  std::string failure() const override { return inner_->failure(); }
  std::size_t max_read_bytes() const override { return inner_->max_read_bytes(); }
  bool failures_depend_on_reads() const override { return inner_->failures_depend_on_reads(); }

 private:
  std::unique_ptr<client_codec> inner_;
  std::shared_ptr<const pick_table> table_;
  std::uint64_t state_ = next_placeholder_seed();
};

}  // namespace

pick_table::pick_table(const picked_calls& picked) : first_(picked.first) {
  for (std::size_t i = 0; i < picked.variants.size(); ++i) payloads_.push_back(std::to_string(i));
}

std::string_view pick_table::pick(std::string_view payload, std::uint64_t& state) const {
  const auto request = request_index(payload, first_.size() - 1);
  if (!request) return {};
  const std::size_t from = first_[*request], count = first_[*request + 1] - from;
  return payloads_[count == 1 ? from : from + random_below(count, state)];
}

std::unique_ptr<protocol_client> picking_client(std::unique_ptr<protocol_client> variants,
                                                std::shared_ptr<const pick_table> table) {
  return std::make_unique<picking_protocol_client>(std::move(variants), std::move(table));
}

client_codec_factory picking_codecs(client_codec_factory variants, std::shared_ptr<const pick_table> table) {
  return [variants = std::move(variants), table = std::move(table)] {
    return std::make_unique<picking_codec>(variants(), table);
  };
}

}  // namespace wirebench
