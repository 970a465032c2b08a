// grpc_server_session's bidirectional streams (see grpc_server_session.hpp): GreetStream and
// GreetBatchStream, whose messages are greet calls answered in any order by id, and Update and
// server reflection, answered message by message. Runs on the connection's thread, inside the core's callbacks
// (request_*) or the host's encode_reply()/produce().
#include <chrono>
#include <string>

#include "grpc_message.hpp"
#include "grpc_reflection.hpp"
#include "grpc_server_records.hpp"
#include "grpc_server_session.hpp"
#include "rpc_message_format.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_wire {

using http2::header;
using method = bidi_method;

namespace {

method bidi_method_of(std::string_view path, const echo_service::route& route) {
  if (!route.method) {
    const bool reflection = path == reflection_v1_path || path == reflection_v1alpha_path;
    return reflection ? method::reflection : method::none;
  }
  if (*route.method == "Update") return method::update;
  if (!route.ours) return method::none;  // the article's service has no greet streams
  if (*route.method == "GreetStream") return method::greet_stream;
  if (*route.method == "GreetBatchStream") return method::greet_batch;
  return method::none;
}

}  // namespace

void grpc_server_session::request_headers_ended(std::int32_t stream_id, http2::server_stream& st) {
  auto& g = static_cast<grpc_stream&>(st);
  g.route = echo_service::route_of(g.path);
  const method kind = bidi_method_of(g.path, g.route);
  if (kind == method::none) return;
  // A request its dialect does not accept is taken whole and refused when it ends, as a unary
  // one is (415, UNIMPLEMENTED, INTERNAL: request_ended says which).
  std::string why;
  if (accept(g, true, why) != status_code::ok) {
    g.dialect = nullptr;  // asked again when it ends
    g.call = {};
    g.deadline.reset();
    return;
  }
  g.kind = kind;
  g.streaming = true;
  if (g.deadline) deadlines_.emplace_back(*g.deadline, stream_id);
  if (streams_.size() >= 64)  // closed ones go (a stream id is never used again)
    std::erase_if(streams_, [&](std::int32_t id) { return open_record(id) == nullptr; });
  streams_.push_back(stream_id);
  head_.headers.clear();
  g.dialect->open(g.request(), g.call, head_);
  open_response(stream_id, g, head_nv());
}

void grpc_server_session::request_data(std::int32_t stream_id, http2::server_stream& st,
                                       std::string_view bytes) {
  auto& g = static_cast<grpc_stream&>(st);
  std::string_view plain;
  if (!g.dialect->unwrap(bytes, g.pending, unwrapped_, plain))
    return fail_stream(stream_id, g, status_code::internal, "the request body cannot be decoded");
  g.body.append(plain);  // the messages not yet whole (bounded: one message and its prefix)
  grpc_message_decoder decoder(service_.max_message());
  const std::span<const std::byte> body = as_bytes(std::string_view(g.body));
  std::size_t consumed = 0;
  while (!g.answered) {  // until the stream fails
    const auto step = decoder.decode(body.subspan(consumed));
    if (step.status == decode_status::need_more) break;
    if (step.status == decode_status::too_large)
      return fail_stream(stream_id, g, status_code::resource_exhausted,
                         "message larger than the receive limit");
    if (step.status != decode_status::frame)
      return fail_stream(stream_id, g, status_code::internal, "malformed message prefix");
    consumed += step.consumed;
    std::string_view message;
    status_code code = status_code::ok;
    std::string why;
    if (!service_.message_bytes(*g.dialect, g.call, step.frame.compressed, step.frame.bytes, message, code, why))
      return fail_stream(stream_id, g, code, why);
    stream_message(stream_id, g, message);
  }
  g.body.erase(0, consumed);
}

void grpc_server_session::stream_message(std::int32_t stream_id, grpc_stream& st,
                                         std::string_view bytes) {
  switch (st.kind) {
    case method::greet_stream: {
      auto& request = service_.reused().greet_request;
      if (!parse_message(st.call.format, bytes, request))
        return fail_stream(stream_id, st, status_code::internal, "cannot parse GreetRequest");
      return hand_out_on_stream(stream_id, st, request.id(), request.name());
    }
    case method::greet_batch: {
      auto& batch = service_.reused().greet_batch;
      if (!parse_message(st.call.format, bytes, batch))
        return fail_stream(stream_id, st, status_code::internal, "cannot parse GreetBatch");
      for (const auto& request : batch.requests())
        hand_out_on_stream(stream_id, st, request.id(), request.name());
      return;
    }
    case method::update: {
      auto& in = service_.reused().echo_request;
      if (!parse_message(st.call.format, bytes, in))
        return fail_stream(stream_id, st, status_code::internal, "cannot parse EchoRequest");
      auto& out = service_.reused().echo_response;
      out.set_text(in.text());
      serialize_message(st.call.format, out, service_.scratch());
      append_message(st, service_.scratch());
      response_appended(stream_id, st);
      return hand_out_answered(stream_id);  // counted as one request answered
    }
    case method::reflection: {
      if (!reflection_) reflection_ = std::make_unique<reflection_service>();
      if (!reflection_->answer(bytes, service_.scratch()))
        return fail_stream(stream_id, st, status_code::internal,
                           "cannot parse ServerReflectionRequest");
      append_message(st, service_.scratch());
      response_appended(stream_id, st);
      return hand_out_answered(stream_id);
    }
    case method::none:
      return;
  }
}

