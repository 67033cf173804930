// The per-process scheduler: W workers, each running the fibers homed on it.
//
// Layers: fiber/ switches contexts; Worker runs a loop over its ready fibers;
// its ReadyPolicy (sched/policy.h) picks the next one and makes the worker's
// decisions that depend on the order (stealing, priorities across workers,
// seeded poll moments); Scheduler owns the workers, the state their policies
// share (PriorityBoard) and the process-wide hooks (communication polling,
// stall detection). Every blocking
// thing above this layer is built on park()/unpark().
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fiber/fiber.h"
#include "sched/worker.h"

namespace tucana::sched {

namespace detail {
// The worker running the calling thread (scheduler.cc). __thread rather than
// thread_local: reading it from another file is a plain TLS load, without
// the call that a C++ thread_local's possible dynamic initializer asks for.
extern __thread Worker* t_worker;
}  // namespace detail

struct SchedulerConfig {
  int workers = 1;
  std::size_t stack_size = 8u << 20;
  // When every live fiber has been parked with no unpark and no polling
  // progress for this long, the stall handler runs (0 = never).
  double stall_timeout_s = 0;
  // With several workers, an idle worker runs ready fibers of the others
  // (fibers then move between threads).
  bool steal = true;
  // The order of each worker's ready queue: the name of a registered
  // policy (sched/policy.h, find_policy). Contract: find_policy(policy) is
  // not null.
  std::string policy = "priority";
  // Seeded schedules, for testing (TUCANA_SCHED_SEED): every worker's
  // policy is a RandomPolicy (whatever `policy` says), which draws its ready
  // fiber, whether and from whom an idle worker steals, and when the
  // network is polled; `seed` (mixed with the worker's index) names every
  // worker's sequence of decisions.
  bool randomized = false;
  std::uint64_t seed = 0;
  // More worker threads on this machine than cores: idle workers then stop
  // polling after a bounded budget even while messages are in flight, and
  // nap between polls, so that they do not take cores from workers that
  // compute.
  bool oversubscribed = false;
  // Priorities across workers (with stealing and the priority policy): a
  // worker about to pick its next fiber takes a ready fiber of another
  // worker of this process when that one ranks strictly higher than its own
  // best, so the process as a whole runs its highest-priority ready fibers
  // first. Off: each worker ranks only its own queue (a thief takes the
  // highest-priority fiber of the others only when its own queue is empty).
  bool process_wide_priority = true;
  // A fiber woken by a worker (Scheduler::unpark on a worker thread, e.g.
  // by the worker that completed the request it waited for) is queued on
  // that worker instead of handed to its home worker, so that it runs
  // where the wake-up happened, without a cross-thread hand-over. Needs
  // stealing (fibers then move between workers anyway).
  bool wake_on_waker = false;
};

class Scheduler {
 public:
  explicit Scheduler(const SchedulerConfig& config);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Creates a fiber homed on worker `worker` that runs entry(arg). Call before
  // run(). `name` labels it in diagnostics.
  fiber::Fiber* spawn(int worker, fiber::Fiber::Entry entry, void* arg, std::string name);
  // A fiber created while fibers run (spawn_transient): pooled and reused.
  enum class Pool { kHelper, kTask };
  struct TransientSpec {
    fiber::Fiber::Entry entry = nullptr;
    void* arg = nullptr;
    std::size_t stack_size = 0;
    Pool pool = Pool::kHelper;  // names its stack overflow advice
    void* actor = nullptr;      // Fiber::actor
    int priority = 0;           // Fiber::priority
    int trace_id = -1;          // Fiber::trace_id, trace_task, trace_label
    int trace_task = 0;
    const char* trace_label = nullptr;
  };
  // Creates a fiber while fibers run, homed on the calling fiber's worker,
  // with a stack of at least `stack_size` bytes, labelled as `spec` says
  // before anyone can run it. When it finishes it goes back to its pool and
  // is reused (never freed while the process runs: a late unpark of a
  // finished fiber finds a live object, and every park loop re-checks its
  // condition). The caller must not touch the returned fiber after this
  // call. Contract: called by a running fiber.
  void spawn_transient(const TransientSpec& spec);
  void spawn_transient(fiber::Fiber::Entry entry, void* arg, std::size_t stack_size, void* actor, int trace_id) {
    TransientSpec spec;
    spec.entry = entry;
    spec.arg = arg;
    spec.stack_size = stack_size;
    spec.actor = actor;
    spec.trace_id = trace_id;
    spawn_transient(spec);
  }

  // Polled by idle workers and every few switches; returns true when it made
  // progress. Called by one worker at a time at most if it says so itself
  // (it must be thread-safe; the transport uses a try-lock).
  void set_poll_hook(std::function<bool()> hook) { poll_hook_ = std::move(hook); }
  // Called (on some worker thread, from its loop) when a stall is detected.
  void set_stall_handler(std::function<void()> handler) { stall_handler_ = std::move(handler); }
  // A counter of operations in flight (owned by the communication layer):
  // while it is non-zero, workers poll at every switch instead of every few
  // switches (protocols such as MPI's rendezvous need both sides to make
  // progress), and idle workers keep polling instead of napping.
  void set_in_flight_counter(const std::atomic<int>* counter) {
    in_flight_ = counter;
    for (auto& w : workers_) w->set_in_flight_counter(counter);
  }

  // Runs all fibers to completion: starts workers 1..W-1 on new threads and
  // runs worker 0 on the calling thread.
  void run();

