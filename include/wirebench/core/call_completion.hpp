#pragma once
// How a call ends, as a value: a move-only callable taking (std::error_code, std::string_view).
//
// Hand-written rather than std::function: a completion passes through several hands per call
// (the caller, the engine, the matcher's slot, the batch of replies read together), and
// std::function's move-assignment swaps and its destruction is an indirect call. Here a small
// callable that is trivially copyable (a lambda capturing pointers and indices, the common case)
// is held inline and moves as plain bytes, and destruction of it is no call at all; any other
// callable lives on the heap, so every completion still moves as bytes. std::move_only_function
// (C++23) moves through its manager too.
#include <cstddef>
#include <cstring>
#include <functional>
#include <new>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

namespace wirebench {

namespace detail {
template <class C>
inline constexpr bool is_std_function = false;
template <class Signature>
inline constexpr bool is_std_function<std::function<Signature>> = true;
}  // namespace detail

/// How a call ends. Runs exactly once: with an empty error code and the reply (a view valid only
/// during the call), or with an error and, when the server said why, its words (remote_error's
/// text; an unexpected status's status and body), else an empty reply.
///
/// Move-only (std::function, which it replaced, was copyable). Built from any callable invocable
/// as `f(std::error_code, std::string_view)`; callables of up to 16 bytes, pointer-aligned and
/// trivially copyable, are stored inline, others on the heap. A null function pointer or an empty
/// std::function makes an empty completion. Calling an empty one is undefined (std::function
/// threw bad_function_call): test it with `bool(c)` first where it may be empty.
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
    if constexpr (std::is_pointer_v<callable> || detail::is_std_function<callable>) {
      if (f == nullptr) return;  // a null pointer or an empty std::function: empty, as theirs
    }
    if constexpr (stored_inline<callable>) {
      ::new (static_cast<void*>(storage_)) callable(std::forward<F>(f));
      invoke_ = [](void* s, std::error_code ec, std::string_view reply) {
        (*std::launder(static_cast<callable*>(s)))(ec, reply);
      };
    } else {
      ::new (static_cast<void*>(storage_)) callable*(new callable(std::forward<F>(f)));
      invoke_ = [](void* s, std::error_code ec, std::string_view reply) {
        (**std::launder(static_cast<callable**>(s)))(ec, reply);
      };
      destroy_ = [](void* s) { delete *std::launder(static_cast<callable**>(s)); };
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
  void operator()(std::error_code ec, std::string_view reply) const { invoke_(storage_, ec, reply); }

 private:
  static constexpr std::size_t inline_bytes = 16;
  template <class C>
  static constexpr bool stored_inline = sizeof(C) <= inline_bytes &&
                                        alignof(C) <= alignof(void*) &&
                                        std::is_trivially_copyable_v<C>;

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

  // Mutable: a const completion still runs its callable as a non-const lvalue (a mutable
  // lambda's state changes), as std::function does. Pointer-aligned, as std::function's storage.
  alignas(void*) mutable unsigned char storage_[inline_bytes];
  void (*invoke_)(void*, std::error_code, std::string_view) = nullptr;
  void (*destroy_)(void*) = nullptr;  // null for inline callables (trivially destructible)
};

}  // namespace wirebench
