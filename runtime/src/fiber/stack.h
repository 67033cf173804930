// Guard-paged fiber stacks.
#pragma once

#include <cstddef>

namespace tucana::fiber {

// One fiber stack: `usable` bytes above an inaccessible guard region. The
// guard catches an overflow as a fault at a known address (see guard.h).
struct Stack {
  void* mapping = nullptr;   // start of the whole mapping (the guard's low end)
  std::size_t mapped = 0;    // bytes mapped, guard included
  std::size_t usable = 0;    // bytes the fiber may use
  std::size_t guard = 0;     // bytes of the guard region

  void* top() const { return static_cast<char*>(mapping) + mapped; }
  void* guard_begin() const { return mapping; }
  void* guard_end() const { return static_cast<char*>(mapping) + guard; }
};

// Maps a stack of at least `usable` bytes (rounded up to pages) with a guard
// region of `guard` bytes below it. Memory is committed lazily by the kernel.
// Throws std::system_error when the mapping fails.
Stack allocate_stack(std::size_t usable, std::size_t guard);

// Unmaps a stack from allocate_stack. Must not be the running stack.
void release_stack(Stack& stack);

}  // namespace tucana::fiber