  int workers() const { return static_cast<int>(workers_.size()); }
  Worker& worker(int i) { return *workers_[static_cast<std::size_t>(i)]; }
  const SchedulerConfig& config() const { return config_; }
  // The process-wide priorities that the workers' policies share.
  PriorityBoard& priority_board() { return priority_board_; }

  // The worker running the calling thread, or null outside any worker.
  static Worker* current_worker();
  // The fiber running on the calling thread, or null.
  static fiber::Fiber* current_fiber();
  // current_fiber(), inline, for hot paths. Contract: the caller does not
  // switch before it uses the result (a fiber may resume on another thread,
  // and a compiler may keep a thread-local address across a call; callers
  // that switch use current_fiber(), which is opaque).
  static fiber::Fiber* current_fiber_inline() {
    Worker* w = detail::t_worker;
    return w ? w->current() : nullptr;
  }
  // Contract: called by a running fiber.
  static void yield() { current_worker()->yield(); }
  // yield(), but queued again behind every fiber ready now, whatever its
  // priority: for a fiber that polls in a loop (MPI_Test, MPI_Iprobe). Two
  // fibers of a high priority that poll would otherwise take turns for
  // ever ahead of a lower one that must send them what they wait for. It
  // ranks, while queued, as the last ready fiber does (or as itself, when
  // lower), so fibers that become ready after it, of that priority or
  // lower, queue behind it: a poller that went behind everything for good
  // would never run while two others kept waking each other (an MCS
  // mutex's unlock polling while a sibling's trylock loop and the window's
  // agent took turns: seconds per lock hand-over).
  // Contract: called by a running fiber.
  static void yield_behind_all() {
    fiber::Fiber* self = current_fiber();
    const int priority = self->priority;
    Worker* w = current_worker();
    self->priority = w->last_ready_priority(priority);
    w->yield();
    self->priority = priority;
  }
  static void park() { current_worker()->park(); }
  // True when a fiber ready on the calling fiber's worker ought to run
  // before it, were its priority `priority` (ReadyPolicy::outranks); the
  // caller then sets its Fiber::priority and yields. Contract: called by a
  // running fiber.
  static bool outranked(int priority) { return current_worker()->outranked(priority); }
  // Wakes a parked fiber (or leaves a permit for its next park). Any thread.
  static void unpark(fiber::Fiber* f);

  // Records that communication moved (resets the stall clock). Cheap: the
  // time is read by the next stall check.
  void note_progress() {
    if (!progressed_.load(std::memory_order_relaxed)) progressed_.store(true, std::memory_order_relaxed);
  }
  // A fiber that polls in a loop (MPI_Test, MPI_Iprobe) without progress
  // counts as blocked for stall detection between these two calls.
  void begin_polling() { polling_.fetch_add(1); }
  void end_polling() { polling_.fetch_sub(1); }
  // Since when this process has been quiescent: every live fiber parked (or
  // polling without progress) and no progress noted. Returns that time
  // (steady clock, ns), or -1 when something can run or has just moved; a
  // time that changed between two calls means activity in between. Consumes
  // the progress note, as the stall check does. Any thread.
  std::int64_t quiescent_since_ns();
  int live() const { return live_.load(); }
  static std::int64_t now_ns();
  int parked() const { return parked_.load(); }

 private:
  friend class Worker;
  bool finished() const { return live_.load(std::memory_order_acquire) == 0; }
  // The network watcher: the one idle worker that naps briefly between
  // polls instead of sleeping until woken. True when `worker` is (or has
  // just become) the watcher.
  bool claim_watch(int worker) {
    int w = watcher_.load(std::memory_order_relaxed);
    if (w == worker) return true;
    return w < 0 && watcher_.compare_exchange_strong(w, worker);
  }
  // `worker` has work: if it was the watcher, a sleeping worker takes over.
  void release_watch(int worker) {
    if (watcher_.load(std::memory_order_relaxed) != worker) return;
    watcher_.store(-1);
    if (sleeping_workers_.load() > 0) wake_sleeping_thief(nullptr);
  }
  // Wakes one sleeping worker other than `except`.
  void wake_sleeping_thief(Worker* except);
  bool busy() const { return in_flight_ && in_flight_->load(std::memory_order_relaxed) > 0; }
  bool poll();
  void check_stall();
  void on_fiber_exit();
  static void exit_hook(fiber::Fiber* f);
  friend void recycle_transient(fiber::Fiber* f, void* scheduler);

  SchedulerConfig config_;
  PriorityBoard priority_board_;  // before workers_: their policies point to it
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::unique_ptr<fiber::Fiber>> fibers_;
  sync::Mutex transient_mutex_{sync::LockLevel::kFiberPool, "helper fiber pool"};
  std::vector<std::unique_ptr<fiber::Fiber>> transient_all_ TUCANA_GUARDED_BY(transient_mutex_);  // owned
  // Finished, reusable, per pool (Pool).
  std::vector<fiber::Fiber*> transient_free_[2] TUCANA_GUARDED_BY(transient_mutex_);

  std::function<bool()> poll_hook_;
  std::function<void()> stall_handler_;
  const std::atomic<int>* in_flight_ = nullptr;
  std::atomic<int> live_{0};
  std::atomic<int> parked_{0};
  std::atomic<int> polling_{0};
  std::atomic<bool> progressed_{false};
  std::atomic<std::int64_t> last_progress_ns_{0};
  std::atomic<std::int64_t> next_stall_check_ns_{0};
  std::atomic<bool> stall_reported_{false};
  std::atomic<int> sleeping_workers_{0};
  std::atomic<int> watcher_{-1};  // the network watcher's index, or -1
};

}  // namespace tucana::sched
