// Unit tests of the runtime side of privatized globals (tucana/privatize.h,
// runtime/src/core/privatize.cc) and of per-fiber errno (fiber::switch_context):
// copies of the image, tucana_priv_delta on fibers of a subrank and outside
// them, the initializers' order, the atexit lists, and errno across switches
// on 1, 2 and 4 workers (fibers stolen by other workers).
#include <gtest/gtest.h>
#include <tucana/privatize.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "core/privatize.h"
#include "core/runtime.h"

// Privatized variables of this program, as the translator would emit them:
// the linker gathers them into the image [__start_tucana_priv, __stop_tucana_priv).
__attribute__((section("tucana_priv"))) int g_priv_counter = 41;
__attribute__((section("tucana_priv"))) double g_priv_zeros[3000];  // more than a page of zeros
__attribute__((section("tucana_priv"))) char g_priv_tail[5] = "tail";

namespace {

using tucana::mpi::AtexitList;
using tucana::mpi::copy_private_image;
using tucana::mpi::kPrivateCopyAlign;
using tucana::mpi::make_private_copy;
using tucana::sched::Scheduler;
using tucana::test::Harness;
using tucana::test::workers_name;

template <class T>
T& copy_of(T& x, std::ptrdiff_t delta) {
  return *reinterpret_cast<T*>(reinterpret_cast<char*>(&x) + delta);
}

// Computes for a while now and then, so that idle workers steal the fiber.
void compute_sometimes(int k) {
  if (k % 1000 != 0) return;
  auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(300);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Pairs of fibers (2j, 2j+1), all homed on worker 0, that take turns: a
// fiber parks until its partner gives it the turn. A woken fiber is queued
// on its home worker wherever it ran last, and idle workers steal ready
// fibers, so with several workers the fibers keep moving between them.
struct Turns {
  explicit Turns(int n) : fibers(static_cast<std::size_t>(n)), turn(static_cast<std::size_t>(n / 2)), worker(fibers.size()) {}
  void wait(Harness& h, int i) {
    h.park_until([&] { return turn[static_cast<std::size_t>(i / 2)].load() == i % 2; });
    note_worker(i);
  }
  void give(int i) {
    turn[static_cast<std::size_t>(i / 2)].store(1 - i % 2);
    Scheduler::unpark(fibers[static_cast<std::size_t>(i ^ 1)]);
  }
  // Yields until every worker has run one of the fibers (at most 5 s): on a
  // busy machine a worker thread may start late, and the fibers would not
  // move at all.
  void until_every_worker_ran(int i, int workers) {
    const unsigned all = (1u << workers) - 1;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (workers_seen.load() != all && std::chrono::steady_clock::now() < until) {
      workers_seen.fetch_or(1u << Scheduler::current_worker()->index());
      note_worker(i);
      Scheduler::yield();
    }
  }
  // Counts a move when fiber i runs on another worker than when last noted.
  void note_worker(int i) {
    int now = Scheduler::current_worker()->index() + 1;  // (0: not noted yet)
    int& last = worker[static_cast<std::size_t>(i)];
    if (last != 0 && last != now) moves.fetch_add(1);
    last = now;
  }
  std::vector<tucana::fiber::Fiber*> fibers;
  std::vector<std::atomic<int>> turn;  // per pair: 0 or 1, whose turn it is
  std::vector<int> worker;             // per fiber: written by that fiber only
  std::atomic<int> moves{0};
  std::atomic<unsigned> workers_seen{0};
};

// errno read and written through an opaque call: a compiler may keep errno's
// address across a switch (glibc declares __errno_location const), and the
// fiber may then run on another thread.
int* errno_address() { return &errno; }
int* (*volatile errno_here)() = &errno_address;

// ------------------------------------------------------------------ copies --

TEST(PrivateImage, EmptyRangeMakesNoCopy) {
  std::ptrdiff_t delta = 123;
  EXPECT_TRUE(copy_private_image(nullptr, nullptr, &delta));
  EXPECT_EQ(delta, 0);
  char c = 0;
  EXPECT_TRUE(copy_private_image(&c, &c, &delta));
  EXPECT_EQ(delta, 0);
}

// An image that starts and ends inside pages, with zero pages in the middle:
// each copy holds the same bytes at a distance that is a multiple of the
// alignment, and is the copy's own.
TEST(PrivateImage, CopiesHoldTheImageAndKeepItsAlignment) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<char> buffer(page * 6);
  for (std::size_t offset : {std::size_t{0}, std::size_t{8}, std::size_t{200}, page - 1}) {
    char* begin = buffer.data() + offset;
    char* end = begin + page * 4 + 17;
    std::memset(buffer.data(), 0, buffer.size());
    for (char* p = begin; p < begin + page / 2; ++p) *p = static_cast<char>(1 + (p - begin) % 100);
    end[-1] = 'z';
    std::ptrdiff_t d1 = 0, d2 = 0;
    ASSERT_TRUE(copy_private_image(begin, end, &d1));
    ASSERT_TRUE(copy_private_image(begin, end, &d2));
    EXPECT_NE(d1, 0);
    EXPECT_NE(d1, d2);
    EXPECT_EQ(d1 % static_cast<std::ptrdiff_t>(kPrivateCopyAlign), 0);
    EXPECT_EQ(d2 % static_cast<std::ptrdiff_t>(kPrivateCopyAlign), 0);
    EXPECT_EQ(std::memcmp(begin + d1, begin, static_cast<std::size_t>(end - begin)), 0) << "offset " << offset;
    EXPECT_EQ(std::memcmp(begin + d2, begin, static_cast<std::size_t>(end - begin)), 0) << "offset " << offset;
    begin[d1] = 'a';
    end[d1 - 1] = 'b';
    begin[d1 + static_cast<std::ptrdiff_t>(page * 2)] = 'c';  // a zero page of the copy
    EXPECT_EQ(begin[0], 1);
    EXPECT_EQ(begin[d2], 1);
    EXPECT_EQ(end[-1], 'z');
    EXPECT_EQ(begin[page * 2], 0);
    EXPECT_EQ(begin[d2 + static_cast<std::ptrdiff_t>(page * 2)], 0);
  }
}

TEST(PrivateImage, TheProgramsImageIsCopied) {
  std::ptrdiff_t delta = 0;
  ASSERT_TRUE(make_private_copy(&delta));
  ASSERT_NE(delta, 0);
  EXPECT_EQ(delta % static_cast<std::ptrdiff_t>(kPrivateCopyAlign), 0);
  EXPECT_EQ(copy_of(g_priv_counter, delta), 41);
  EXPECT_EQ(copy_of(g_priv_zeros, delta)[2999], 0.0);
  EXPECT_STREQ(copy_of(g_priv_tail, delta), "tail");
  copy_of(g_priv_counter, delta) = 7;
  EXPECT_EQ(g_priv_counter, 41);
}

// ------------------------------------------------------------------- delta --

TEST(PrivateDelta, ZeroOutsideSubranks) {
  EXPECT_EQ(tucana_priv_delta(), 0);
  std::ptrdiff_t on_thread = -1;
  std::thread([&] { on_thread = tucana_priv_delta(); }).join();
  EXPECT_EQ(on_thread, 0);
  // A fiber that is no subrank's (Fiber::actor null).
  tucana::mpi::install_run_hook();
  Harness h(1);
  std::ptrdiff_t on_fiber = -1;
  h.spawn(0, [&] { on_fiber = tucana_priv_delta(); });
  h.run();
  EXPECT_EQ(on_fiber, 0);
}

class PrivateDeltaTest : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Priv, PrivateDeltaTest, ::testing::Values(1, 2, 4), workers_name);

