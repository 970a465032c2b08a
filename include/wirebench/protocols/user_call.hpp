#pragma once
// A call the user defines, sent instead of the greet call (client_config::calls): any HTTP
// request, RESP command, gRPC method or MessagePack-RPC method, so that wirebench loads a server
// it did not write (h2load's URL, redis-benchmark's command, ghz's --proto and --call). The codec
// that sends it also judges each reply (the expected status or body, or not an error reply): the
// harness then checks nothing of its own, since it cannot know what a correct reply is.
//
// What a request holds is its family's own struct (http_call, resp_call, ...), defined in the
// folder of the protocols that send it, with the form that reads it from the command line, a
// workload file and results (user_call_form.hpp). Nothing outside that folder reads its fields:
// here a request is only a value that names its form.
//
// Built once at start-up; each client codec turns it into request bytes once per connection and
// sends those for every call, with the placeholder below filled in per call. Several user calls
// make a mix (client_config::calls): each call sends one of them, the one its payload names
// (request_payload below), which the load drivers pick by weight.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace wirebench {

// Replaced in each call's bytes by 12 decimal digits, random in [0, user_call::keyspace), as
// redis-benchmark -r does (same name, same width: the bytes keep their length, so the request is
// built once and the digits written over the placeholder). In any field a form lists as sent
// (request_field). call_placeholder.hpp has the others (__sequence__, __rand_str__,
// __payload_N__), and call_picks.hpp those picked from a list (__pick(a|b)__, __csv(FILE:COLUMN)__).
inline constexpr std::string_view random_int_placeholder = "__rand_int__";

struct user_call_form;  // user_call_form.hpp

// A text field of a request, where the placeholders and picks go: where it is and what a value
// put there must be.
enum class request_field_kind : std::uint8_t {
  text,          // anything
  json,          // a JSON document: a value goes in escaped, inside a string
  url_target,    // a URL's path and query: no space or control character
  header_value,  // a header or metadata value: no CR, LF or NUL
};
struct request_field {
  std::string* text;
  request_field_kind kind;
  // __payload_N__ and __rand_str_N__ expand here (call_placeholder.hpp): the bytes sent that
  // are sized by them; not an expectation.
  bool sized = true;
};

// A request of any family, as a value: copies copy the family's struct. A family's struct T is
// an aggregate with operator==, and its header declares, beside it, the form that reads it:
//   const user_call_form& form_of(const T*);   (found by argument-dependent lookup)
class user_request {
 public:
  user_request() = default;  // none: only a default-made user_call has none
  template <class T>
    requires requires(const T* t) { form_of(t); }
  user_request(T request)  // NOLINT: a family's struct is a request
      : held_(std::make_unique<holder<T>>(std::move(request))) {}
  user_request(const user_request& other) : held_(other.held_ ? other.held_->copy() : nullptr) {}
  user_request(user_request&&) noexcept = default;
  user_request& operator=(const user_request& other) {
    if (this != &other) held_ = other.held_ ? other.held_->copy() : nullptr;
    return *this;
  }
  user_request& operator=(user_request&&) noexcept = default;

  // The family's struct, when it is a T; nullptr otherwise.
  template <class T>
  const T* as() const {
    return held_ && held_->type() == typeid(T) ? &static_cast<const holder<T>*>(held_.get())->value : nullptr;
  }
  template <class T>
  T* as() {
    return held_ && held_->type() == typeid(T) ? &static_cast<holder<T>*>(held_.get())->value : nullptr;
  }
  // The form that reads and writes it; nullptr for none.
  const user_call_form* form() const { return held_ ? &held_->form() : nullptr; }
  friend bool operator==(const user_request& a, const user_request& b) {
    if (!a.held_ || !b.held_) return !a.held_ && !b.held_;
    return a.held_->same_as(*b.held_);
  }

 private:
  struct base {
    virtual ~base() = default;
    virtual std::unique_ptr<base> copy() const = 0;
    virtual const std::type_info& type() const = 0;
    virtual const user_call_form& form() const = 0;
    virtual bool same_as(const base& other) const = 0;
  };
  template <class T>
  struct holder final : base {
    explicit holder(T v) : value(std::move(v)) {}
    std::unique_ptr<base> copy() const override { return std::make_unique<holder>(value); }
    const std::type_info& type() const override { return typeid(T); }
    const user_call_form& form() const override { return form_of(static_cast<const T*>(nullptr)); }
    bool same_as(const base& other) const override {
      return other.type() == typeid(T) && static_cast<const holder&>(other).value == value;
    }
    T value;
  };
  std::unique_ptr<base> held_;
};

struct user_call {
  user_request request;
  std::uint64_t keyspace = 1'000'000;  // the placeholder's range, [0, keyspace); at least 1
  // In a mix: its share of the calls is weight / (the sum of the mix's weights); at least 1.
  std::uint32_t weight = 1;
  // What results call it ("" = describe()'s text): a workload file's `name`.
  std::string name = {};

  template <class T>
  const T* as() const {
    return request.as<T>();
  }
  const user_call_form* form() const { return request.form(); }
  friend bool operator==(const user_call&, const user_call&) = default;
};

// What a person reads: "GET /x (expect 200)", "SET k:__rand_int__ v"; for tables and logs (its
// control bytes escaped, cut at 200 bytes).
std::string describe(const user_call& call);
// Its name if it has one, else describe()'s text without the placeholder's range: what a
// mix's results label it with.
std::string label(const user_call& call);
// The request's text fields, for the placeholders and picks to write into (a form's fields()).
std::vector<request_field> fields_of(user_call& call);

// The most requests a mix may have: each keeps latency histograms of its own per recording
// thread (216 KB each), so a mix is sized for distinct calls, not for a log to replay.
inline constexpr std::size_t max_mix_requests = 100;
// The most bytes a client's requests may come to, every variant of their picks with its payloads
// expanded, over all its connections (each encodes every one): far past any sensible load, well
// below a machine's memory.
inline constexpr std::size_t most_request_bytes = std::size_t{1} << 30;

// With user calls, a call's payload (the name the greet call would carry) names which of them it
// sends: request `index`'s payload is its decimal digits ("0", "1", ...), a static string.
// index < max_mix_requests.
std::string_view request_payload(std::size_t index);
// The index a payload names; nullopt when it names none of `count` requests (a codec then fails
// the call with invalid_argument). A single user call takes any payload as its own (index 0), as
// callers that know nothing of mixes (`call`, the benchmarks) send names.
std::optional<std::size_t> request_index(std::string_view payload, std::size_t count);

}  // namespace wirebench
