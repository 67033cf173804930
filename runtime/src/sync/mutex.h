// Locks whose contracts are code, not prose.
//
// At compile time, Clang's thread-safety analysis (-Wthread-safety; the CI
// builds the runtime with Clang and -Werror=thread-safety) checks that every
// member marked TUCANA_GUARDED_BY(m) is touched only with `m` held and that
// functions marked TUCANA_REQUIRES(m) are called with it. std::mutex carries
// no such annotations in libstdc++, hence these wrappers (the approach of
// Abseil's and marl's mutexes). Under GCC the annotations expand to nothing.
//
// At run time, in builds with assertions (every scripted build: NDEBUG is
// off, see the top-level CMakeLists.txt), each lock knows its LockLevel and
// checks that the calling thread takes locks in the documented order
// (docs/runtime.md, "Locks and their order"): a thread that holds a lock may
// only block on a lock of a strictly higher (inner) level. A violation aborts
// with the names of the locks held, before the deadlock it could cause.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define TUCANA_TSA(x) __attribute__((x))
#else
#define TUCANA_TSA(x)
#endif
#define TUCANA_CAPABILITY(name) TUCANA_TSA(capability(name))
#define TUCANA_SCOPED_CAPABILITY TUCANA_TSA(scoped_lockable)
#define TUCANA_GUARDED_BY(m) TUCANA_TSA(guarded_by(m))
#define TUCANA_PT_GUARDED_BY(m) TUCANA_TSA(pt_guarded_by(m))
#define TUCANA_ACQUIRE(...) TUCANA_TSA(acquire_capability(__VA_ARGS__))
#define TUCANA_RELEASE(...) TUCANA_TSA(release_capability(__VA_ARGS__))
#define TUCANA_TRY_ACQUIRE(...) TUCANA_TSA(try_acquire_capability(__VA_ARGS__))
#define TUCANA_REQUIRES(...) TUCANA_TSA(requires_capability(__VA_ARGS__))
#define TUCANA_EXCLUDES(...) TUCANA_TSA(locks_excluded(__VA_ARGS__))
#define TUCANA_ASSERT_CAPABILITY(m) TUCANA_TSA(assert_capability(m))
#define TUCANA_RETURN_CAPABILITY(m) TUCANA_TSA(lock_returned(m))
// For the few functions whose locking the analysis cannot follow; each use
// says why in a comment.
#define TUCANA_NO_THREAD_SAFETY_ANALYSIS TUCANA_TSA(no_thread_safety_analysis)

#if !defined(NDEBUG)
#define TUCANA_LOCK_ORDER_CHECKS 1
#endif

