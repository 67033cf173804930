// A worker: one kernel thread that runs the fibers homed on it.
#pragma once

#include <atomic>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "sync/mutex.h"

#include "fiber/fiber.h"
#include "sched/policy.h"
#include "sync/mutex.h"
#include "trace/trace.h"

namespace tucana::sched {

class Scheduler;

// Called on a worker's thread each time it switches, with the actor of the
// fiber about to run (Fiber::actor; null when the thread goes back to its
// worker loop or the fiber has none), so that the layers above give the
// thread that actor's view of the program: the core sets it
// (core/privatize.h, install_run_hook) before the workers start. Null in
// the scheduler's own tests: one predictable branch per switch.
extern std::atomic<void (*)(void* actor)> g_run_hook;
// Returns a finished transient fiber to its scheduler's pool (scheduler.cc).
void recycle_transient(fiber::Fiber* f, void* scheduler);

class Scheduler;

// A spin-wait hint to the processor.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class Worker {
 public:
  Worker(Scheduler& scheduler, int index);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  int index() const { return index_; }
  Scheduler& scheduler() const { return scheduler_; }
  // The fiber running on this worker, or null in the worker loop.
  fiber::Fiber* current() const { return current_; }

  // Runs the worker loop on the calling thread until every fiber of the
  // scheduler has finished.
  void run();

  // Contract for yield/park/exit_current: called on this worker's thread by
  // its currently running fiber. (Inline: see fiber::switch_context.)
  // Lets the other ready fibers of this worker run first: switches to the
  // one the policy picks, whatever its priority (so that a fiber polling in
  // a loop always lets the others move), and queues the running one again.
  inline void yield();
  // Suspends the running fiber until Scheduler::unpark (or returns at once if
  // an unpark arrived since the last park). Callers re-check their condition.
  inline void park();
  // Leaves the running, finished fiber for good.
  [[noreturn]] void exit_current();

  // Makes `f`, homed on this worker and suspended, ready to run. Any thread.
  void make_ready(fiber::Fiber* f);

  // Wakes the worker if it sleeps for lack of work. Any thread.
  void wake();

  // Communication in flight (see Scheduler::set_in_flight_counter). A
  // worker without the counter does not progress communication: it does
  // not poll at every switch or keep awake for messages, and is never the
  // network watcher (--progress worker: every worker but 0).
  void set_in_flight_counter(const std::atomic<int>* counter) { in_flight_ = counter; }
  bool busy() const { return in_flight_ && in_flight_->load(std::memory_order_relaxed) > 0; }

  // Removes and returns a ready fiber of this worker for another worker to
  // run (a cousin), or null: the one its policy would run next (fibers
  // handed over by other threads are queued first). Any thread; only when
  // stealing is enabled (ReadyPolicy::steal and take_higher_elsewhere
  // call it).
  fiber::Fiber* steal();
  // When this worker has a ready fiber, sets *priority to the priority its
  // policy ranks the next one by (ReadyPolicy::next_priority) and returns
  // true. Any thread; only when stealing is enabled.
  bool peek_ready(int* priority);
  // The lower of `priority` and the priority by which this worker's last
  // ready fiber ranks (ReadyPolicy::last_priority): a fiber queued with it
  // goes behind every fiber ready now. Contract: called on this worker's
  // thread.
  int last_ready_priority(int priority);

  // True when a fiber ready on this worker ought to run before the running
  // one, of priority `priority`, or, with process-wide priorities, one ready
  // on another worker ranks higher (ReadyPolicy::outranks; the caller's
  // yield then takes it). Contract: called on this worker's thread.
  bool outranked(int priority);

 private:
  friend class Scheduler;
  // The ready queue is the owner's alone unless other workers may steal
  // from it; then ready_lock_ guards it (its critical sections are a few
  // pointer moves). ReadyLock takes it only then: for the analysis it always
  // holds it, which is the contract either way.
  class TUCANA_SCOPED_CAPABILITY ReadyLock {
   public:
    explicit ReadyLock(Worker& w) TUCANA_ACQUIRE(w.ready_lock_) TUCANA_NO_THREAD_SAFETY_ANALYSIS
        : lock_(w.stealing_ ? &w.ready_lock_ : nullptr) {
      if (lock_) lock_->lock();
    }
    ~ReadyLock() TUCANA_RELEASE() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
      if (lock_) lock_->unlock();
    }
    ReadyLock(const ReadyLock&) = delete;
    ReadyLock& operator=(const ReadyLock&) = delete;

