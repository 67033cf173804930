// Unit tests of guard-paged fiber stacks (runtime/src/fiber): allocation
// sizes, using most of a stack, and the overflow report ("stack overflow in
// <fiber name>", exit status 3) as death tests. Parameterized over 1, 2 and
// 4 workers where a scheduler is involved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fiber/stack.h"
#include "harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define TUCANA_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TUCANA_TEST_ASAN 1
#endif
#endif
#ifdef TUCANA_TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace {

using tucana::fiber::Fiber;
using tucana::sched::Scheduler;
using tucana::sched::SchedulerConfig;
using tucana::test::Harness;
using tucana::test::workers_name;

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

TEST(StackTest, SizesAreRoundedUpToPages) {
  const std::size_t page = page_size();
  auto s = tucana::fiber::allocate_stack(10000, 5000);
  EXPECT_NE(s.mapping, nullptr);
  EXPECT_EQ(s.usable % page, 0u);
  EXPECT_GE(s.usable, 10000u);
  EXPECT_LT(s.usable, 10000u + page);
  EXPECT_EQ(s.guard % page, 0u);
  EXPECT_GE(s.guard, 5000u);
  EXPECT_EQ(s.mapped, s.usable + s.guard);
  EXPECT_EQ(s.guard_begin(), s.mapping);
  EXPECT_EQ(static_cast<char*>(s.top()) - static_cast<char*>(s.guard_end()),
            static_cast<std::ptrdiff_t>(s.usable));
  // The usable part is writable, end to end.
  auto* lo = static_cast<volatile char*>(s.guard_end());
  lo[0] = 1;
  lo[s.usable - 1] = 2;
  EXPECT_EQ(lo[0] + lo[s.usable - 1], 3);
  tucana::fiber::release_stack(s);
  EXPECT_EQ(s.mapping, nullptr);
}

// Puts an N-byte array in one frame and touches every page of it. Returns a
// checksum (so that nothing is optimized away) and the array's low end.
template <std::size_t N>
__attribute__((noinline)) long use_stack(const char** low_end) {
  volatile char buf[N];
  for (std::size_t i = 0; i < N; i += 512) buf[i] = static_cast<char>(i >> 9);
  buf[N - 1] = 1;
  long sum = 0;
  for (std::size_t i = 0; i < N; i += 512) sum += buf[i];
  *low_end = const_cast<const char*>(&buf[0]);
  return sum + buf[N - 1];
}

template <std::size_t N>
long expected_checksum() {
  long sum = 0;
  for (std::size_t i = 0; i < N; i += 512) sum += static_cast<char>(i >> 9);
  return sum + 1;
}