// Fibers of four subranks (each with its own copy) and a helper fiber of
// each, parking and yielding so that they move between workers: each always
// finds its subrank's delta, and the variables are each subrank's own.
TEST_P(PrivateDeltaTest, EachSubranksFibersSeeItsCopyOnAnyWorker) {
  constexpr int kSubranks = 4;
  constexpr int kRounds = 2000;
  tucana::mpi::install_run_hook();  // as Runtime::run does
  Harness h(GetParam());
  std::vector<std::unique_ptr<tucana::mpi::Subrank>> subranks;
  std::atomic<int> errors{0};
  Turns turns(2 * kSubranks);
  for (int i = 0; i < kSubranks; ++i) {
    subranks.push_back(std::make_unique<tucana::mpi::Subrank>());
    tucana::mpi::Subrank* s = subranks.back().get();
    ASSERT_TRUE(make_private_copy(&s->priv_delta));
    for (int helper = 0; helper < 2; ++helper) {
      const int me = 2 * i + helper;
      turns.fibers[static_cast<std::size_t>(me)] = h.spawn(0, [&, s, i, helper, me] {
        turns.until_every_worker_ran(me, h.workers());
        for (int k = 0; k < kRounds; ++k) {
          turns.wait(h, me);
          if (tucana_priv_delta() != s->priv_delta) errors.fetch_add(1);
          int& mine = copy_of(g_priv_counter, tucana_priv_delta());
          if (helper == 0 && mine != 1000 * i + k) errors.fetch_add(1);
          compute_sometimes(k);
          Scheduler::yield();
          turns.note_worker(me);
          if (tucana_priv_delta() != s->priv_delta) errors.fetch_add(1);
          if (helper == 0) ++copy_of(g_priv_counter, tucana_priv_delta());
          turns.give(me);
        }
      });
      turns.fibers[static_cast<std::size_t>(me)]->actor = s;  // as Runtime::run and spawn_transient do
    }
    copy_of(g_priv_counter, s->priv_delta) = 1000 * i;
  }
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(g_priv_counter, 41);  // the image is untouched
  for (int i = 0; i < kSubranks; ++i)
    EXPECT_EQ(copy_of(g_priv_counter, subranks[static_cast<std::size_t>(i)]->priv_delta), 1000 * i + kRounds);
  if (GetParam() > 1) {
    EXPECT_GT(turns.moves.load(), 0) << "no fiber moved to another worker";
  }
}