   private:
    sync::SpinLock* lock_;
  };
  void push_ready(fiber::Fiber* f);
  fiber::Fiber* pop_ready() {
    ReadyLock lock(*this);
    return queue().pick_next();
  }
  bool has_ready() {
    ReadyLock lock(*this);
    return queue().has_ready();
  }
  // Switches from the running fiber to the next ready one, or to the worker
  // loop when none is ready; `handoff` says what to do with the fiber left.
  inline void switch_away(fiber::Fiber* self, const fiber::Handoff& handoff);
  fiber::Fiber* next_ready() {
    if (inbox_nonempty_.load(std::memory_order_acquire)) drain_inbox();
    if (policy_->process_wide())
      if (fiber::Fiber* f = policy_->take_higher_elsewhere(*this, PriorityBoard::kNoneReady)) return f;
    return pop_ready();
  }
  inline void maybe_poll();
  void drain_inbox();
  void poll_while_busy();
  // One round of the idle policy (worker.cc), after a round found nothing
  // to run or to poll.
  void idle(unsigned& idle_rounds);
  // Sleeps until wake() or for `nap`, unless a fiber became ready.
  void sleep_for(std::chrono::microseconds nap);

  // Tracing: the span of the fiber that stops running now ends here.
  void trace_switch() {
    if (trace::enabled()) trace_switch_slow();
  }
  void trace_switch_slow();

  static void requeue_action(fiber::Fiber* left, void* worker);
  static void park_action(fiber::Fiber* left, void* worker);

  // How many fiber switches between two polls of the communication layer
  // while fibers keep running (an idle worker polls on every round).
  static constexpr unsigned kSwitchesPerPoll = 32;

  Scheduler& scheduler_;
  const int index_;
  fiber::Context loop_context_;
  int* errno_ = nullptr;  // its thread's errno (set by run(), on that thread)
  fiber::Fiber* current_ = nullptr;
  // current_ = f, and the thread's view of f's actor (g_run_hook).
  void set_current(fiber::Fiber* f) {
    current_ = f;
    if (auto hook = g_run_hook.load(std::memory_order_relaxed)) hook(f ? f->actor : nullptr);
    if (__builtin_expect(trace::enabled(), 0) && f && f->ready_ns) note_wake_latency(f);
  }
  // Tracing: `f`, woken at f->ready_ns, starts running now.
  void note_wake_latency(fiber::Fiber* f);
  sync::SpinLock ready_lock_{sync::LockLevel::kReadyQueue, "ready queue"};
  const bool stealing_;   // other workers may take ready fibers from the queue
  // The policy (set once). Its queue members are reached through queue(),
  // under the ready lock; its worker members (ReadyPolicy::steal ..
  // poll_when_idle) through policy_, by the owner's thread without the
  // lock (handed_over: any thread), as ReadyPolicy's contract says.
  const std::unique_ptr<ReadyPolicy> policy_;
  ReadyPolicy& queue() TUCANA_REQUIRES(ready_lock_) { return *policy_; }
  unsigned switches_ = 0;
  const std::atomic<int>* in_flight_ = nullptr;
  std::int64_t running_since_ns_ = 0;  // tracing: when current_ started running

  // Fibers made ready by other threads; moved to ready_ by the owner.
  sync::Mutex inbox_mutex_{sync::LockLevel::kInbox, "worker inbox"};
  fiber::Fiber* inbox_head_ TUCANA_GUARDED_BY(inbox_mutex_) = nullptr;
  fiber::Fiber* inbox_tail_ TUCANA_GUARDED_BY(inbox_mutex_) = nullptr;
  std::atomic<bool> inbox_nonempty_{false};

  // Sleep when there is nothing to do for a while.
  sync::Mutex sleep_mutex_{sync::LockLevel::kSleep, "worker sleep"};
  std::condition_variable sleep_cv_;
  std::atomic<bool> sleeping_{false};
};

inline void Worker::maybe_poll() {
  ++switches_;
  if (__builtin_expect(policy_->draws_polls(), 0)) {
    // Seeded schedules: the policy draws the moments.
    if (policy_->poll_now(busy(), kSwitchesPerPoll)) poll_while_busy();
    return;
  }
  if (switches_ % kSwitchesPerPoll == 0 || busy()) poll_while_busy();
}

inline void Worker::switch_away(fiber::Fiber* self, const fiber::Handoff& handoff) {
  // A lock held across a switch would be released on another thread, or
  // block this worker's other fibers.
  assert(sync::locks_held() == 0 && "a fiber switches while holding a lock");
  // What the runtime does here for the process (polling MPI, stall checks)
  // must not leak into the leaving fiber's errno, which switch_context
  // saves: kept and put back just before the switch (same thread). Not
  // with fiber::KeepErrno: that reads errno through __errno_location, which
  // is declared const, so the compiler may reuse an address computed before
  // an earlier switch of this fiber in the caller this is inlined into (on
  // another thread); errno_ is this worker's own thread's. (Tried: with the
  // guard, 3 of 150 seeded runs of priv_globals lost their errno.)
  const int fiber_errno = *errno_;
  maybe_poll();
  fiber::Fiber* next = next_ready();
  trace_switch();
  *errno_ = fiber_errno;
  fiber::Context* from = self ? &self->context() : nullptr;
  if (next) {
    set_current(next);
    fiber::switch_context(from, next->context(), handoff, errno_);
  } else {
    set_current(nullptr);
    fiber::switch_context(from, loop_context_, handoff, errno_);
  }
}

inline void Worker::yield() {
  assert(sync::locks_held() == 0 && "a fiber yields while holding a lock");
  fiber::Fiber* self = current_;
  const int fiber_errno = *errno_;  // (as in switch_away)
  if (inbox_nonempty_.load(std::memory_order_acquire)) drain_inbox();
  maybe_poll();
  fiber::Fiber* next = nullptr;
  if (policy_->process_wide()) next = policy_->take_higher_elsewhere(*this, self->priority);
  if (!next) next = pop_ready();
  *errno_ = fiber_errno;
  if (!next) return;  // nobody else to run: keep going
  trace_switch();
  set_current(next);
  fiber::switch_context(&self->context(), next->context(), fiber::Handoff{&requeue_action, self, this},
                        errno_);
}

inline void Worker::park() {
  fiber::Fiber* self = current_;
  if (self->park_state.exchange(0) == 1) return;  // an unpark came first
  switch_away(self, fiber::Handoff{&park_action, self, this});
}

}  // namespace tucana::sched