class StackTest : public ::testing::TestWithParam<int> {
 protected:
  int workers() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(Sched, StackTest, ::testing::Values(1, 2, 4), workers_name);

TEST_P(StackTest, FiberCanUseMostOfItsStack) {
  constexpr std::size_t kStack = 1 << 20;
  constexpr std::size_t kUse = 900 * 1024;
  Harness::Options o = Harness::options_for(workers());
  o.stack_size = kStack;
  Harness h(o);
  struct Result {
    Fiber* f = nullptr;
    long checksum = 0;
    const char* low = nullptr;
  };
  std::vector<Result> results(static_cast<std::size_t>(workers()));
  for (int w = 0; w < workers(); ++w) {
    Result& r = results[static_cast<std::size_t>(w)];
    r.f = h.spawn(w, [&r] { r.checksum = use_stack<kUse>(&r.low); }, "big frame " + std::to_string(w));
  }
  h.run();
  for (const Result& r : results) {
    EXPECT_EQ(r.checksum, expected_checksum<kUse>());
    EXPECT_EQ(r.f->stack().usable, kStack);
    // The array really was on the fiber's stack, above the guard.
    EXPECT_GE(r.low, static_cast<const char*>(r.f->stack().guard_end()));
    EXPECT_LE(r.low + kUse, static_cast<const char*>(r.f->stack().top()));
  }
}

// Recursion that cannot be optimized away or turned into a loop: every frame
// holds a volatile array and uses it after the recursive call returns.
volatile int g_depth_limit = 1 << 30;

__attribute__((noinline)) int recurse(int depth) {
  volatile char frame[1024];
  for (std::size_t i = 0; i < sizeof frame; i += 128) frame[i] = static_cast<char>(depth);
  if (depth >= g_depth_limit) return frame[0];
  return recurse(depth + 1) + frame[static_cast<std::size_t>(depth) % sizeof frame];
}

void overflow_entry(void*) { (void)recurse(0); }
Scheduler* g_helper_scheduler = nullptr;
void noop_entry(void*) {}

void run_overflowing_fiber(int workers, const char* name) {
  SchedulerConfig cfg;
  cfg.workers = workers;
  cfg.stack_size = 64 * 1024;
  Scheduler s(cfg);
  // Busy company on the other workers, so that the fault happens on a thread
  // among several.
  for (int w = 0; w + 1 < workers; ++w) s.spawn(w, &noop_entry, nullptr, "idle " + std::to_string(w));
  s.spawn(workers - 1, &overflow_entry, nullptr, name);
  s.run();
}

class StackOverflowDeathTest : public StackTest {};
INSTANTIATE_TEST_SUITE_P(Sched, StackOverflowDeathTest, ::testing::Values(1, 2, 4), workers_name);

TEST_P(StackOverflowDeathTest, OverflowIsReportedWithTheFiberName) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int w = workers();
  EXPECT_EXIT(run_overflowing_fiber(w, "deep fiber"), ::testing::ExitedWithCode(3),
              "stack overflow in deep fiber \\(stack size 65536 bytes\\); give a larger size with "
              "--stack-size or TUCANA_STACK_SIZE");
}

// A helper fiber (Scheduler::spawn_transient: non-blocking collectives) has
// its own stack option, and its overflow report names that one.
void spawn_overflowing_helper(void*) {
  static int user;
  // (Called by a running fiber, as spawn_transient's contract asks.)
  g_helper_scheduler->spawn_transient(&overflow_entry, nullptr, 64 * 1024, &user, 0);
}

TEST_P(StackOverflowDeathTest, HelperOverflowNamesTheHelperStackOption) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int w = workers();
  EXPECT_EXIT(
      {
        SchedulerConfig cfg;
        cfg.workers = w;
        cfg.stack_size = 256 * 1024;
        Scheduler s(cfg);
        g_helper_scheduler = &s;
        s.spawn(w - 1, &spawn_overflowing_helper, nullptr, "spawner");
        s.run();
      },
      ::testing::ExitedWithCode(3),
      "stack overflow in helper fiber \\(stack size 65536 bytes\\); give a larger size with "
      "--helper-stack-size or TUCANA_HELPER_STACK_SIZE");
}

void spawn_overflowing_task(void*) {
  static int user;
  Scheduler::TransientSpec spec;
  spec.entry = &overflow_entry;
  spec.stack_size = 64 * 1024;
  spec.pool = Scheduler::Pool::kTask;
  spec.actor = &user;
  g_helper_scheduler->spawn_transient(spec);
}

TEST_P(StackOverflowDeathTest, TaskOverflowNamesTheTaskStackOption) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int w = workers();
  EXPECT_EXIT(
      {
        SchedulerConfig cfg;
        cfg.workers = w;
        cfg.stack_size = 256 * 1024;
        Scheduler s(cfg);
        g_helper_scheduler = &s;
        s.spawn(w - 1, &spawn_overflowing_task, nullptr, "spawner");
        s.run();
      },
      ::testing::ExitedWithCode(3),
      "stack overflow in task fiber \\(stack size 65536 bytes\\); give a larger size with "
      "--task-stack-size or TUCANA_TASK_STACK_SIZE");
}