// A fiber made while fibers run that works for a subrank without being its
// own (a task, whose actor is the task, or a helper, whose actor is the
// subrank) sees that subrank's copy; one with no actor sees the image.
TEST(PrivateDelta, TaskAndHelperFibersSeeTheirSubranksCopy) {
  tucana::mpi::install_run_hook();
  Harness h(1);
  auto s = std::make_unique<tucana::mpi::Subrank>();
  ASSERT_TRUE(make_private_copy(&s->priv_delta));
  ASSERT_NE(s->priv_delta, 0);
  tucana::mpi::Actor task;  // as tasks::Task holds it
  task.subrank = s.get();
  EXPECT_TRUE(tucana::mpi::is_task(task));
  EXPECT_FALSE(tucana::mpi::is_task(*s));
  struct Probe {
    std::ptrdiff_t delta = -1;
    tucana::mpi::Subrank* subrank = nullptr;
    std::atomic<int>* done = nullptr;
  };
  std::atomic<int> done{0};
  Probe on_task{-1, nullptr, &done}, on_helper{-1, nullptr, &done}, on_own{-1, nullptr, &done};
  auto probe = [](void* arg) {
    auto* p = static_cast<Probe*>(arg);
    p->delta = tucana_priv_delta();
    p->subrank = tucana::mpi::actor_subrank(Scheduler::current_fiber());
    p->done->fetch_add(1);
  };
  h.spawn(0, [&] {
    Scheduler::TransientSpec spec;
    spec.entry = probe;
    spec.arg = &on_task;
    spec.stack_size = 64 * 1024;
    spec.pool = Scheduler::Pool::kTask;
    spec.actor = &task;
    h.scheduler().spawn_transient(spec);
    h.scheduler().spawn_transient(probe, &on_helper, 64 * 1024, s.get(), 0);
    h.scheduler().spawn_transient(probe, &on_own, 64 * 1024, nullptr, -1);
    while (done.load() < 3) Scheduler::yield();
    EXPECT_EQ(tucana_priv_delta(), 0);  // back on a fiber with no actor
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(on_task.delta, s->priv_delta);
  EXPECT_EQ(on_task.subrank, s.get());
  EXPECT_EQ(on_helper.delta, s->priv_delta);
  EXPECT_EQ(on_helper.subrank, s.get());
  EXPECT_EQ(on_own.delta, 0);
  EXPECT_EQ(on_own.subrank, nullptr);
}

// ------------------------------------------------------------------- inits --

std::string g_init_order;
void init_a() { g_init_order += 'a'; }
void init_b() { g_init_order += 'b'; }
void init_c() { g_init_order += 'c'; }
// As translated translation units do, from their static initialization.
__attribute__((constructor)) void register_inits() {
  tucana_priv_add_init(&init_a);
  tucana_priv_add_init(&init_b);
  tucana_priv_add_init(&init_a);
  tucana_priv_add_init(&init_c);
}

TEST(PrivateInits, RunInRegistrationOrderEveryTime) {
  g_init_order.clear();
  tucana::mpi::run_private_inits();
  tucana::mpi::run_private_inits();
  EXPECT_EQ(g_init_order, "abacabac");
  // Contract: an initializer registered once a subrank ran them would be
  // missed by that subrank.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tucana_priv_add_init(&init_a), "called before main");
}

// ------------------------------------------------------------------ atexit --

std::string g_atexit_order;
AtexitList* g_list = nullptr;
void record(void* arg) { g_atexit_order += static_cast<const char*>(arg); }
void record_and_register(void* arg) {
  record(arg);
  g_list->push(&record, const_cast<char*>("N"));
}

TEST(PrivateAtexit, ListRunsLatestFirstAndWhatItsCallsRegisterNext) {
  AtexitList list;
  g_list = &list;
  g_atexit_order.clear();
  EXPECT_TRUE(list.empty());
  list.push(&record, const_cast<char*>("1"));
  list.push(&record_and_register, const_cast<char*>("2"));
  list.push(&record, const_cast<char*>("3"));
  EXPECT_FALSE(list.empty());
  list.run_all();
  EXPECT_EQ(g_atexit_order, "32N1");
  EXPECT_TRUE(list.empty());
  list.run_all();
  EXPECT_EQ(g_atexit_order, "32N1");
}

TEST(PrivateAtexit, OnASubranksFiberItGoesToTheSubranksList) {
  Harness h(2);
  auto s = std::make_unique<tucana::mpi::Subrank>();
  g_atexit_order.clear();
  tucana::fiber::Fiber* f = h.spawn(0, [] {
    tucana_priv_atexit(&record, const_cast<char*>("x"));
    tucana_priv_atexit(&record, const_cast<char*>("y"));
  });
  f->actor = s.get();
  h.run();
  EXPECT_EQ(g_atexit_order, "");
  s->priv_atexit.run_all();
  EXPECT_EQ(g_atexit_order, "yx");
}

void say(void* arg) { std::fprintf(stderr, "%s\n", static_cast<const char*>(arg)); }

// Outside subranks the calls run at the process's exit, latest first.
TEST(PrivateAtexit, OutsideSubranksTheyRunAtTheProcesssExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        tucana_priv_atexit(&say, const_cast<char*>("first registered"));
        tucana_priv_atexit(&say, const_cast<char*>("second registered"));
        std::exit(3);
      },
      ::testing::ExitedWithCode(3), "second registered\nfirst registered");
}

