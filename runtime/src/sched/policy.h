// Scheduling policy: which ready fiber a worker runs next, and the
// decisions of the worker that depend on that order.
//
// A policy is one worker's ready queue plus what the worker asks it, behind
// an interface in the manner of Boost.Fiber's scheduling algorithms, so
// that the worker loop does not depend on the order: the queue (awakened,
// pick_next), how priorities compare, across the process too (outranks,
// take_higher_elsewhere), what an idle worker takes from the others (steal),
// and when a worker polls the communication layer (poll_now,
// poll_when_idle). Three are provided: PriorityPolicy (highest
// Fiber::priority first, in the order they became ready among equals; the
// default), RoundRobinPolicy (the order in which fibers became ready) and
// RandomPolicy (seeded schedules). All are intrusive queues (Fiber::next):
// moving a fiber between queues allocates nothing.
//
// Adding a policy: a class derived from ReadyPolicy, plus one line in the
// registry (kPolicies in policy.cc) that names it for --policy, and its name
// in the --policy row of run_options.def (policy.cc checks the two agree).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "fiber/fiber.h"
#include "sched/random.h"

namespace tucana::sched {

class Worker;

// Process-wide priorities (SchedulerConfig::process_wide_priority): the
// best priority ready on each worker of a scheduler (its queue and its
// inbox), published by that worker's policy for the policies of the other
// workers. One per Scheduler, shared by its workers' policies. Written by
// the worker's policy under its ready lock (or, for a fiber handed over to
// its inbox, raised with a CAS by any thread), read by anyone without a
// lock: a stale value only makes a worker miss or try a steal once.
class PriorityBoard {
 public:
  static constexpr int kNoneReady = -(1 << 30) - 1;  // below every fiber's priority

  explicit PriorityBoard(int workers);
  int workers() const { return workers_; }
  int best(int worker) const { return slots_[worker].best.load(std::memory_order_relaxed); }
  // Sets `worker`'s best ready priority (kNoneReady: none ready).
  void publish(int worker, int best) {
    std::atomic<int>& slot = slots_[worker].best;
    if (slot.load(std::memory_order_relaxed) != best) slot.store(best, std::memory_order_relaxed);
  }
  // Raises `worker`'s best ready priority to at least `priority`. Any thread.
  void raise(int worker, int priority) {
    std::atomic<int>& slot = slots_[worker].best;
    int cur = slot.load(std::memory_order_relaxed);
    while (cur < priority && !slot.compare_exchange_weak(cur, priority, std::memory_order_relaxed)) {
    }
  }
  // The worker other than `worker` whose published best priority is the
  // highest and strictly above `above` (the first of equals); -1 when none is.
  int best_elsewhere(int worker, int above) const {
    int found = -1;
    for (int i = 0; i < workers_; ++i) {
      if (i == worker) continue;
      int p = best(i);
      if (p > above) {
        found = i;
        above = p;
      }
    }
    return found;
  }

 private:
  // A cache line each: every worker writes its own on every switch.
  struct alignas(64) Slot {
    std::atomic<int> best{kNoneReady};
  };
  int workers_;
  std::unique_ptr<Slot[]> slots_;
};

// What a policy's factory is told about the worker it orders.
struct PolicyContext {
  int worker = 0;           // the worker's index
  std::uint64_t seed = 0;   // SchedulerConfig::seed (seeded schedules)
  // Non-null when priorities count across the workers of the process (with
  // stealing and SchedulerConfig::process_wide_priority), for a policy
  // that ranks by priority; a policy that ignores priorities ignores it.
  PriorityBoard* board = nullptr;
};

// Contracts. The queue members (awakened .. outranks) are not thread-safe:
// the worker that owns the policy serializes them; with stealing off only
// its own thread calls them; with stealing on, other workers take fibers
// from it too (Worker::steal), and every call, the owner's included, is
// made under the worker's ready lock. The worker members (steal ..
// poll_when_idle) are called by the owner's thread only, never under its
// ready lock, and touch no state of the queue members but the board's
// atomics. handed_over may be called by any thread.
class ReadyPolicy {
 public:
  virtual ~ReadyPolicy() = default;

  // ---- the queue
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
  // point): one of this queue, or, with process-wide priorities, one ready
  // on another worker that ranks strictly higher (the caller's yield then
  // takes it). Always false for a policy that ignores priorities.
  virtual bool outranks(int priority) const = 0;

  // ---- the worker's decisions
  // An idle worker, `thief`, takes a ready fiber of another worker of its
  // scheduler (a cousin), or returns null. By default: from the worker
  // whose next ready fiber ranks highest (next_priority), round robin among
  // equals. Only when stealing is enabled.
  virtual fiber::Fiber* steal(Worker& thief);
  // Process-wide priorities (process_wide()): before `self` picks its next
  // fiber, returns a ready fiber of another worker that ranks strictly
  // higher than `self`'s best ready one, or than `floor` when `self` has
  // none ready; null when there is none. Null by default.
  virtual fiber::Fiber* take_higher_elsewhere(Worker& self, int floor);
  // Any thread (no lock): `f` was handed over to the worker's inbox, to be
  // awakened later by its owner. Nothing by default.
  virtual void handed_over(const fiber::Fiber* f);
  // Seeded poll moments (draws_polls()): whether the worker polls the
  // communication layer at this switch; `busy`: communication is in
  // flight; `period`: the worker's switches between two polls otherwise.
  // By default: when busy.
  virtual bool poll_now(bool busy, unsigned period);
  // Whether an idle worker polls the communication layer this round (it
  // idles when it does not, or when the poll moved nothing). By default:
  // always.
  virtual bool poll_when_idle();

