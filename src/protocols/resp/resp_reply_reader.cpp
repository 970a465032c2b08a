#include "resp_reply_reader.hpp"

#include <charconv>
#include <new>
#include <utility>

#include <hiredis/hiredis.h>

#include "wirebench/core/error.hpp"

namespace wirebench::resp {

struct reply_reader::value {
  reply_kind kind = reply_kind::nil;
  std::string text;
  std::vector<value*> elements;  // grown as elements arrive, never from a count
  reply_reader* owner = nullptr;
};

// hiredis's object callbacks: every object comes from the reader's pool (privdata is the reader).
struct reply_functions {
  static reply_reader& reader(const redisReadTask* task) {
    return *static_cast<reply_reader*>(task->privdata);
  }
  static void* attach(const redisReadTask* task, reply_reader::value* v) {
    if (v != nullptr && task->parent != nullptr)
      static_cast<reply_reader::value*>(task->parent->obj)->elements.push_back(v);
    return v;
  }
  static reply_kind kind_of(int type) {
    switch (type) {
      case REDIS_REPLY_STRING: return reply_kind::string;
      case REDIS_REPLY_STATUS: return reply_kind::status;
      case REDIS_REPLY_ERROR: return reply_kind::error;
      default: return reply_kind::nil;
    }
  }
  static void* create_string(const redisReadTask* task, char* s, size_t n) {
    reply_reader::value* v = reader(task).take_value(kind_of(task->type));
    if (v != nullptr) v->text.assign(s, n);  // n bytes that arrived
    return attach(task, v);
  }
  static void* create_array(const redisReadTask* task, int elements) {
    reply_reader& r = reader(task);
    if (elements < 0 || static_cast<std::size_t>(elements) > r.max_elements_) return nullptr;
    return attach(task, r.take_value(reply_kind::array));  // hiredis: error on nullptr
  }
  static void* create_integer(const redisReadTask* task, long long n) {
    reply_reader::value* v = reader(task).take_value(reply_kind::integer);
    if (v != nullptr) {  // as decimal text: a user call may expect it (no allocation once warm)
      char digits[24];
      v->text.assign(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
    }
    return attach(task, v);
  }
  static void* create_nil(const redisReadTask* task) {
    return attach(task, reader(task).take_value(reply_kind::nil));
  }
  static void free_object(void* v) {  // a whole tree: its root is what hiredis frees
    auto* root = static_cast<reply_reader::value*>(v);
    root->owner->recycle(root);
  }
};

namespace {

}  // namespace

void append_redis_cli_quoted(std::string& out, std::string_view text) {
  out.push_back('"');
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      default:
        if (const auto u = static_cast<unsigned char>(c); u < 0x20 || u >= 0x7f) {
          constexpr const char* hex = "0123456789abcdef";
          out += "\\x";
          out.push_back(hex[u >> 4]);
          out.push_back(hex[u & 15]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

namespace {

// One reply as redis-cli prints it on a terminal: "1) ..." per element, the lines of a nested
// array indented under their number.
void render_reply(const reply_reader::value& v, std::string& out) {
  switch (v.kind) {
    case reply_kind::string: append_redis_cli_quoted(out, v.text); return;
    case reply_kind::status: out += v.text; return;
    case reply_kind::error: out += "(error) " + v.text; return;
    case reply_kind::integer: out += "(integer) " + v.text; return;
    case reply_kind::nil: out += "(nil)"; return;
    case reply_kind::array: break;
  }
  if (v.elements.empty()) {
    out += "(empty array)";
    return;
  }
  const std::size_t width = std::to_string(v.elements.size()).size();
  for (std::size_t i = 0; i < v.elements.size(); ++i) {
    std::string number = std::to_string(i + 1);
    const std::string prefix = std::string(width - number.size(), ' ') + number + ") ";
    std::string element;
    render_reply(*v.elements[i], element);
    if (i > 0) out.push_back('\n');
    out += prefix;
    for (const char c : element) {
      out.push_back(c);
      if (c == '\n') out.append(prefix.size(), ' ');
    }
  }
}

redisReplyObjectFunctions functions{reply_functions::create_string, reply_functions::create_array,
                                    reply_functions::create_integer, reply_functions::create_nil,
                                    reply_functions::free_object};
}  // namespace

reply_reader::reply_reader(std::size_t max_reply_bytes, std::size_t max_elements, bool render_arrays)
    : max_reply_bytes_(max_reply_bytes), max_elements_(max_elements), render_arrays_(render_arrays) {
  reader_ = redisReaderCreateWithFunctions(&functions);
  if (reader_ == nullptr) throw std::bad_alloc();
  reader_->privdata = this;  // hiredis copies it into every read task
  reader_->maxbuf = 64 * 1024;  // keep a buffer this big between replies instead of reallocating
}

reply_reader::~reply_reader() {
  redisReaderFree(reader_);  // may hand a partial reply back to the pool, which is still here
}

reply_reader::value* reply_reader::take_value(reply_kind kind) {
  if (free_.empty()) {
    auto v = std::unique_ptr<value>(new (std::nothrow) value);
    if (!v) return nullptr;
    v->owner = this;
    free_.push_back(v.get());
    values_.push_back(std::move(v));
  }
  value* v = free_.back();
  free_.pop_back();
  v->kind = kind;
  v->text.clear();
  return v;
}

void reply_reader::recycle(value* v) {
  for (value* e : v->elements) recycle(e);
  v->elements.clear();
  free_.push_back(v);
}

void reply_reader::feed(std::span<const std::byte> data) {
  if (data.empty() || feed_failed_) return;
  if (redisReaderFeed(reader_, reinterpret_cast<const char*>(data.data()), data.size()) != REDIS_OK)
    feed_failed_ = true;
}

std::optional<reply_view> reply_reader::next(std::error_code& error) {
  if (feed_failed_) {
    error = errc::protocol_error;
    return std::nullopt;
  }
  // A reply is bounded by its bytes, however they arrived: those hiredis has parsed of it (an
  // array's first elements, across calls) plus those it has not. Measured as what is left to
  // read, which holds across hiredis's compaction of its buffer.
  const std::size_t unread_before = reader_->len - reader_->pos;
  void* got = nullptr;
  const int status = redisReaderGetReply(reader_, &got);
  const std::size_t unread = reader_->len - reader_->pos;
  parsed_ += unread_before - unread;
  if (status != REDIS_OK) {
    error = errc::protocol_error;
    return std::nullopt;
  }
  if (got == nullptr) {
    // What is left is one unfinished reply: bounded by bytes received, whatever it declared.
    if (parsed_ + unread > max_reply_bytes_) error = errc::frame_too_long;
    return std::nullopt;
  }
  auto* v = static_cast<value*>(got);
  if (std::exchange(parsed_, 0) > max_reply_bytes_) {  // it arrived whole, but is too big
    recycle(v);
    error = errc::frame_too_long;
    return std::nullopt;
  }
  handed_out_.push_back(v);
  if (v->kind == reply_kind::array && render_arrays_) render_reply(*v, v->text);
  return reply_view{v->kind, v->text};
}

void reply_reader::release() {
  for (value* v : handed_out_) recycle(v);
  handed_out_.clear();
}

// Not hiredis's ridx: redisReaderGetReply starts a new root item whenever its buffer is not empty,
// so after the last reply it can read ridx 0 with every byte consumed (found by fuzz_client_codec:
// a reply "in progress" or not by where the buffer was last compacted).
bool reply_reader::mid_reply() const { return parsed_ != 0 || reader_->len > reader_->pos; }

}  // namespace wirebench::resp