// ------------------------------------------------------------------- errno --

class FiberErrnoTest : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Priv, FiberErrnoTest, ::testing::Values(1, 2, 4), workers_name);

// Each fiber keeps its own errno across switches, on whichever worker it
// resumes; a new fiber starts with errno 0.
TEST_P(FiberErrnoTest, EachFiberKeepsItsErrnoAcrossSwitches) {
  constexpr int kFibers = 12;
  constexpr int kRounds = 2000;
  Harness h(GetParam());
  std::atomic<int> errors{0};
  std::atomic<int> started_nonzero{0};
  Turns turns(kFibers);
  for (int i = 0; i < kFibers; ++i) {
    turns.fibers[static_cast<std::size_t>(i)] = h.spawn(0, [&, i] {
      if (*errno_here() != 0) started_nonzero.fetch_add(1);
      turns.until_every_worker_ran(i, h.workers());
      for (int k = 0; k < kRounds; ++k) {
        const int mine = 1000 * (i + 1) + k;
        *errno_here() = mine;
        turns.wait(h, i);
        if (*errno_here() != mine) errors.fetch_add(1);
        compute_sometimes(k);
        Scheduler::yield();
        turns.note_worker(i);
        if (*errno_here() != mine) errors.fetch_add(1);
        turns.give(i);
      }
      *errno_here() = 77;  // left behind: a new fiber must not see it
    });
  }
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(started_nonzero.load(), 0);
  if (GetParam() > 1) {
    EXPECT_GT(turns.moves.load(), 0) << "no fiber moved to another worker";
  }
}

// A fiber created while another runs starts with errno 0, not its creator's.
TEST(FiberErrno, ANewFiberStartsWithErrnoZero) {
  Harness h(1);
  std::atomic<int> seen{-1};
  std::atomic<bool> done{false};
  struct Probe {
    std::atomic<int>* seen;
    std::atomic<bool>* done;
  } probe{&seen, &done};
  h.spawn(0, [&] {
    *errno_here() = 55;
    h.scheduler().spawn_transient(
        [](void* arg) {
          auto* p = static_cast<Probe*>(arg);
          p->seen->store(*errno_here());
          p->done->store(true);
        },
        &probe, 64 * 1024, nullptr, -1);
    while (!done.load()) Scheduler::yield();
    EXPECT_EQ(*errno_here(), 55);
  });
  h.run();
  EXPECT_EQ(seen.load(), 0);
}

}  // namespace
