#include "sched/worker.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cerrno>
#include <chrono>
#include <thread>

#include "fiber/guard.h"
#include "sched/scheduler.h"

namespace tucana::sched {

using fiber::Fiber;
using fiber::Handoff;

namespace {
// The idle policy (Worker::idle). An idle worker spins, polling, for
// kSpinRounds rounds. Then:
// - with a core for each worker thread, it keeps spinning while
//   communication is in flight and for kYieldRounds rounds after (giving
//   the core away every 16th), as responsive as can be;
// - when worker threads outnumber cores (SchedulerConfig::oversubscribed),
//   a spinning worker takes a core from one that computes: it polls on for
//   a bounded budget of kBusyRounds rounds while messages are in flight
//   (yielding every 4th), then naps kBusyNap between polls.
// After that it sleeps until a fiber is made ready for it, except the
// process's network watcher (one idle worker, when there is a network),
// which naps kWatchNap between polls: a message from another process may
// come for a parked subrank at any time. No sleep lasts more than kMaxSleep,
// so that stall checks and stealing go on even if a wake-up were missed.
constexpr unsigned kSpinRounds = 256;
constexpr unsigned kYieldRounds = 4096;
constexpr unsigned kBusyRounds = 1024;
constexpr auto kBusyNap = std::chrono::microseconds(20);
constexpr auto kWatchNap = std::chrono::microseconds(100);
constexpr auto kMaxSleep = std::chrono::microseconds(5000);
}  // namespace

namespace {
std::unique_ptr<ReadyPolicy> make_worker_policy(Scheduler& scheduler, int index, bool stealing) {
  const SchedulerConfig& config = scheduler.config();
  PolicyContext context;
  context.worker = index;
  context.seed = config.seed;
  if (stealing && config.process_wide_priority) context.board = &scheduler.priority_board();
  if (config.randomized) return make_seeded_policy(context);
  PolicyFactory factory = find_policy(config.policy);
  assert(factory && "SchedulerConfig::policy names no registered policy");
  return factory(context);
}
}  // namespace

Worker::Worker(Scheduler& scheduler, int index)
    : scheduler_(scheduler),
      index_(index),
      stealing_(scheduler.config().steal && scheduler.config().workers > 1),
      policy_(make_worker_policy(scheduler, index, stealing_)) {}

void Worker::push_ready(Fiber* f) {
  std::size_t queued;
  {
    ReadyLock lock(*this);
    queue().awakened(f);
    queued = queue().size();
  }
  // More ready fibers than this worker can run now: a sleeping worker may
  // take one (it would otherwise notice only at the end of its sleep).
  if (queued > 1 && stealing_ && scheduler_.sleeping_workers_.load(std::memory_order_relaxed) > 0)
    scheduler_.wake_sleeping_thief(this);
}

void Worker::requeue_action(Fiber* left, void* worker) {
  static_cast<Worker*>(worker)->push_ready(left);
}

// Runs after `left` is saved. An unpark may have come between park()'s
// decision and now; then the permit is there and the fiber goes straight back
// to the ready queue instead of sleeping.
void Worker::park_action(Fiber* left, void* worker) {
  auto* w = static_cast<Worker*>(worker);
  w->scheduler_.parked_.fetch_add(1);
  int expected = 0;
  if (!left->park_state.compare_exchange_strong(expected, 2)) {
    w->scheduler_.parked_.fetch_sub(1);
    left->park_state.store(0);
    w->push_ready(left);
  }
}

void Worker::drain_inbox() {
  if (!inbox_nonempty_.load(std::memory_order_acquire)) return;
  Fiber* head;
  {
    sync::MutexLock lock(inbox_mutex_);
    head = inbox_head_;
    inbox_head_ = inbox_tail_ = nullptr;
    inbox_nonempty_.store(false, std::memory_order_relaxed);
  }
  ReadyLock lock(*this);
  while (head) {
    Fiber* next = head->next;
    queue().awakened(head);
    head = next;
  }
}

// A thief queues the inbox first (draining it takes the same locks as the
// owner's drain), so that it takes the fiber the policy ranks first.
Fiber* Worker::steal() {
  drain_inbox();
  Fiber* f = pop_ready();
  // The owner may be napping with fibers left in its queue: wake it.
  if (has_ready()) wake();
  return f;
}

bool Worker::peek_ready(int* priority) {
  drain_inbox();
  ReadyLock lock(*this);
  if (!queue().has_ready()) return false;
  *priority = queue().next_priority();
  return true;
}

int Worker::last_ready_priority(int priority) {
  if (inbox_nonempty_.load(std::memory_order_acquire)) drain_inbox();
  ReadyLock lock(*this);
  return queue().has_ready() ? std::min(priority, queue().last_priority()) : priority;
}

bool Worker::outranked(int priority) {
  drain_inbox();
  ReadyLock lock(*this);
  return queue().outranks(priority);
}

void Worker::poll_while_busy() {
  scheduler_.poll();
  // Busy workers check for stalls too: subranks that poll MPI_Test in a loop
  // keep their worker busy but make no progress.
  if (switches_ % (kSwitchesPerPoll * 64) == 0) scheduler_.check_stall();
}

void Worker::exit_current() {
  assert(current_ && current_->finished());
  scheduler_.on_fiber_exit();
  // A transient fiber goes back to the pool once it is off its stack.
  if (current_->transient)
    switch_away(nullptr, Handoff{&recycle_transient, current_, &scheduler_});
  else
    switch_away(nullptr, Handoff{});
  __builtin_unreachable();
}

void Worker::make_ready(Fiber* f) {
  assert(f->home == this);
  if (Scheduler::current_worker() == this) {
    push_ready(f);
    return;
  }
  if (policy_->process_wide()) policy_->handed_over(f);
  {
    sync::MutexLock lock(inbox_mutex_);
    f->next = nullptr;
    if (inbox_tail_) inbox_tail_->next = f; else inbox_head_ = f;
    inbox_tail_ = f;
    inbox_nonempty_.store(true);  // seq_cst: ordered before wake()'s read of sleeping_
  }
  wake();
}

void Worker::wake() {
  if (sleeping_.load()) {
    sync::MutexLock lock(sleep_mutex_);
    sleep_cv_.notify_one();
  }
}

void Worker::idle(unsigned& idle_rounds) {
  ++idle_rounds;
  if (idle_rounds % 256 == 0) scheduler_.check_stall();
  if (idle_rounds < kSpinRounds) {
    cpu_relax();
    return;
  }
  bool busy = this->busy();  // (the process's counter, unless this worker does not progress communication)
  if (!scheduler_.config().oversubscribed) {
    if (busy) {
      cpu_relax();  // messages are in flight: stay responsive
      return;
    }
    if (idle_rounds < kYieldRounds) {
      if (idle_rounds % 16 == 0) std::this_thread::yield();
      else cpu_relax();
      return;
    }
  } else if (busy && idle_rounds < kSpinRounds + kBusyRounds) {
    if (idle_rounds % 4 == 0) std::this_thread::yield();
    else cpu_relax();
    return;
  }
  scheduler_.check_stall();
  std::chrono::microseconds nap = kMaxSleep;
  if (busy) nap = kBusyNap;
  else if (in_flight_ && scheduler_.poll_hook_ && scheduler_.claim_watch(index_)) nap = kWatchNap;
  sleep_for(nap);
}

void Worker::sleep_for(std::chrono::microseconds nap) {
  sync::MutexLock lock(sleep_mutex_);
  sleeping_.store(true);
  scheduler_.sleeping_workers_.fetch_add(1);
  // Re-checked after sleeping_ is set (seq_cst, as make_ready's store of
  // inbox_nonempty_): a fiber handed over before this point is seen here,
  // one handed over after it finds sleeping_ set and notifies. (A thief may
  // have moved the inbox into the ready queue.) Likewise communication
  // that went in flight since the nap was chosen: the transport counts it
  // (seq_cst) before it wakes the worker (--progress worker queues work for
  // worker 0 that way).
  if (!inbox_nonempty_.load() && !has_ready() && !scheduler_.finished() &&
      !(nap > kBusyNap && in_flight_ && in_flight_->load() > 0))
    sleep_mutex_.wait_for(sleep_cv_, nap);
  scheduler_.sleeping_workers_.fetch_sub(1);
  sleeping_.store(false);
}

void Worker::note_wake_latency(Fiber* f) {
  trace::wake_latency(index_, trace::now_ns() - f->ready_ns);
  f->ready_ns = 0;
}

void Worker::trace_switch_slow() {
  std::int64_t now = trace::now_ns();
  if (current_ && current_->trace_task > 0)
    trace::task_span(index_, current_->trace_id, current_->trace_task, current_->trace_label, running_since_ns_, now);
  else if (current_)
    trace::subrank_span(index_, current_->trace_id, running_since_ns_, now);
  running_since_ns_ = now;
}

void Worker::run() {
  errno_ = &errno;  // (the loop never leaves this thread)
  fiber::install_overflow_handler();
  unsigned idle_rounds = 0;
  bool idle_open = false;  // tracing: an idle span has begun
  std::int64_t idle_since_ns = 0;
  while (!scheduler_.finished()) {
    Fiber* f = next_ready();
    if (!f && stealing_) f = policy_->steal(*this);
    if (f) {
      if (trace::enabled()) {
        std::int64_t now = trace::now_ns();
        if (idle_open) trace::span(index_, "idle", "idle", idle_since_ns, now);
        idle_open = false;
        running_since_ns_ = now;
      }
      idle_rounds = 0;
      scheduler_.release_watch(index_);
      set_current(f);
      fiber::switch_context(&loop_context_, f->context(), Handoff{}, errno_);
      continue;
    }
    if (!idle_open && trace::enabled()) {
      idle_since_ns = trace::now_ns();
      idle_open = true;
    }
    if (policy_->poll_when_idle() && scheduler_.poll()) {
      idle_rounds = 0;
      continue;
    }
    idle(idle_rounds);
  }
  if (idle_open && trace::enabled()) trace::span(index_, "idle", "idle", idle_since_ns, trace::now_ns());
}

}  // namespace tucana::sched
