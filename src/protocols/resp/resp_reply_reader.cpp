#include "resp_reply_reader.hpp"

#include <new>
#include <vector>

#include <hiredis/hiredis.h>

#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

// Our reply objects: a root owns its elements, so hiredis frees a whole tree with freeObject.
struct value {
  reply_kind kind;
  std::string text;
  std::vector<std::unique_ptr<value>> elements;  // grown as elements arrive, never from a count
};

void* attach(const redisReadTask* task, std::unique_ptr<value> v) {
  value* raw = v.get();
  if (task->parent != nullptr)
    static_cast<value*>(task->parent->obj)->elements.push_back(std::move(v));
  else
    v.release();  // the root: hiredis hands it to redisReaderGetReply's caller
  return raw;
}

reply_kind kind_of(int type) {
  switch (type) {
    case REDIS_REPLY_STRING: return reply_kind::string;
    case REDIS_REPLY_STATUS: return reply_kind::status;
    case REDIS_REPLY_ERROR: return reply_kind::error;
    default: return reply_kind::nil;
  }
}

void* create_string(const redisReadTask* task, char* s, size_t n) {
  auto v = std::unique_ptr<value>(new (std::nothrow) value{kind_of(task->type), {}, {}});
  if (!v) return nullptr;
  v->text.assign(s, n);  // n bytes that arrived
  return attach(task, std::move(v));
}

void* create_array(const redisReadTask* task, int elements) {
  const std::size_t cap = *static_cast<const std::size_t*>(task->privdata);
  if (elements < 0 || static_cast<std::size_t>(elements) > cap) return nullptr;  // hiredis: error
  return attach(task, std::unique_ptr<value>(new (std::nothrow) value{reply_kind::array, {}, {}}));
}

void* create_integer(const redisReadTask* task, long long) {
  return attach(task, std::unique_ptr<value>(new (std::nothrow) value{reply_kind::integer, {}, {}}));
}

void* create_nil(const redisReadTask* task) {
  return attach(task, std::unique_ptr<value>(new (std::nothrow) value{reply_kind::nil, {}, {}}));
}

void free_object(void* v) { delete static_cast<value*>(v); }

redisReplyObjectFunctions functions{create_string, create_array, create_integer, create_nil, free_object};

}  // namespace

std::error_code check_greeting(reply_kind kind, std::string_view text, std::string_view expected) {
  if (kind == reply_kind::string && text == expected) return {};
  if (kind == reply_kind::error) return errc::remote_error;
  return errc::wrong_reply;
}

reply_reader::reply_reader(std::size_t max_reply_bytes, std::size_t max_elements)
    : max_reply_bytes_(max_reply_bytes), max_elements_(max_elements) {
  reader_ = redisReaderCreateWithFunctions(&functions);
  if (reader_ == nullptr) throw std::bad_alloc();
  reader_->privdata = &max_elements_;  // hiredis copies it into every read task
  reader_->maxbuf = 64 * 1024;  // keep a buffer this big between replies instead of reallocating
}

reply_reader::~reply_reader() { redisReaderFree(reader_); }

std::error_code reply_reader::feed(std::span<const std::byte> data) {
  if (data.empty()) return {};
  if (redisReaderFeed(reader_, reinterpret_cast<const char*>(data.data()), data.size()) != REDIS_OK)
    return errc::protocol_error;
  return {};
}

bool reply_reader::next(reply& out, std::error_code& error) {
  void* got = nullptr;
  if (redisReaderGetReply(reader_, &got) != REDIS_OK) {
    error = errc::protocol_error;
    return false;
  }
  if (got == nullptr) {
    // What is left is one unfinished reply: bounded by bytes received, whatever it declared.
    if (reader_->len - reader_->pos > max_reply_bytes_) error = errc::frame_too_long;
    return false;
  }
  std::unique_ptr<value> v(static_cast<value*>(got));
  out.kind = v->kind;
  out.text = std::move(v->text);
  return true;
}

bool reply_reader::mid_reply() const { return reader_->ridx >= 0 || reader_->len > reader_->pos; }

}  // namespace wirebench::resp
