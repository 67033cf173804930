// Scheduling policy: which ready fiber a worker runs next.
#pragma once

#include <cstddef>

#include "fiber/fiber.h"

namespace tucana::sched {

// Round robin: ready fibers run in the order they became ready. The queue is
// intrusive (Fiber::next), so moving a fiber between queues allocates nothing.
// Contract: used only by the worker thread that owns it.
class RoundRobinPolicy {
 public:
  // `f` became ready.
  void awakened(fiber::Fiber* f) {
    f->next = nullptr;
    if (tail_) tail_->next = f; else head_ = f;
    tail_ = f;
    ++size_;
  }
  // Removes and returns the fiber to run next, or null when none is ready.
  fiber::Fiber* pick_next() {
    fiber::Fiber* f = head_;
    if (!f) return nullptr;
    head_ = f->next;
    if (!head_) tail_ = nullptr;
    f->next = nullptr;
    --size_;
    return f;
  }
  bool has_ready() const { return head_ != nullptr; }
  std::size_t size() const { return size_; }

 private:
  fiber::Fiber* head_ = nullptr;
  fiber::Fiber* tail_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace tucana::sched
