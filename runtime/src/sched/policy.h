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
#include "sched/random.h"

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
  // The priority by which the fiber queued last ranks (the one pick_next()
  // would return last): a fiber awakened with it, or a lower one, queues
  // behind every ready fiber. 0 for a policy that ignores priorities.
  // Contract: has_ready().
  virtual int last_priority() const = 0;
  // True when a ready fiber ought to run before a running fiber of priority
  // `priority` that could go on (which then yields at its next scheduling
  // point). Always false for a policy that ignores priorities.
  virtual bool outranks(int priority) const = 0;
};

// An intrusive singly linked queue of fibers (Fiber::next), the storage of
// both policies. Contract: a fiber is in at most one queue at a time.
class FiberQueue {
 public:
  void push_back(fiber::Fiber* f) {
    f->next = nullptr;
    if (tail_) tail_->next = f; else head_ = f;
    tail_ = f;
    ++size_;
  }
  void push_front(fiber::Fiber* f) {
    f->next = head_;
    head_ = f;
    if (!tail_) tail_ = f;
    ++size_;
  }
  // Inserts `f` after `at`, a fiber of this queue that is not its tail.
  void insert_after(fiber::Fiber* at, fiber::Fiber* f) {
    f->next = at->next;
    at->next = f;
    ++size_;
  }
  fiber::Fiber* pop_front() {
    fiber::Fiber* f = head_;
    if (!f) return nullptr;
    head_ = f->next;
    if (!head_) tail_ = nullptr;
    f->next = nullptr;
    --size_;
    return f;
  }
  // Removes and returns the fiber after `at`, a fiber of this queue that is
  // not its tail.
  fiber::Fiber* remove_after(fiber::Fiber* at) {
    fiber::Fiber* f = at->next;
    at->next = f->next;
    if (tail_ == f) tail_ = at;
    f->next = nullptr;
    --size_;
    return f;
  }
  fiber::Fiber* front() const { return head_; }
  fiber::Fiber* back() const { return tail_; }
  bool empty() const { return head_ == nullptr; }
  std::size_t size() const { return size_; }

 private:
  fiber::Fiber* head_ = nullptr;
  fiber::Fiber* tail_ = nullptr;
  std::size_t size_ = 0;
};

// Round robin: ready fibers run in the order they became ready; priorities
// are ignored.
class RoundRobinPolicy final : public ReadyPolicy {
 public:
  void awakened(fiber::Fiber* f) override { queue_.push_back(f); }
  fiber::Fiber* pick_next() override { return queue_.pop_front(); }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t size() const override { return queue_.size(); }
  int next_priority() const override { return 0; }
  int last_priority() const override { return 0; }
  bool outranks(int) const override { return false; }

 private:
  FiberQueue queue_;
};

// Priorities: the ready fiber with the highest Fiber::priority runs first;
// among equal priorities, the one that became ready first (so with all
// priorities equal this is RoundRobinPolicy). The queue is kept sorted:
// awakened() is O(1) when the fiber ranks no higher than the last one queued
// (always, when all priorities are equal), else O(queue length).
class PriorityPolicy final : public ReadyPolicy {
 public:
  void awakened(fiber::Fiber* f) override {
    // Behind every fiber of its priority or higher.
    if (queue_.empty() || queue_.back()->priority >= f->priority) return queue_.push_back(f);
    if (queue_.front()->priority < f->priority) return queue_.push_front(f);
    // front ranks >= f > back: after the last fiber of priority >= f's.
    fiber::Fiber* at = queue_.front();
    while (at->next->priority >= f->priority) at = at->next;
    queue_.insert_after(at, f);
  }
  fiber::Fiber* pick_next() override { return queue_.pop_front(); }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t size() const override { return queue_.size(); }
  int next_priority() const override { return queue_.front()->priority; }
  int last_priority() const override { return queue_.back()->priority; }
  bool outranks(int priority) const override { return !queue_.empty() && queue_.front()->priority > priority; }

 private:
  FiberQueue queue_;  // highest priority first
};

// Seeded random order (TUCANA_SCHED_SEED): the next fiber is drawn
// uniformly among the ready ones; priorities are ignored. For testing: it
// produces orders that the other policies never do, and the seed names the
// sequence of draws. pick_next is O(queue length).
class RandomPolicy final : public ReadyPolicy {
 public:
  explicit RandomPolicy(std::uint64_t seed) : rng_(seed) {}
  void awakened(fiber::Fiber* f) override { queue_.push_back(f); }
  fiber::Fiber* pick_next() override {
    if (queue_.empty()) return nullptr;
    std::uint64_t k = rng_.below(queue_.size());
    if (k == 0) return queue_.pop_front();
    fiber::Fiber* at = queue_.front();
    while (--k > 0) at = at->next;
    return queue_.remove_after(at);
  }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t size() const override { return queue_.size(); }
  int next_priority() const override { return 0; }
  int last_priority() const override { return 0; }
  bool outranks(int) const override { return false; }

 private:
  FiberQueue queue_;
  Rng rng_;
};

enum class PolicyKind { kPriority, kRoundRobin, kRandom };

// `seed`: RandomPolicy's.
inline std::unique_ptr<ReadyPolicy> make_policy(PolicyKind kind, std::uint64_t seed = 0) {
  if (kind == PolicyKind::kRoundRobin) return std::make_unique<RoundRobinPolicy>();
  if (kind == PolicyKind::kRandom) return std::make_unique<RandomPolicy>(seed);
  return std::make_unique<PriorityPolicy>();
}

}  // namespace tucana::sched
