#pragma once
// An allocator that counts what it allocates and frees, for checking that an operation uses its
// handler's associated allocator (asio::bind_allocator) and frees everything it took.
#include <atomic>
#include <cstddef>
#include <memory>

namespace wirebench::test {

struct allocation_counts {
  std::atomic<int> allocations{0};
  std::atomic<int> deallocations{0};
};

template <class T>
struct counting_allocator {
  using value_type = T;
  allocation_counts* counts;

  explicit counting_allocator(allocation_counts& c) noexcept : counts(&c) {}
  template <class U>
  counting_allocator(const counting_allocator<U>& other) noexcept : counts(other.counts) {}

  T* allocate(std::size_t n) {
    counts->allocations.fetch_add(1);
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    counts->deallocations.fetch_add(1);
    std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  bool operator==(const counting_allocator<U>& other) const noexcept {
    return counts == other.counts;
  }
};

}  // namespace wirebench::test
