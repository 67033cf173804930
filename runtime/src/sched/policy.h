// Scheduling policy: which ready fiber a worker runs next.
//
// A policy is one worker's ready queue, behind an interface in the manner of
// Boost.Fiber's scheduling algorithms, so that the worker loop does not
// depend on the order. Two are provided: RoundRobinPolicy (the order in which
// fibers became ready) and PriorityPolicy (highest Fiber::priority first,
// in the order they became ready among equals). Both are intrusive queues
// (Fiber::next): moving a fiber between queues allocates nothing.
#pragma once

#include <cstddef>
#include <memory>

#include "fiber/fiber.h"

namespace tucana::sched {

// Contract for every member: not thread-safe. The worker that owns the
// policy serializes all calls: with stealing off only its own thread calls
// them; with stealing on, other workers take fibers from it too (Worker::steal),
// and every call, the owner's included, is made under the worker's ready lock.
class ReadyPolicy {
 public:
  virtual ~ReadyPolicy() = default;
  // `f`, suspended and in no queue, became ready. Its Fiber::priority is
  // read now (a queued fiber's priority does not change: only a running
  // fiber changes its own).
  virtual void awakened(fiber::Fiber* f) = 0;
  // Removes and returns the fiber to run next, or null when none is ready.
  virtual fiber::Fiber* pick_next() = 0;
  virtual bool has_ready() const = 0;
  virtual std::size_t size() const = 0;
  // The priority by which the fiber that pick_next() would return ranks,
  // for comparing the queues of several workers when stealing (a thief takes
  // from the queue whose next fiber ranks highest). 0 for a policy that
  // ignores priorities. Contract: has_ready().
  virtual int next_priority() const = 0;
  // True when a ready fiber ought to run before a running fiber of priority
  // `priority` that could go on (which then yields at its next scheduling
  // point). Always false for a policy that ignores priorities.
  virtual bool outranks(int priority) const = 0;
};

// Round robin: ready fibers run in the order they became ready; priorities
// are ignored.
class RoundRobinPolicy final : public ReadyPolicy {
 public:
  void awakened(fiber::Fiber* f) override {
    f->next = nullptr;
    if (tail_) tail_->next = f; else head_ = f;
    tail_ = f;
    ++size_;
  }
  fiber::Fiber* pick_next() override {
    fiber::Fiber* f = head_;
    if (!f) return nullptr;
    head_ = f->next;
    if (!head_) tail_ = nullptr;
    f->next = nullptr;
    --size_;
    return f;
  }
  bool has_ready() const override { return head_ != nullptr; }
  std::size_t size() const override { return size_; }
  int next_priority() const override { return 0; }
  bool outranks(int) const override { return false; }

 private:
  fiber::Fiber* head_ = nullptr;
  fiber::Fiber* tail_ = nullptr;
  std::size_t size_ = 0;
};

// Priorities: the ready fiber with the highest Fiber::priority runs first;
// among equal priorities, the one that became ready first (so with all
// priorities equal this is RoundRobinPolicy). The queue is kept sorted:
// awakened() is O(1) when the fiber ranks no higher than the last one queued
// (always, when all priorities are equal), else O(queue length).
class PriorityPolicy final : public ReadyPolicy {
 public:
  void awakened(fiber::Fiber* f) override {
    ++size_;
    if (!head_) {
      f->next = nullptr;
      head_ = tail_ = f;
      return;
    }
    if (tail_->priority >= f->priority) {  // behind every fiber of its priority or higher
      f->next = nullptr;
      tail_->next = f;
      tail_ = f;
      return;
    }
    if (head_->priority < f->priority) {
      f->next = head_;
      head_ = f;
      return;
    }
    // head ranks >= f > tail: after the last fiber of priority >= f's.
    fiber::Fiber* at = head_;
    while (at->next->priority >= f->priority) at = at->next;
    f->next = at->next;
    at->next = f;
  }
  fiber::Fiber* pick_next() override {
    fiber::Fiber* f = head_;
    if (!f) return nullptr;
    head_ = f->next;
    if (!head_) tail_ = nullptr;
    f->next = nullptr;
    --size_;
    return f;
  }
  bool has_ready() const override { return head_ != nullptr; }
  std::size_t size() const override { return size_; }
  int next_priority() const override { return head_->priority; }
  bool outranks(int priority) const override { return head_ && head_->priority > priority; }

 private:
  fiber::Fiber* head_ = nullptr;  // highest priority first
  fiber::Fiber* tail_ = nullptr;
  std::size_t size_ = 0;
};

enum class PolicyKind { kPriority, kRoundRobin };

inline std::unique_ptr<ReadyPolicy> make_policy(PolicyKind kind) {
  if (kind == PolicyKind::kRoundRobin) return std::make_unique<RoundRobinPolicy>();
  return std::make_unique<PriorityPolicy>();
}

}  // namespace tucana::sched