void grpc_server_session::hand_out_on_stream(std::int32_t stream_id, grpc_stream& st,
                                             std::uint64_t request_id, std::string_view name) {
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  slots_[slot] = {stream_id, request_id};
  ++st.calls_out;
  hand_out_call(first_slot_key + slot, name);
}

void grpc_server_session::last_read(gather_queue& out) {
  server_core::last_read(out);
  for (const std::int32_t stream_id : streams_) {
    auto* st = static_cast<grpc_stream*>(open_record(stream_id));
    if (st == nullptr || st->answered || st->request_done) continue;
    st->request_done = true;
    st->answered_early = true;  // the client may still be sending: RST_STREAM after the trailers
    if (!st->body.empty()) st->body.clear();  // a message cut by the stop: never completed
    finish_if_done(stream_id, *st);
  }
  streams_.clear();
}

void grpc_server_session::stream_ended(std::int32_t stream_id, grpc_stream& st) {
  st.request_done = true;
  if (!st.body.empty())
    return fail_stream(stream_id, st, status_code::internal, "the request ends inside a message");
  finish_if_done(stream_id, st);
}

void grpc_server_session::encode_stream_reply(std::uint64_t key, bool ok, std::string_view body) {
  const std::uint64_t slot = key - first_slot_key;
  if (slot >= slots_.size()) return;  // not a key we handed out
  const call_slot call = slots_[slot];
  free_slots_.push_back(static_cast<std::uint32_t>(slot));
  auto* st = static_cast<grpc_stream*>(open_record(call.stream_id));
  if (st == nullptr || st->answered) return;  // reset by the client, or failed, since
  --st->calls_out;
  if (st->deadline && std::chrono::steady_clock::now() > *st->deadline)
    return fail_stream(call.stream_id, *st, status_code::deadline_exceeded, "deadline exceeded");
  // A stream has no per-message status: a failed call fails its stream, as a failed unary call
  // fails its own.
  if (!ok) return fail_stream(call.stream_id, *st, status_code::unknown, body);
  if (st->kind == method::greet_batch) {  // into the batch produce() sends
    if (st->batch_size == 0) batching_.push_back(call.stream_id);
    if (st->batch.size() == st->batch_size) st->batch.emplace_back();
    auto& [id, greeting] = st->batch[st->batch_size++];
    id = call.request_id;
    greeting.assign(body);
    return;
  }
  auto& reply = service_.reused().greet_reply;
  reply.set_id(call.request_id);
  reply.mutable_greeting()->assign(body.data(), body.size());
  serialize_message(st->call.format, reply, service_.scratch());
  append_message(*st, service_.scratch());
  response_appended(call.stream_id, *st);
  finish_if_done(call.stream_id, *st);
}

std::error_code grpc_server_session::produce(gather_queue& out) {
  for (const std::int32_t stream_id : batching_)
    if (auto* st = open_record(stream_id)) flush_batch(stream_id, static_cast<grpc_stream&>(*st));
  batching_.clear();
  return server_core::produce(out);
}

void grpc_server_session::flush_batch(std::int32_t stream_id, grpc_stream& st) {
  if (st.answered || st.batch_size == 0) return;
  auto& replies = service_.reused().greet_reply_batch;
  replies.Clear();  // keeps its GreetReply objects for the next batch
  for (std::size_t i = 0; i < st.batch_size; ++i) {
    auto* reply = replies.add_replies();
    reply->set_id(st.batch[i].first);
    reply->set_greeting(st.batch[i].second);
  }
  st.batch_size = 0;
  serialize_message(st.call.format, replies, service_.scratch());
  append_message(st, service_.scratch());
  response_appended(stream_id, st);
  finish_if_done(stream_id, st);
}

void grpc_server_session::finish_if_done(std::int32_t stream_id, grpc_stream& st) {
  if (st.answered || !st.request_done || st.calls_out != 0 || st.batch_size != 0) return;
  st.dialect->finish(st.request(), st.call, status_code::ok, {}, true, head_, st.response,
                     st.trailers);
  finish_response(stream_id, st);
}

void grpc_server_session::fail_stream(std::int32_t stream_id, grpc_stream& st, status_code code,
                                      std::string_view why) {
  if (st.answered) return;
  st.batch_size = 0;
  st.dialect->finish(st.request(), st.call, code, why, true, head_, st.response, st.trailers);
  // A client still sending is told to stop (RST_STREAM NO_ERROR once the trailers are out).
  st.answered_early = !st.request_done;
  finish_response(stream_id, st);
}

}  // namespace wirebench::grpc_wire
