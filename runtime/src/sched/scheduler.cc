#include "sched/scheduler.h"

#include "trace/trace.h"

#include <cassert>
#include <thread>

namespace tucana::sched {

using fiber::Fiber;

__thread Worker* detail::t_worker = nullptr;
using detail::t_worker;

std::atomic<void (*)(void*)> g_run_hook{nullptr};

// Not inlined, so that no caller keeps a thread-local address across a switch.
__attribute__((noinline)) Worker* Scheduler::current_worker() { return t_worker; }

Fiber* Scheduler::current_fiber() {
  Worker* w = current_worker();
  return w ? w->current() : nullptr;
}

// park_state: 0 running (or ready) without a permit, 1 a permit is waiting
// for the next park, 2 parked. Only the unpark that moves 2 -> 0 makes the
// fiber ready; a concurrent one then finds 0 and leaves a permit (the next
// park returns at once: waiters re-check their condition), so no wake is
// ever erased.
void Scheduler::unpark(Fiber* f) {
  int state = f->park_state.load();
  for (;;) {
    if (state == 1) return;  // a permit is already there
    if (state == 0) {
      if (f->park_state.compare_exchange_weak(state, 1)) return;
      continue;
    }
    if (f->park_state.compare_exchange_weak(state, 0)) break;  // 2 -> 0: ours to wake
  }
  if (trace::enabled()) f->ready_ns = trace::now_ns();
  auto* home = static_cast<Worker*>(f->home);
  Scheduler& s = home->scheduler_;
  s.parked_.fetch_sub(1);
  s.note_progress();
  Worker* here = detail::t_worker;
  // (Only a worker of this scheduler: tests run several schedulers.)
  if (here && here != home && s.config_.wake_on_waker && here->stealing_ && &here->scheduler_ == &s) {
    here->push_ready(f);
    return;
  }
  home->make_ready(f);
}

std::int64_t Scheduler::now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Scheduler::Scheduler(const SchedulerConfig& config) : config_(config), priority_board_(config.workers) {
  assert(config.workers >= 1);
  for (int i = 0; i < config.workers; ++i) workers_.push_back(std::make_unique<Worker>(*this, i));
  Fiber::set_exit_hook(&Scheduler::exit_hook);
}

Scheduler::~Scheduler() = default;

Fiber* Scheduler::spawn(int worker, Fiber::Entry entry, void* arg, std::string name) {
  assert(worker >= 0 && worker < workers());
  auto f = std::make_unique<Fiber>(entry, arg, config_.stack_size, std::move(name));
  f->home = workers_[static_cast<std::size_t>(worker)].get();
  Fiber* raw = f.get();
  fibers_.push_back(std::move(f));
  live_.fetch_add(1);
  workers_[static_cast<std::size_t>(worker)]->make_ready(raw);
  return raw;
}

// Runs on whoever resumes after a transient fiber finished: off its stack.
void recycle_transient(Fiber* f, void* scheduler) {
  auto* s = static_cast<Scheduler*>(scheduler);
  sync::MutexLock lock(s->transient_mutex_);
  s->transient_free_[f->task_pool].push_back(f);
}

void Scheduler::spawn_transient(const TransientSpec& spec) {
  Worker* w = current_worker();
  assert(w);
  Fiber* f = nullptr;
  const int pool = spec.pool == Pool::kTask ? 1 : 0;
  {
    sync::MutexLock lock(transient_mutex_);
    std::vector<Fiber*>& free = transient_free_[pool];
    for (std::size_t i = free.size(); i-- > 0;) {
      if (free[i]->stack().usable >= spec.stack_size) {
        f = free[i];
        free[i] = free.back();
        free.pop_back();
        break;
      }
    }
    if (!f) {
      // (Each pool's stacks have their own option: runtime/src/mpi/coll/nonblocking.cc, tasks/task.cc.)
      transient_all_.push_back(std::make_unique<Fiber>(
          spec.entry, spec.arg, spec.stack_size, pool ? "task fiber" : "helper fiber",
          pool ? "give a larger size with --task-stack-size or TUCANA_TASK_STACK_SIZE"
               : "give a larger size with --helper-stack-size or TUCANA_HELPER_STACK_SIZE"));
      f = transient_all_.back().get();
      f->transient = true;
      f->task_pool = pool;
    } else {
      f->restart(spec.entry, spec.arg);
    }
  }
  f->home = w;
  f->actor = spec.actor;
  f->priority = spec.priority;
  f->trace_id = spec.trace_id;
  f->trace_task = spec.trace_task;
  f->trace_label = spec.trace_label;
  live_.fetch_add(1);
  w->make_ready(f);
}

void Scheduler::exit_hook(Fiber* f) {
  (void)f;
  current_worker()->exit_current();
}

void Scheduler::wake_sleeping_thief(Worker* except) {
  for (auto& w : workers_) {
    if (w.get() != except && w->sleeping_.load()) {
      w->wake();
      return;
    }
  }
}

void Scheduler::on_fiber_exit() {
  if (live_.fetch_sub(1) == 1) {
    for (auto& w : workers_) w->wake();
  }
}

bool Scheduler::poll() {
  if (!poll_hook_) return false;
  std::int64_t begin = trace::enabled() ? trace::now_ns() : 0;
  bool moved = poll_hook_();
  if (moved) {
    note_progress();
    if (trace::enabled()) {
      Worker* w = current_worker();
      trace::span(w ? w->index() : 0, "mpi", "mpi-progress", begin, trace::now_ns());
    }
  }
  return moved;
}

std::int64_t Scheduler::quiescent_since_ns() {
  int live = live_.load();
  // The progress note first: an unpark lowers parked_ before it notes progress.
  if (progressed_.exchange(false) || live == 0 || parked_.load() + polling_.load() < live) {
    // Something moved, or someone can run: the clock restarts.
    last_progress_ns_.store(now_ns());
    return -1;
  }
  return last_progress_ns_.load();
}

void Scheduler::check_stall() {
  if (config_.stall_timeout_s <= 0 || !stall_handler_) return;
  std::int64_t now = now_ns();
  std::int64_t next = next_stall_check_ns_.load(std::memory_order_relaxed);
  if (now < next || !next_stall_check_ns_.compare_exchange_strong(next, now + 100'000'000)) return;
  std::int64_t since = quiescent_since_ns();
  if (since < 0) return;
  double stalled = static_cast<double>(now - since) * 1e-9;
  if (stalled >= config_.stall_timeout_s && !stall_reported_.exchange(true)) stall_handler_();
}

void Scheduler::run() {
  last_progress_ns_.store(now_ns());
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < workers_.size(); ++i) {
    threads.emplace_back([this, i] {
      t_worker = workers_[i].get();
      workers_[i]->run();
      t_worker = nullptr;
    });
  }
  t_worker = workers_[0].get();
  workers_[0]->run();
  t_worker = nullptr;
  for (auto& t : threads) t.join();
}

}  // namespace tucana::sched
