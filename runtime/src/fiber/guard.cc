#include "fiber/guard.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>  // std::call_once
#include <vector>

#include "sync/mutex.h"
#include "sync/raw_write.h"

namespace tucana::fiber {

namespace {

// The table of guard regions, read by the signal handler without locks: a
// slot is published by storing its `lo` last (release) and retired by
// clearing `lo` first.
struct GuardEntry {
  std::atomic<const char*> lo{nullptr};
  const char* hi = nullptr;
  char name[48] = {0};
  std::size_t usable = 0;
  const char* advice = "";
};

constexpr int kMaxGuards = 1 << 16;
// Serializes register/unregister (taken when stacks are made, possibly
// under the scheduler's fiber pool lock: an inner level).
sync::Mutex g_guard_mutex(sync::LockLevel::kLeaf, "stack guards");
// Written under g_guard_mutex; on_fault reads them without it.
GuardEntry g_guards[kMaxGuards] TUCANA_GUARDED_BY(g_guard_mutex);
std::atomic<int> g_guard_high{0};  // slots [0, high) have been used
std::atomic<FaultFallback> g_fallback{nullptr};

// Async-signal-safe formatting of an unsigned number into buf.
int format_unsigned(char* buf, unsigned long long v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; ++i) buf[i] = tmp[n - 1 - i];
  return n;
}

// A signal handler: it cannot take the lock, and reads the table by the
// publication protocol above instead (hence no analysis).
void on_fault(int sig, siginfo_t* info, void* context) TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  const char* addr = static_cast<const char*>(info->si_addr);
  int n = g_guard_high.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    const GuardEntry& g = g_guards[i];
    const char* lo = g.lo.load(std::memory_order_acquire);
    if (lo && addr >= lo && addr < g.hi) {
      char msg[256];
      int len = 0;
      auto put = [&](const char* s) {
        std::size_t l = strlen(s);
        memcpy(msg + len, s, l);
        len += static_cast<int>(l);
      };
      put("tucana: error: stack overflow in ");
      put(g.name);
      put(" (stack size ");
      len += format_unsigned(msg + len, g.usable);
      put(" bytes); ");
      put(g.advice);
      put("\n");
      sync::write_stderr(msg, static_cast<std::size_t>(len));
      _exit(3);
    }
  }
  // Not ours: the layer above reports it, or the default action (the usual
  // crash) happens when the faulting instruction runs again.
  if (FaultFallback fallback = g_fallback.load()) fallback(sig, info, context);
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

int register_guard(const void* lo, const void* hi, const char* name, std::size_t usable, const char* advice) {
  sync::MutexLock lock(g_guard_mutex);
  int high = g_guard_high.load(std::memory_order_relaxed);
  int slot = 0;
  while (slot < high && g_guards[slot].lo.load(std::memory_order_relaxed)) ++slot;
  if (slot == kMaxGuards) return -1;  // full: an overflow is then a plain SIGSEGV
  GuardEntry& g = g_guards[slot];
  g.hi = static_cast<const char*>(hi);
  snprintf(g.name, sizeof g.name, "%s", name);
  g.usable = usable;
  g.advice = advice;
  g.lo.store(static_cast<const char*>(lo), std::memory_order_release);
  if (slot == high) g_guard_high.store(high + 1, std::memory_order_release);
  return slot;
}

void unregister_guard(int slot) {
  if (slot < 0) return;
  sync::MutexLock lock(g_guard_mutex);
  g_guards[slot].lo.store(nullptr, std::memory_order_release);
}

void set_fault_fallback(FaultFallback fallback) { g_fallback.store(fallback); }

void install_overflow_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
  });
  // The handler cannot run on the overflowed stack: each thread needs an
  // alternate signal stack. Keep one that exists (sanitizers install theirs).
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  static sync::Mutex mutex(sync::LockLevel::kLeaf, "signal stacks");
  static std::vector<void*> stacks TUCANA_GUARDED_BY(mutex);  // kept for the life of the process
  sync::MutexLock lock(mutex);
  stack_t ss;
  ss.ss_size = 64 * 1024;
  ss.ss_sp = malloc(ss.ss_size);
  ss.ss_flags = 0;
  if (ss.ss_sp && sigaltstack(&ss, nullptr) == 0) stacks.push_back(ss.ss_sp);
}

}  // namespace tucana::fiber