  // Set once by the policy's constructor, read by the worker on every
  // switch (a field, not a call): whether to call take_higher_elsewhere and
  // handed_over at all, and whether poll_now draws the poll moments
  // (otherwise the worker polls every few switches, and on every switch
  // while busy).
  bool process_wide() const { return process_wide_; }
  bool draws_polls() const { return draws_polls_; }

 protected:
  bool process_wide_ = false;
  bool draws_polls_ = false;

 private:
  unsigned steal_from_ = 0;  // steal(): the worker stolen from last
};

// An intrusive singly linked queue of fibers (Fiber::next), the storage of
// the policies here. Contract: a fiber is in at most one queue at a time.
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
  RoundRobinPolicy() = default;
  explicit RoundRobinPolicy(const PolicyContext&) {}
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
// (always, when all priorities are equal), else O(queue length). With a
// board (PolicyContext::board) it publishes its best ready priority there
// on every change and ranks against the other workers' too.
class PriorityPolicy final : public ReadyPolicy {
 public:
  PriorityPolicy() = default;
  explicit PriorityPolicy(const PolicyContext& context) : board_(context.board), worker_(context.worker) {
    process_wide_ = board_ != nullptr;
  }
  void awakened(fiber::Fiber* f) override {
    insert(f);
    publish();
  }
  fiber::Fiber* pick_next() override {
    fiber::Fiber* f = queue_.pop_front();
    publish();
    return f;
  }
  bool has_ready() const override { return !queue_.empty(); }
  std::size_t size() const override { return queue_.size(); }
  int next_priority() const override { return queue_.front()->priority; }
  int last_priority() const override { return queue_.back()->priority; }
  bool outranks(int priority) const override {
    if (!queue_.empty() && queue_.front()->priority > priority) return true;
    return board_ && board_->best_elsewhere(worker_, priority) >= 0;
  }
  fiber::Fiber* take_higher_elsewhere(Worker& self, int floor) override;
  void handed_over(const fiber::Fiber* f) override {
    if (board_) board_->raise(worker_, f->priority);
  }

 private:
  void insert(fiber::Fiber* f) {
    // Behind every fiber of its priority or higher.
    if (queue_.empty() || queue_.back()->priority >= f->priority) return queue_.push_back(f);
    if (queue_.front()->priority < f->priority) return queue_.push_front(f);
    // front ranks >= f > back: after the last fiber of priority >= f's.
    fiber::Fiber* at = queue_.front();
    while (at->next->priority >= f->priority) at = at->next;
    queue_.insert_after(at, f);
  }
  void publish() {
    if (board_) board_->publish(worker_, queue_.empty() ? PriorityBoard::kNoneReady : queue_.front()->priority);
  }

  FiberQueue queue_;  // highest priority first
  PriorityBoard* const board_ = nullptr;
  const int worker_ = 0;
};

// Seeded random order (TUCANA_SCHED_SEED): the next fiber is drawn
// uniformly among the ready ones; priorities are ignored. For testing: it
// produces orders that the other policies never do, and the seed names the
// sequence of draws. pick_next is O(queue length). The worker's decisions
// are drawn too, from a second generator (owner only): when to poll, and
// whether and from whom to steal.
class RandomPolicy final : public ReadyPolicy {
 public:
  // `seed`: the queue's draws; `decision_seed`: the worker's.
  explicit RandomPolicy(std::uint64_t seed, std::uint64_t decision_seed = 0)
      : rng_(seed), decisions_(decision_seed) {
    draws_polls_ = true;
  }
  // Mixed with the worker's index: each worker draws its own sequence.
  explicit RandomPolicy(const PolicyContext& context)
      : RandomPolicy(mix_seed(context.seed) ^ static_cast<std::uint64_t>(context.worker),
                     mix_seed(context.seed + 0x51ed) ^ static_cast<std::uint64_t>(context.worker)) {}
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
  // Sometimes not at all, else from a random victim that has a ready fiber.
  fiber::Fiber* steal(Worker& thief) override;
  // At random switches, more often with messages in flight.
  bool poll_now(bool busy, unsigned period) override { return decisions_.one_in(busy ? 2 : period); }
  // The network is sometimes not polled this round.
  bool poll_when_idle() override { return !decisions_.one_in(4); }

 private:
  FiberQueue queue_;
  Rng rng_;         // the queue's (under the ready lock)
  Rng decisions_;   // the worker's (owner only)
};

// ---- the registry of the policies that --policy names
// Their names, in the registry's order (the first is the default). config.cc
// checks at compile time that run_options.def's --policy row offers exactly
// these; policy.cc's registry takes its names from here, one line each.
inline constexpr const char* kPolicyNames[] = {"priority", "fifo"};
// Makes a worker's policy.
using PolicyFactory = std::unique_ptr<ReadyPolicy> (*)(const PolicyContext& context);
// The factory of the policy registered as `name` (tucana-run --policy,
// TUCANA_POLICY), or null when none is.
PolicyFactory find_policy(const std::string& name);
// The registered names as an error message lists them: "'priority' or 'fifo'".
std::string policy_names();
// The policy of seeded schedules (SchedulerConfig::randomized), whatever
// --policy says.
std::unique_ptr<ReadyPolicy> make_seeded_policy(const PolicyContext& context);

}  // namespace tucana::sched
