#include "sync/mutex.h"
#include "sync/raw_write.h"

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace tucana::sync {

#if defined(__x86_64__) || defined(__i386__)
#define TUCANA_PAUSE() __builtin_ia32_pause()
#else
#define TUCANA_PAUSE() ((void)0)
#endif

void SpinLock::lock_contended() {
  unsigned pauses = 1;
  for (;;) {
    // Wait for the lock to look free before writing to its line again.
    while (locked_.load(std::memory_order_relaxed)) {
      for (unsigned i = 0; i < pauses; ++i) TUCANA_PAUSE();
      if (pauses < 64) pauses *= 2;
      else std::this_thread::yield();  // the holder may be waiting for this core
    }
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
  }
}

#ifdef TUCANA_LOCK_ORDER_CHECKS
namespace detail {

__thread HeldLocks t_held;

namespace {
// Straight to the descriptor (write_stderr): printf to stderr may take a
// subrank's output lock (core/output.cc), the very lock being reported.
[[noreturn]] void report(const char* what, const void* lock, LockLevel level, const char* name) {
  char line[256];
  std::snprintf(line, sizeof line, "tucana: internal error: lock order: %s %s (level %d, %p); this thread holds:\n",
                what, name, static_cast<int>(level), lock);
  write_stderr(line);
  for (int i = 0; i < t_held.count; ++i) {
    std::snprintf(line, sizeof line, "  %s (level %d, %p)\n", t_held.name[i], static_cast<int>(t_held.level[i]),
                  t_held.lock[i]);
    write_stderr(line);
  }
  if (t_held.count == 0) write_stderr("  nothing\n");
  std::abort();
}
}  // namespace

void check_order(const void* lock, LockLevel level, const char* name) {
  for (int i = 0; i < t_held.count; ++i)
    if (t_held.level[i] >= level) report("taking", lock, level, name);
}

void check_held(const void* lock, LockLevel level, const char* name) {
  for (int i = 0; i < t_held.count; ++i)
    if (t_held.lock[i] == lock) return;
  report("expected to hold", lock, level, name);
}

void push_held(const void* lock, LockLevel level, const char* name) {
  if (t_held.count == HeldLocks::kMax) report("too many locks held when taking", lock, level, name);
  t_held.lock[t_held.count] = lock;
  t_held.name[t_held.count] = name;
  t_held.level[t_held.count] = level;
  ++t_held.count;
}

void pop_held(const void* lock) {
  // Usually the last one taken; unique_lock-style early unlocks may release
  // out of order.
  for (int i = t_held.count - 1; i >= 0; --i) {
    if (t_held.lock[i] != lock) continue;
    for (int j = i + 1; j < t_held.count; ++j) {
      t_held.lock[j - 1] = t_held.lock[j];
      t_held.name[j - 1] = t_held.name[j];
      t_held.level[j - 1] = t_held.level[j];
    }
    --t_held.count;
    return;
  }
  report("releasing a lock not held:", lock, LockLevel::kLeaf, "?");
}

}  // namespace detail
#endif

}  // namespace tucana::sync
