#include "http1_parser.hpp"

#include <algorithm>
#include <cctype>

#include "wirebench/core/error.hpp"

namespace wirebench::http1 {
namespace {
parser& self(llhttp_t* p) { return *static_cast<parser*>(p->data); }
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::string_view message::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return {};
}

void message::reset() {
  method.clear();
  target.clear();
  status = 0;
  headers.clear();
  body.clear();
  keep_alive = true;
}

parser::parser(kind k, limits l, bool keep_headers) : limits_(l), keep_headers_(keep_headers) {
  llhttp_settings_init(&settings_);
  settings_.on_message_begin = &parser::on_message_begin;
  settings_.on_url = &parser::on_url;
  settings_.on_header_field = &parser::on_header_field;
  settings_.on_header_value = &parser::on_header_value;
  settings_.on_headers_complete = &parser::on_headers_complete;
  settings_.on_body = &parser::on_body;
  settings_.on_message_complete = &parser::on_message_complete;
  llhttp_init(&llhttp_, k == kind::request ? HTTP_REQUEST : HTTP_RESPONSE, &settings_);
  llhttp_.data = this;
}

int parser::fail(int status, const char* reason) {
  error_status_ = status;
  error_reason_ = reason;
  return HPE_USER;
}

bool parser::count_header_bytes(std::size_t n) {
  header_bytes_ += n;
  return header_bytes_ <= limits_.max_header_bytes;
}

int parser::on_message_begin(llhttp_t* p) {
  parser& s = self(p);
  if (s.count_ == s.done_.size()) s.done_.emplace_back();
  s.current_ = &s.done_[s.count_];
  s.current_->reset();
  s.header_count_ = 0;
  s.header_bytes_ = 0;
  s.in_value_ = false;
  s.in_message_ = true;
  return 0;
}

int parser::on_url(llhttp_t* p, const char* at, std::size_t n) {
  parser& s = self(p);
  if (!s.count_header_bytes(n)) return s.fail(431, "request line too long");
  s.current_->target.append(at, n);
  return 0;
}

int parser::on_header_field(llhttp_t* p, const char* at, std::size_t n) {
  parser& s = self(p);
  if (!s.count_header_bytes(n)) return s.fail(431, "headers too large");
  if (s.in_value_ || s.header_count_ == 0) {  // a new header begins
    if (s.header_count_ >= s.limits_.max_headers) return s.fail(431, "too many headers");
    ++s.header_count_;
    if (s.keep_headers_) s.current_->headers.emplace_back();
    s.in_value_ = false;
  }
  if (s.keep_headers_) s.current_->headers.back().first.append(at, n);
  return 0;
}

int parser::on_header_value(llhttp_t* p, const char* at, std::size_t n) {
  parser& s = self(p);
  if (!s.count_header_bytes(n)) return s.fail(431, "headers too large");
  s.in_value_ = true;
  if (s.keep_headers_) s.current_->headers.back().second.append(at, n);
  return 0;
}

int parser::on_headers_complete(llhttp_t* p) {
  parser& s = self(p);
  if (s.bodiless_responses_ && llhttp_get_type(p) == HTTP_RESPONSE) {
    s.current_->keep_alive = llhttp_should_keep_alive(p) != 0;
    s.current_->status = llhttp_get_status_code(p);
    return 1;  // llhttp: this response has no body
  }
  // A declared body over the limit is refused now, before any of it is buffered.
  if ((p->flags & F_CONTENT_LENGTH) != 0 && p->content_length > s.limits_.max_body_bytes) {
    s.fail(413, "body too large");
    return -1;  // this callback may not return HPE_USER; our status is kept all the same
  }
  s.current_->keep_alive = llhttp_should_keep_alive(p) != 0;
  s.headers_in_ = true;
  if (llhttp_get_type(p) == HTTP_REQUEST) {
    s.current_->method = llhttp_method_name(static_cast<llhttp_method_t>(llhttp_get_method(p)));
    // Only HTTP/1.1 clients may expect it (RFC 9110 §10.1.1), and only a body is waited for.
    const bool body_follows = (p->flags & F_CHUNKED) != 0 ||
                              ((p->flags & F_CONTENT_LENGTH) != 0 && p->content_length > 0);
    s.continue_due_ = body_follows && (p->http_major > 1 || (p->http_major == 1 && p->http_minor >= 1)) &&
                      iequals(s.current_->header("expect"), "100-continue");
  } else
    s.current_->status = llhttp_get_status_code(p);
  return 0;
}

int parser::on_body(llhttp_t* p, const char* at, std::size_t n) {
  parser& s = self(p);
  if (s.current_->body.size() + n > s.limits_.max_body_bytes) return s.fail(413, "body too large");
  s.current_->body.append(at, n);
  return 0;
}

int parser::on_message_complete(llhttp_t* p) {
  parser& s = self(p);
  s.in_message_ = false;
  s.headers_in_ = false;
  s.continue_due_ = false;  // the body came already
  s.current_ = nullptr;
  ++s.count_;
  return 0;
}

void parser::release() {
  // What is not handed out yet, and a message still arriving, move to the front; the released
  // messages go behind them, their storage kept for the next ones.
  const std::size_t kept_end = count_ + (in_message_ ? 1 : 0);
  std::rotate(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(handed_),
              done_.begin() + static_cast<std::ptrdiff_t>(kept_end));
  count_ -= handed_;
  handed_ = 0;
  if (in_message_) current_ = &done_[count_];
}

bool parser::finish() {
  return error_status_ == 0 && llhttp_finish(&llhttp_) == HPE_OK;
}

message* parser::next(std::error_code& error) {
  if (handed_ < count_) return &done_[handed_++];
  if (error_status_ != 0) error = error_status_ == 400 ? errc::protocol_error : errc::frame_too_long;
  return nullptr;
}

void parser::feed(std::span<const std::byte> data) {
  // Nothing to parse (or the stream failed already); and llhttp computes `data + len` even for
  // no bytes, which is undefined for the null pointer an empty span may carry (found by
  // fuzz_http1_parser under UBSan).
  if (data.empty() || error_status_ != 0) return;
  const llhttp_errno_t err =
      llhttp_execute(&llhttp_, reinterpret_cast<const char*>(data.data()), data.size());
  if (err != HPE_OK && error_status_ == 0) {  // llhttp's own error (ours set their status first)
    error_status_ = 400;
    error_reason_ = llhttp_get_error_reason(&llhttp_) ? llhttp_get_error_reason(&llhttp_) : "bad request";
  }
}

}  // namespace wirebench::http1