TEST_P(StackOverflowDeathTest, OtherFaultsAreNotReportedAsOverflow) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int w = workers();
  EXPECT_EXIT(
      {
        SchedulerConfig cfg;
        cfg.workers = w;
        cfg.stack_size = 64 * 1024;
        Scheduler s(cfg);
        s.spawn(
            w - 1,
            [](void*) {
              volatile std::uintptr_t bad = 16;  // not a guard page
              *reinterpret_cast<volatile int*>(bad) = 1;
            },
            nullptr, "bad pointer");
        s.run();
      },
      ::testing::KilledBySignal(SIGSEGV), ::testing::Not(::testing::HasSubstr("stack overflow")));
}

// Guard entries are unregistered with their fiber: when a new stack is mapped
// where an old fiber's stack was, the overflow report names the new fiber.
// The new fiber says whether its stack really is at the old one's address
// (the kernel hands a just-unmapped range of the same size back first), and
// the test requires that it is: otherwise it would test nothing.
const void* g_old_stack = nullptr;
void record_stack_entry(void*) { g_old_stack = Scheduler::current_fiber()->stack().mapping; }
void reuse_then_overflow_entry(void*) {
  const bool reused = Scheduler::current_fiber()->stack().mapping == g_old_stack;
  std::fprintf(stderr, "stack address reused: %s\n", reused ? "yes" : "no");
  (void)recurse(0);
}

TEST(StackGuardDeathTest, OverflowNamesTheNewFiberWhenAStackAddressIsReused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        SchedulerConfig cfg;
        cfg.stack_size = 64 * 1024;
        {
          Scheduler s(cfg);
          s.spawn(0, &record_stack_entry, nullptr, "old fiber");
          s.run();
        }
        Scheduler s(cfg);
        s.spawn(0, &reuse_then_overflow_entry, nullptr, "new fiber");
        s.run();
      },
      ::testing::ExitedWithCode(3), "stack address reused: yes\n(.|\n)*stack overflow in new fiber");
}

// Under AddressSanitizer, a finished fiber's last frames (exit hook ->
// exit_current -> switch_away -> switch_context) never return, so their red
// zones would stay poisoned after the stack is unmapped, and a new stack
// mapped at the same address would start with that stale poison.
// release_stack() unpoisons the mapping. Skipped without ASan.
struct ReuseProbe {
  const void* mapping = nullptr;
  const void* poisoned = nullptr;  // first poisoned byte below the fiber's frame
};

void reuse_probe_entry(void* arg) {
  auto* p = static_cast<ReuseProbe*>(arg);
  const auto& s = Scheduler::current_fiber()->stack();
  p->mapping = s.mapping;
#if defined(TUCANA_TEST_ASAN) && defined(__x86_64__)
  // Nothing lives below this frame: all of it should be addressable.
  const char* sp = nullptr;
  asm volatile("mov %%rsp, %0" : "=r"(sp));
  const char* lo = static_cast<const char*>(s.guard_end());
  p->poisoned = __asan_region_is_poisoned(const_cast<char*>(lo), static_cast<std::size_t>(sp - 64 - lo));
#endif
}

TEST(StackReuseTest, StackMappedAtAReusedAddressIsCleanUnderAsan) {
#if !defined(TUCANA_TEST_ASAN) || !defined(__x86_64__)
  GTEST_SKIP() << "only meaningful under AddressSanitizer (x86-64)";
#endif
  ReuseProbe first, second;
  for (ReuseProbe* p : {&first, &second}) {
    SchedulerConfig cfg;
    cfg.stack_size = 256 * 1024;
    Scheduler s(cfg);
    s.spawn(0, &reuse_probe_entry, p, "probe");
    s.run();
  }
  EXPECT_EQ(first.poisoned, nullptr) << "a first, fresh stack should be clean";
  if (first.mapping != second.mapping) GTEST_SKIP() << "the second stack was mapped elsewhere";
  EXPECT_EQ(second.poisoned, nullptr) << "stale ASan poison on a fresh fiber stack";
}

}  // namespace
