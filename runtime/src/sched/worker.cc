#include "sched/worker.h"

#include <cassert>
#include <cerrno>
#include <chrono>
#include <thread>

#include "fiber/guard.h"
#include "sched/scheduler.h"

namespace tucana::sched {

using fiber::Fiber;
using fiber::Handoff;

namespace {
// Idle back-off: spin (polling) for this many rounds, then also give the core
// to other threads now and then, then nap.
constexpr unsigned kSpinRounds = 256;
constexpr unsigned kYieldRounds = 4096;
}  // namespace

Worker::Worker(Scheduler& scheduler, int index)
    : scheduler_(scheduler),
      index_(index),
      ready_(make_policy(scheduler.config().policy)),
      priority_(dynamic_cast<PriorityPolicy*>(ready_.get())),
      stealing_(scheduler.config().steal && scheduler.config().workers > 1) {}

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
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    head = inbox_head_;
    inbox_head_ = inbox_tail_ = nullptr;
    inbox_nonempty_.store(false, std::memory_order_relaxed);
  }
  ReadyLock lock(*this);
  while (head) {
    Fiber* next = head->next;
    ready_->awakened(head);
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
  if (!ready_->has_ready()) return false;
  *priority = ready_->next_priority();
  return true;
}

bool Worker::outranked(int priority) {
  drain_inbox();
  ReadyLock lock(*this);
  return ready_->outranks(priority);
}

Fiber* Worker::steal_from_others() {
  int n = scheduler_.workers();
  Worker* best = nullptr;
  int best_priority = 0;
  unsigned best_index = steal_from_;
  // Round robin from the worker after the last one stolen from, so that
  // among equal priorities every worker is stolen from in turn.
  for (int k = 1; k <= n; ++k) {
    unsigned i = (steal_from_ + static_cast<unsigned>(k)) % static_cast<unsigned>(n);
    if (static_cast<int>(i) == index_) continue;
    Worker& w = scheduler_.worker(static_cast<int>(i));
    int p = 0;
    if (w.peek_ready(&p) && (!best || p > best_priority)) {
      best = &w;
      best_priority = p;
      best_index = i;
    }
  }
  if (!best) return nullptr;
  steal_from_ = best_index;
  return best->steal();
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
  {
    std::lock_guard<std::mutex> lock(inbox_mutex_);
    f->next = nullptr;
    if (inbox_tail_) inbox_tail_->next = f; else inbox_head_ = f;
    inbox_tail_ = f;
    inbox_nonempty_.store(true);  // seq_cst: ordered before wake()'s read of sleeping_
  }
  wake();
}

void Worker::wake() {
  if (sleeping_.load()) {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    sleep_cv_.notify_one();
  }
}

void Worker::idle(unsigned& idle_rounds) {
  ++idle_rounds;
  if (idle_rounds % 256 == 0) scheduler_.check_stall();
  if (idle_rounds < kSpinRounds || scheduler_.busy()) {
    cpu_relax();  // messages are in flight: stay responsive
  } else if (idle_rounds < kYieldRounds) {
    if (idle_rounds % 16 == 0) std::this_thread::yield();
    else cpu_relax();
  } else {
    // Nothing for a while: sleep, but wake in time to poll the network again.
    scheduler_.check_stall();
    std::unique_lock<std::mutex> lock(sleep_mutex_);
    sleeping_.store(true);
    // (A thief may have moved the inbox into the ready queue.)
    if (!inbox_nonempty_.load() && !has_ready() && !scheduler_.finished()) {
      auto nap = scheduler_.poll_hook_ ? std::chrono::microseconds(100) : std::chrono::microseconds(2000);
      sleep_cv_.wait_for(lock, nap);
    }
    sleeping_.store(false);
  }
}

void Worker::trace_switch_slow() {
  std::int64_t now = trace::now_ns();
  if (current_) trace::subrank_span(index_, current_->trace_id, running_since_ns_, now);
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
    if (!f && stealing_) f = steal_from_others();
    if (f) {
      if (trace::enabled()) {
        std::int64_t now = trace::now_ns();
        if (idle_open) trace::span(index_, "idle", "idle", idle_since_ns, now);
        idle_open = false;
        running_since_ns_ = now;
      }
      idle_rounds = 0;
      set_current(f);
      fiber::switch_context(&loop_context_, f->context(), Handoff{}, errno_);
      continue;
    }
    if (!idle_open && trace::enabled()) {
      idle_since_ns = trace::now_ns();
      idle_open = true;
    }
    if (scheduler_.poll()) {
      idle_rounds = 0;
      continue;
    }
    idle(idle_rounds);
  }
  if (idle_open && trace::enabled()) trace::span(index_, "idle", "idle", idle_since_ns, trace::now_ns());
}

}  // namespace tucana::sched
