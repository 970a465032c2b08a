#pragma once
// How a call ends, as a value: a move-only callable taking (std::error_code, std::string_view).
//
// Hand-written rather than std::function: a completion passes through several hands per call
// (the caller, the engine, the matcher's slot, the batch of replies read together), and
// std::function moves by swapping and destroys through an indirect call. Here a small callable
// that is trivially copyable (a lambda capturing pointers and indices, the common case) is held
// inline and moves as plain bytes, and destruction of it is no call at all; any other callable
// lives on the heap, so every completion still moves as bytes. std::move_only_function (C++23)
// moves through its manager too.
#include <cstddef>
#include <cstring>
#include <new>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

namespace wirebench {

/// How a call ends. Runs exactly once: with an empty error code and the reply (a view valid only
/// during the call), or with an error and, when the server said why, its words (remote_error's
/// text; an unexpected status's status and body), else an empty reply.
///
/// Move-only. Built from any callable invocable as `f(std::error_code, std::string_view)`;
/// callables of up to 16 bytes that are trivially copyable are stored inline, others on the heap.
class call_completion {
 public:
  /// Empty: `bool(*this)` is false and it must not be called.
  call_completion() noexcept = default;
  call_completion(std::nullptr_t) noexcept {}  // NOLINT: as std::function's

  /// Holds `f` (moved or copied in).
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, call_completion> &&
             std::is_invocable_v<std::decay_t<F>&, std::error_code, std::string_view>)
  call_completion(F&& f) {  // NOLINT: implicit, as std::function's
    using callable = std::decay_t<F>;
    if constexpr (stored_inline<callable>) {
      ::new (static_cast<void*>(storage_)) callable(std::forward<F>(f));
      invoke_ = [](void* s, std::error_code ec, std::string_view reply) {
        (*std::launder(static_cast<callable*>(s)))(ec, reply);
      };
    } else {
      heap_pointer() = new callable(std::forward<F>(f));
      invoke_ = [](void* s, std::error_code ec, std::string_view reply) {
        (**static_cast<callable**>(s))(ec, reply);
      };
      destroy_ = [](void* s) { delete *static_cast<callable**>(s); };
    }
  }

  call_completion(call_completion&& other) noexcept { steal(other); }
  call_completion& operator=(call_completion&& other) noexcept {
    if (this != &other) {
      reset();
      steal(other);
    }
    return *this;
  }
  call_completion& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  call_completion(const call_completion&) = delete;
  call_completion& operator=(const call_completion&) = delete;
  ~call_completion() { reset(); }

  /// Whether it holds a callable.
  explicit operator bool() const noexcept { return invoke_ != nullptr; }

  /// Runs the callable (as a non-const lvalue, as std::function does). Must not be empty.
  void operator()(std::error_code ec, std::string_view reply) const {
    invoke_(const_cast<unsigned char*>(storage_), ec, reply);
  }

 private:
  static constexpr std::size_t inline_bytes = 16;
  template <class C>
  static constexpr bool stored_inline = sizeof(C) <= inline_bytes &&
                                        alignof(C) <= alignof(std::max_align_t) &&
                                        std::is_trivially_copyable_v<C>;

  void*& heap_pointer() noexcept { return *std::launder(reinterpret_cast<void**>(storage_)); }

  void reset() noexcept {
    if (destroy_) destroy_(storage_);
    invoke_ = nullptr;
    destroy_ = nullptr;
  }
  // Bytes only: an inline callable is trivially copyable, a heap one is a pointer.
  void steal(call_completion& other) noexcept {
    std::memcpy(storage_, other.storage_, inline_bytes);
    invoke_ = other.invoke_;
    destroy_ = other.destroy_;
    other.invoke_ = nullptr;
    other.destroy_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[inline_bytes];
  void (*invoke_)(void*, std::error_code, std::string_view) = nullptr;
  void (*destroy_)(void*) = nullptr;  // null for inline callables (trivially destructible)
};

}  // namespace wirebench