namespace tucana::sync {

// The lock order, outermost first. A thread holding a lock of level L blocks
// only on locks of levels > L (try-locks, which cannot deadlock, may be taken
// at any level). Locks of one level never nest. docs/runtime.md ("Locks and
// their order") lists every lock and explains why the order holds: the
// callbacks that run under a lower layer's lock (completions and arrivals
// under the transport's, wake-ups under a mailbox's) only take locks of
// inner levels, and none blocks, parks or switches fibers.
enum class LockLevel : unsigned char {
  kFinalize = 10,     // the runtime's finalize sequence (core/runtime.h); unparks under it
  kDeadlock = 20,     // the deadlock detector's protocol (mpi/deadlock.h); calls the transport
  kTransport = 40,    // every real MPI call (comm/transport.cc); completions and arrivals run under it
  kMailbox = 50,      // a subrank's message queues (comm/messenger.cc); unparks under it
  kTaskGraph = 55,    // a subrank's tasks (tasks/task.h); spawns and unparks under it
  kFiberPool = 60,    // the pool of helper fibers (sched/scheduler.h)
  kInbox = 70,        // fibers handed to a worker by other threads (sched/worker.h)
  kSleep = 80,        // a worker's sleep (sched/worker.h)
  kReadyQueue = 90,   // a worker's ready queue, when others may steal (sched/worker.h)
  kOuterTable = 95,   // a table that looks into another while locked (Fortran-kind types -> datatypes)
  kLeaf = 100,        // tables and registries that take no lock while locked (MPI objects, guards, libc)
  kOutput = 110,      // a subrank's pending output: anything may print under any other lock
};

namespace detail {
#ifdef TUCANA_LOCK_ORDER_CHECKS
// The locks the calling thread holds, in the order taken.
struct HeldLocks {
  static constexpr int kMax = 16;
  const void* lock[kMax];
  const char* name[kMax];
  LockLevel level[kMax];
  int count;
};
extern __thread HeldLocks t_held;
// Checks the order before blocking on `lock`; aborts with a report on a
// violation.
void check_order(const void* lock, LockLevel level, const char* name);
void push_held(const void* lock, LockLevel level, const char* name);
void pop_held(const void* lock);
// Aborts with a report unless the calling thread holds `lock`.
void check_held(const void* lock, LockLevel level, const char* name);
#endif

// The lock-order hooks of Mutex and SpinLock (nothing when the checks are
// compiled out): before blocking on `lock`, once it is taken, and as it is
// released.
#ifdef TUCANA_LOCK_ORDER_CHECKS
inline void before_blocking(const void* lock, LockLevel level, const char* name) { check_order(lock, level, name); }
inline void taken(const void* lock, LockLevel level, const char* name) { push_held(lock, level, name); }
inline void releasing(const void* lock) { pop_held(lock); }
#else
inline void before_blocking(const void*, LockLevel, const char*) {}
inline void taken(const void*, LockLevel, const char*) {}
inline void releasing(const void*) {}
#endif
}  // namespace detail

// How many locks of this file's kinds the calling thread holds (0 when the
// lock-order checks are compiled out). Fibers assert it is 0 when they switch:
// a lock held across a switch would be released by another thread, or block
// a worker whose other fibers need it.
inline int locks_held() {
#ifdef TUCANA_LOCK_ORDER_CHECKS
  return detail::t_held.count;
#else
  return 0;
#endif
}

// A mutex (std::mutex) with a level in the lock order and a name for reports.
class TUCANA_CAPABILITY("mutex") Mutex {
 public:
  constexpr Mutex(LockLevel level, const char* name) : level_(level), name_(name) {}
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() TUCANA_ACQUIRE() {
    detail::before_blocking(this, level_, name_);
    m_.lock();
    detail::taken(this, level_, name_);
  }
  bool try_lock() TUCANA_TRY_ACQUIRE(true) {
    if (!m_.try_lock()) return false;
    detail::taken(this, level_, name_);
    return true;
  }
  void unlock() TUCANA_RELEASE() {
    detail::releasing(this);
    m_.unlock();
  }
  // Tells the analysis that the caller holds this mutex (for callbacks that
  // a lower layer runs under it); with the lock-order checks, also checks
  // it: aborts when the calling thread does not hold it.
  void assert_held() const TUCANA_ASSERT_CAPABILITY(this) {
#ifdef TUCANA_LOCK_ORDER_CHECKS
    detail::check_held(this, level_, name_);
#endif
  }

  // Waits on `cv`, releasing this mutex meanwhile, as
  // std::condition_variable::wait_for does. Contract: held by the caller.
  template <class Rep, class Period>
  std::cv_status wait_for(std::condition_variable& cv, const std::chrono::duration<Rep, Period>& d)
      TUCANA_REQUIRES(this) {
    std::unique_lock<std::mutex> native(m_, std::adopt_lock);
    std::cv_status status = cv.wait_for(native, d);
    native.release();
    return status;
  }
  void wait(std::condition_variable& cv) TUCANA_REQUIRES(this) {
    std::unique_lock<std::mutex> native(m_, std::adopt_lock);
    cv.wait(native);
    native.release();
  }

  LockLevel level() const { return level_; }
  const char* name() const { return name_; }

 private:
  std::mutex m_;
  const LockLevel level_;
  const char* const name_;
};

// Holds a Mutex for its scope (std::lock_guard / std::unique_lock): may be
// unlocked early and locked again.
class TUCANA_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& m) TUCANA_ACQUIRE(m) : m_(m) { m.lock(); }
  // Adopts a mutex the caller has already locked (after a try_lock).
  MutexLock(Mutex& m, std::adopt_lock_t) TUCANA_REQUIRES(m) : m_(m) {}
  ~MutexLock() TUCANA_RELEASE() {
    if (held_) m_.unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void unlock() TUCANA_RELEASE() {
    held_ = false;
    m_.unlock();
  }
  void lock() TUCANA_ACQUIRE() {
    m_.lock();
    held_ = true;
  }

 private:
  Mutex& m_;
  bool held_ = true;
};

// A spin lock for critical sections of a few pointer moves (a worker's
// ready queue), with exponential backoff: a waiter pauses 1, 2, 4 ... 64
// times between attempts, then also yields its core, so that waiters do not
// hammer the lock's cache line nor starve a holder that shares their core.
class TUCANA_CAPABILITY("spin lock") SpinLock {
 public:
  constexpr SpinLock(LockLevel level, const char* name) : level_(level), name_(name) {}
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

  void lock() TUCANA_ACQUIRE() {
    detail::before_blocking(this, level_, name_);
    if (locked_.exchange(true, std::memory_order_acquire)) lock_contended();
    detail::taken(this, level_, name_);
  }
  void unlock() TUCANA_RELEASE() {
    detail::releasing(this);
    locked_.store(false, std::memory_order_release);
  }

 private:
  void lock_contended();
  std::atomic<bool> locked_{false};
  const LockLevel level_;
  const char* const name_;
};

}  // namespace tucana::sync
