// Unit tests of the fiber scheduler (runtime/src/sched): spawning and running
// to completion, yield and round-robin order, park/unpark with permit
// semantics (same worker, other workers, other threads), a wait group built
// on park/unpark, and stall detection. Parameterized over 1, 2 and 4 workers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "harness.h"

namespace {

using tucana::fiber::Fiber;
using tucana::sched::Scheduler;
using tucana::test::Harness;
using tucana::test::workers_name;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

class SchedulerTest : public ::testing::TestWithParam<int> {
 protected:
  int workers() const { return GetParam(); }
  int last_worker() const { return GetParam() - 1; }
};

INSTANTIATE_TEST_SUITE_P(Sched, SchedulerTest, ::testing::Values(1, 2, 4), workers_name);

// ---------------------------------------------------------------- running --

// With stealing off, fibers stay on the worker they were created on.
TEST_P(SchedulerTest, RunsEveryFiberToCompletionOnItsHomeWorker) {
  constexpr int kPerWorker = 50;
  Harness h(Harness::options_for(workers(), /*steal=*/false));
  const int n = kPerWorker * workers();
  struct Record {
    int worker = -1;
    std::thread::id thread;
    Fiber* self = nullptr;
    bool stayed_on_thread = false;
    bool done = false;
  };
  std::vector<Record> rec(static_cast<std::size_t>(n));
  std::vector<Fiber*> spawned;
  std::atomic<int> finished{0};
  for (int i = 0; i < n; ++i) {
    Record& r = rec[static_cast<std::size_t>(i)];
    spawned.push_back(h.spawn(
        i % workers(),
        [&r, &finished, i] {
          r.worker = Scheduler::current_worker()->index();
          r.thread = std::this_thread::get_id();
          r.self = Scheduler::current_fiber();
          for (int k = 0; k < i % 7; ++k) Scheduler::yield();
          r.stayed_on_thread = r.thread == std::this_thread::get_id();
          r.done = true;
          finished.fetch_add(1);
        },
        "fiber " + std::to_string(i)));
  }
  EXPECT_EQ(h.scheduler().live(), n);
  h.run();  // returns: every fiber finished

  EXPECT_EQ(finished.load(), n);
  EXPECT_EQ(h.scheduler().live(), 0);
  EXPECT_EQ(h.scheduler().parked(), 0);
  std::vector<std::set<std::thread::id>> threads_of_worker(static_cast<std::size_t>(workers()));
  for (int i = 0; i < n; ++i) {
    const Record& r = rec[static_cast<std::size_t>(i)];
    SCOPED_TRACE("fiber " + std::to_string(i));
    EXPECT_TRUE(r.done);
    EXPECT_TRUE(r.stayed_on_thread);
    EXPECT_EQ(r.worker, i % workers());
    EXPECT_EQ(r.self, spawned[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(spawned[static_cast<std::size_t>(i)]->finished());
    threads_of_worker[static_cast<std::size_t>(i % workers())].insert(r.thread);
  }
  // One thread per worker, a different one for each, worker 0 on the caller's.
  std::set<std::thread::id> all;
  for (const auto& t : threads_of_worker) {
    ASSERT_EQ(t.size(), 1u);
    all.insert(*t.begin());
  }
  EXPECT_EQ(all.size(), static_cast<std::size_t>(workers()));
  EXPECT_EQ(*threads_of_worker[0].begin(), std::this_thread::get_id());
}

TEST_P(SchedulerTest, RunReturnsAtOnceWithNoFibers) {
  Harness h(workers());
  auto start = Clock::now();
  h.run();
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_EQ(h.scheduler().live(), 0);
}

TEST_P(SchedulerTest, NoCurrentWorkerOrFiberOutsideTheScheduler) {
  EXPECT_EQ(Scheduler::current_worker(), nullptr);
  EXPECT_EQ(Scheduler::current_fiber(), nullptr);
  Harness h(workers());
  std::atomic<int> ran{0};
  for (int w = 0; w < workers(); ++w) h.spawn(w, [&ran] { ran.fetch_add(1); });
  h.run();
  EXPECT_EQ(ran.load(), workers());
  EXPECT_EQ(Scheduler::current_worker(), nullptr);
  EXPECT_EQ(Scheduler::current_fiber(), nullptr);
}

TEST_P(SchedulerTest, FiberRunsOnItsOwnStack) {
  Harness h(workers());
  struct Probe {
    Fiber* f = nullptr;
    const char* local = nullptr;
  };
  std::deque<Probe> probes;
  for (int w = 0; w < workers(); ++w) {
    for (int k = 0; k < 3; ++k) {
      probes.emplace_back();
      Probe& p = probes.back();
      p.f = h.spawn(w, [&p] {
        volatile char here = 0;
        p.local = const_cast<const char*>(&here);
      });
    }
  }
  h.run();
  for (const Probe& p : probes) {
    const auto& s = p.f->stack();
    EXPECT_GE(s.usable, 256u * 1024);
    EXPECT_GT(s.guard, 0u);
    EXPECT_EQ(s.mapped, s.usable + s.guard);
    EXPECT_GE(p.local, static_cast<const char*>(s.guard_end()));
    EXPECT_LT(p.local, static_cast<const char*>(s.top()));
  }
}

TEST_P(SchedulerTest, ManyFibersWithSmallStacks) {
  Harness::Options o = Harness::options_for(workers());
  o.stack_size = 64 * 1024;
  Harness h(o);
  constexpr int kFibers = 1000;
  std::atomic<long> sum{0};
  std::vector<Fiber*> fibers;
  for (int i = 0; i < kFibers; ++i) {
    fibers.push_back(h.spawn(i % workers(), [&sum, i] {
      for (int k = 0; k < 3; ++k) Scheduler::yield();
      sum.fetch_add(i);
    }));
  }
  h.run();
  EXPECT_EQ(sum.load(), static_cast<long>(kFibers) * (kFibers - 1) / 2);
  for (Fiber* f : fibers) {
    ASSERT_EQ(f->stack().usable, 64u * 1024) << "not the small stack asked for";
    ASSERT_TRUE(f->finished());
  }
}

// ------------------------------------------------------------------ yield --

TEST_P(SchedulerTest, YieldAlternatesTheFibersOfEachWorker) {
  constexpr int kRounds = 200;
  Harness h(Harness::options_for(workers(), /*steal=*/false));
  // log[w] is only touched by fibers of worker w, i.e. by one thread.
  std::vector<std::vector<int>> log(static_cast<std::size_t>(workers()));
  for (int w = 0; w < workers(); ++w) {
    auto& mine = log[static_cast<std::size_t>(w)];
    for (int id = 0; id < 2; ++id) {
      h.spawn(w, [&mine, id] {
        for (int r = 0; r < kRounds; ++r) {
          mine.push_back(id);
          Scheduler::yield();
        }
      });
    }
  }
  h.run();
  for (int w = 0; w < workers(); ++w) {
    const auto& mine = log[static_cast<std::size_t>(w)];
    SCOPED_TRACE("worker " + std::to_string(w));
    ASSERT_EQ(mine.size(), 2u * kRounds);
    for (std::size_t i = 0; i < mine.size(); ++i) ASSERT_EQ(mine[i], static_cast<int>(i % 2)) << "at " << i;
  }
}

TEST_P(SchedulerTest, YieldWithNothingElseReadyKeepsRunning) {
  Harness h(workers());
  std::vector<int> counts(static_cast<std::size_t>(workers()), 0);
  for (int w = 0; w < workers(); ++w) {
    int& c = counts[static_cast<std::size_t>(w)];
    h.spawn(w, [&c] {
      for (int i = 0; i < 10000; ++i) {
        Scheduler::yield();
        ++c;
      }
    });
  }
  h.run();
  for (int c : counts) EXPECT_EQ(c, 10000);
}

// Runs fibers "A", "B", "C" on one worker, each recording "<name><i>" and
// yielding `iters[f]` times; returns the order of the records.
std::vector<std::string> run_yielders(const std::vector<int>& iters) {
  Harness h(1);
  std::vector<std::string> order;
  for (std::size_t f = 0; f < iters.size(); ++f) {
    const std::string name(1, static_cast<char>('A' + f));
    const int n = iters[f];
    h.spawn(
        0,
        [&order, name, n] {
          for (int i = 0; i < n; ++i) {
            order.push_back(name + std::to_string(i));
            Scheduler::yield();
          }
        },
        name);
  }
  h.run();
  return order;
}

// The same, computed with a model of a FIFO ready queue (round robin).
std::vector<std::string> round_robin_model(const std::vector<int>& iters) {
  std::deque<std::pair<std::size_t, int>> ready;  // fiber, records done
  for (std::size_t f = 0; f < iters.size(); ++f) ready.emplace_back(f, 0);
  std::vector<std::string> order;
  while (!ready.empty()) {
    auto [f, done] = ready.front();
    ready.pop_front();
    if (done == iters[f]) continue;  // its loop ends: the fiber finishes
    order.push_back(std::string(1, static_cast<char>('A' + f)) + std::to_string(done));
    ready.emplace_back(f, done + 1);
  }
  return order;
}

TEST(SingleWorkerSchedulingTest, ThreeYieldingFibersRunInRoundRobinOrder) {
  const std::vector<std::string> expected = {"A0", "B0", "C0", "A1", "B1", "C1",
                                             "A2", "B2", "C2", "A3", "B3", "C3"};
  for (int rep = 0; rep < 10; ++rep) EXPECT_EQ(run_yielders({4, 4, 4}), expected) << "repetition " << rep;
}

TEST(SingleWorkerSchedulingTest, FinishedFibersLeaveTheRotation) {
  const std::vector<std::string> expected = {"A0", "B0", "C0", "A1", "C1", "A2"};
  for (int rep = 0; rep < 10; ++rep) EXPECT_EQ(run_yielders({3, 1, 2}), expected) << "repetition " << rep;
}

TEST(SingleWorkerSchedulingTest, LongRunsAreIdenticalAndRoundRobin) {
  const std::vector<int> iters = {1000, 700, 850};
  const auto first = run_yielders(iters);
  EXPECT_EQ(first, round_robin_model(iters));
  for (int rep = 0; rep < 3; ++rep) EXPECT_EQ(run_yielders(iters), first) << "repetition " << rep;
}

// ------------------------------------------------------------ park/unpark --

// (Stealing off: the waiter stays on worker 0, the waker on the last one.)
TEST_P(SchedulerTest, ParkedFiberIsWokenFromAnotherWorker) {
  Harness h(Harness::options_for(workers(), /*steal=*/false));
  std::atomic<bool> ready{false};
  int parks = -1;
  std::atomic<int> waiter_worker{-1}, waker_worker{-1}, parked_when_woken{-1};
  Fiber* waiter = h.spawn(
      0,
      [&] {
        waiter_worker.store(Scheduler::current_worker()->index());
        parks = h.park_until([&] { return ready.load(); });
      },
      "waiter");
  h.spawn(
      last_worker(),
      [&] {
        // Wake it only once it really sleeps, to test the wake path.
        while (h.scheduler().parked() < 1 && !h.watchdog_fired()) Scheduler::yield();
        waker_worker.store(Scheduler::current_worker()->index());
        parked_when_woken.store(h.scheduler().parked());
        ready.store(true);
        Scheduler::unpark(waiter);
      },
      "waker");
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_TRUE(ready.load());
  EXPECT_EQ(parks, 1);
  EXPECT_EQ(parked_when_woken.load(), 1);  // the waiter was asleep
  EXPECT_EQ(waiter_worker.load(), 0);
  EXPECT_EQ(waker_worker.load(), last_worker());
}

TEST_P(SchedulerTest, ParkedFiberIsWokenFromAPlainThread) {
  Harness h(workers());
  std::atomic<bool> ready{false};
  int parks = -1;
  Fiber* waiter =
      h.spawn(last_worker(), [&] { parks = h.park_until([&] { return ready.load(); }); }, "waiter");
  // A thread that is no worker: it goes through the worker's inbox and must
  // wake a worker that went to sleep for lack of work.
  std::atomic<int> parked_when_woken{-1};
  std::thread outsider([&] {
    auto deadline = Clock::now() + std::chrono::seconds(2);
    while (h.scheduler().parked() < 1 && Clock::now() < deadline) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let the worker nap
    parked_when_woken.store(h.scheduler().parked());
    ready.store(true);
    Scheduler::unpark(waiter);
  });
  h.run();
  outsider.join();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(parks, 1);
  EXPECT_EQ(parked_when_woken.load(), 1) << "the waiter was not asleep when the thread woke it";
}

TEST_P(SchedulerTest, UnparkBeforeParkIsNotLost) {
  Harness h(workers());
  std::atomic<bool> unparked{false};
  std::atomic<bool> returned{false};
  Fiber* a = h.spawn(
      0,
      [&] {
        while (!unparked.load()) Scheduler::yield();  // busy, never parked
        Scheduler::park();  // the permit left by b makes this return at once
        returned.store(true);
      },
      "a");
  h.spawn(
      last_worker(),
      [&] {
        Scheduler::unpark(a);
        unparked.store(true);
      },
      "b");
  h.run();
  EXPECT_TRUE(returned.load());
  EXPECT_FALSE(h.watchdog_fired()) << "the permit was lost: park() slept until the watchdog";
}

TEST_P(SchedulerTest, UnparkSelfThenParkReturnsAtOnce) {
  Harness h(workers());
  std::atomic<int> returned{0};
  for (int w = 0; w < workers(); ++w) {
    h.spawn(w, [&] {
      for (int i = 0; i < 100; ++i) {
        Scheduler::unpark(Scheduler::current_fiber());
        Scheduler::park();
      }
      returned.fetch_add(1);
    });
  }
  h.run();
  EXPECT_EQ(returned.load(), workers());
  EXPECT_FALSE(h.watchdog_fired());
}

TEST_P(SchedulerTest, PermitsDoNotAccumulate) {
  Harness h(workers());
  std::atomic<int> stage{0};
  int second_wait_parks = -1;
  int parked_seen = -1;
  Fiber* a = h.spawn(
      last_worker(),
      [&] {
        Fiber* self = Scheduler::current_fiber();
        Scheduler::unpark(self);
        Scheduler::unpark(self);
        Scheduler::park();  // takes the one permit the two unparks left
        stage.store(1);
        // No permit left: the first park() must sleep until b's unpark.
        second_wait_parks = h.park_until([&] { return stage.load() == 2; });
      },
      "a");
  h.spawn(
      last_worker(),  // same worker: b runs only when a yields or parks
      [&] {
        while (stage.load() != 1) Scheduler::yield();
        for (int i = 0; i < 50; ++i) Scheduler::yield();
        parked_seen = h.scheduler().parked();
        stage.store(2);
        Scheduler::unpark(a);
      },
      "b");
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(parked_seen, 1);
  EXPECT_EQ(second_wait_parks, 1);
}

TEST_P(SchedulerTest, PingPongBetweenWorkers) {
  constexpr int kRounds = 3000;
  Harness h(workers());
  // One pair per worker: ping on worker w, pong on worker w+1 (mod W).
  struct Pair {
    std::atomic<int> turn{0};
    Fiber* fibers[2] = {nullptr, nullptr};
    int rounds_done[2] = {0, 0};
  };
  std::deque<Pair> pairs(static_cast<std::size_t>(workers()));
  for (int w = 0; w < workers(); ++w) {
    Pair& p = pairs[static_cast<std::size_t>(w)];
    for (int side = 0; side < 2; ++side) {
      p.fibers[side] = h.spawn(
          (w + side) % workers(),
          [&h, &p, side] {
            for (int r = 0; r < kRounds; ++r) {
              const int mine = 2 * r + side;
              h.park_until([&] { return p.turn.load() == mine; });
              if (h.watchdog_fired()) return;
              p.turn.store(mine + 1);
              p.rounds_done[side] = r + 1;
              if (mine + 1 < 2 * kRounds) Scheduler::unpark(p.fibers[1 - side]);
            }
          },
          side == 0 ? "ping" : "pong");
    }
  }
  auto start = Clock::now();
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  for (Pair& p : pairs) {
    EXPECT_EQ(p.turn.load(), 2 * kRounds);
    EXPECT_EQ(p.rounds_done[0], kRounds);
    EXPECT_EQ(p.rounds_done[1], kRounds);
  }
  RecordProperty("seconds", std::to_string(seconds_since(start)));
}

// ------------------------------------------------------------- wait group --

// A counter that one fiber waits on until N others have signalled, built only
// on park/unpark. The waiter announces itself; the last signal wakes it. The
// waiter re-checks the count after announcing, so a wake-up is never missed.
class WaitGroup {
 public:
  explicit WaitGroup(int n) : remaining_(n) {}
  void done() {
    if (remaining_.fetch_sub(1) == 1) {
      if (Fiber* w = waiter_.load()) Scheduler::unpark(w);
    }
  }
  // Returns how many times the waiter parked.
  int wait(Harness& h) {
    waiter_.store(Scheduler::current_fiber());
    return h.park_until([this] { return remaining_.load() == 0; });
  }
  int remaining() const { return remaining_.load(); }

 private:
  std::atomic<int> remaining_;
  std::atomic<Fiber*> waiter_{nullptr};
};

TEST_P(SchedulerTest, WaitGroupCollectsSignalsFromAllWorkers) {
  constexpr int kPerWorker = 16;
  Harness h(workers());
  const int n = kPerWorker * workers();
  WaitGroup wg(n);
  std::vector<std::atomic<bool>> done(static_cast<std::size_t>(n));
  int seen_done = -1;
  h.spawn(
      0,
      [&] {
        wg.wait(h);
        seen_done = 0;
        for (auto& d : done) seen_done += d.load() ? 1 : 0;
      },
      "waiter");
  for (int i = 0; i < n; ++i) {
    h.spawn(i % workers(), [&, i] {
      for (int k = 0; k < (i * 7) % 13; ++k) Scheduler::yield();
      done[static_cast<std::size_t>(i)].store(true);
      wg.done();
    });
  }
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(wg.remaining(), 0);
  EXPECT_EQ(seen_done, n);  // the waiter saw every signaller's work
}

TEST_P(SchedulerTest, WaitGroupWaiterParksUntilTheLastSignal) {
  Harness h(workers());
  const int n = 2 * workers();
  WaitGroup wg(n);
  std::atomic<bool> gate{false};
  Fiber* gatekeeper = nullptr;
  int waiter_parks = -1;
  std::atomic<int> remaining_when_woken{-1};
  h.spawn(
      last_worker(),
      [&] {
        waiter_parks = wg.wait(h);
        remaining_when_woken.store(wg.remaining());
      },
      "waiter");
  // Signallers park behind a gate, opened once the waiter is asleep, so
  // that every signal arrives while the waiter is parked.
  std::vector<Fiber*> signallers;
  for (int i = 0; i < n; ++i) {
    signallers.push_back(h.spawn(i % workers(), [&] {
      h.park_until([&] { return gate.load(); });
      wg.done();
    }));
  }
  gatekeeper = h.spawn(0, [&] {
    // Everyone else (waiter + n signallers) is asleep.
    while (h.scheduler().parked() < n + 1 && !h.watchdog_fired()) Scheduler::yield();
    gate.store(true);
    for (Fiber* f : signallers) Scheduler::unpark(f);
  });
  (void)gatekeeper;
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_GE(waiter_parks, 1);
  EXPECT_EQ(remaining_when_woken.load(), 0);
}

// -------------------------------------------------------- stall detection --

struct StallProbe {
  std::atomic<int> calls{0};
  std::atomic<bool> on_worker{false};
  std::atomic<bool> outside_fiber{false};
  std::atomic<double> after_s{-1};
};

TEST_P(SchedulerTest, StallHandlerRunsWhenEveryFiberParksForever) {
  Harness::Options o = Harness::options_for(workers());
  o.watchdog_s = 0.2;  // stall_timeout_s
  Harness h(o);
  StallProbe probe;
  std::atomic<bool> released{false};
  std::vector<Fiber*> fibers;
  auto start = Clock::now();
  h.scheduler().set_stall_handler([&] {
    probe.calls.fetch_add(1);
    probe.on_worker.store(Scheduler::current_worker() != nullptr);
    probe.outside_fiber.store(Scheduler::current_fiber() == nullptr);
    probe.after_s.store(seconds_since(start));
    // Let the test end: release the fibers (unpark works from a worker loop).
    released.store(true);
    for (Fiber* f : fibers) Scheduler::unpark(f);
  });
  std::atomic<int> woke{0};
  for (int i = 0; i < 3 * workers(); ++i) {
    fibers.push_back(h.spawn(i % workers(), [&] {
      while (!released.load()) Scheduler::park();
      woke.fetch_add(1);
    }));
  }
  start = Clock::now();
  h.run();
  EXPECT_EQ(probe.calls.load(), 1);
  EXPECT_TRUE(probe.on_worker.load());
  EXPECT_TRUE(probe.outside_fiber.load());
  EXPECT_GE(probe.after_s.load(), 0.2);
  EXPECT_LT(probe.after_s.load(), 5.0);
  EXPECT_EQ(woke.load(), 3 * workers());
}

TEST_P(SchedulerTest, NoStallWhileFibersKeepYielding) {
  Harness::Options o = Harness::options_for(workers());
  o.watchdog_s = 0.2;
  Harness h(o);
  std::atomic<int> calls{0};
  h.scheduler().set_stall_handler([&] { calls.fetch_add(1); });
  // On every worker: a fiber that yields for 0.5 s, and one parked waiting
  // for it (so some, but never all, fibers are parked).
  auto start = Clock::now();
  for (int w = 0; w < workers(); ++w) {
    auto flag = std::make_shared<std::atomic<bool>>(false);
    Fiber* sleeper = h.spawn(w, [flag] {
      while (!flag->load()) Scheduler::park();
    });
    h.spawn(w, [flag, sleeper, &start] {
      while (seconds_since(start) < 0.5) Scheduler::yield();
      flag->store(true);
      Scheduler::unpark(sleeper);
    });
  }
  start = Clock::now();
  h.run();
  EXPECT_GE(seconds_since(start), 0.5);
  EXPECT_EQ(calls.load(), 0);
}

TEST_P(SchedulerTest, NoStallWhileOneFiberComputesAndTheOthersWait) {
  Harness::Options o = Harness::options_for(workers());
  o.watchdog_s = 0.2;
  Harness h(o);
  std::atomic<int> calls{0};
  h.scheduler().set_stall_handler([&] { calls.fetch_add(1); });
  std::atomic<bool> finished{false};
  std::vector<Fiber*> waiters;
  for (int w = 0; w < workers(); ++w) {
    waiters.push_back(h.spawn(w, [&] {
      while (!finished.load()) Scheduler::park();
    }));
  }
  auto start = Clock::now();
  h.spawn(last_worker(), [&] {
    volatile unsigned long x = 0;
    while (seconds_since(start) < 0.5) x = x + 1;  // never yields
    finished.store(true);
    for (Fiber* f : waiters) Scheduler::unpark(f);
  });
  start = Clock::now();
  h.run();
  EXPECT_EQ(calls.load(), 0);
}

}  // namespace

// ------------------------------------------------------------- stealing --

// Cousins: with every fiber created on worker 0, idle workers take ready
// ones, so fibers run on every worker; all still run to completion.
TEST_P(SchedulerTest, IdleWorkersRunReadyFibersOfOtherWorkers) {
  if (workers() == 1) GTEST_SKIP() << "needs several workers";
  constexpr int kFibers = 64;
  Harness h(workers());
  std::atomic<int> finished{0};
  std::vector<std::atomic<int>> ran_on(static_cast<std::size_t>(workers()));
  for (int i = 0; i < kFibers; ++i) {
    h.spawn(0, [&] {
      // Work long enough that worker 0 cannot run them all before the
      // others look for work.
      auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
      while (std::chrono::steady_clock::now() < until) {
      }
      ran_on[static_cast<std::size_t>(Scheduler::current_worker()->index())].fetch_add(1);
      Scheduler::yield();
      finished.fetch_add(1);
    });
  }
  h.run();
  EXPECT_EQ(finished.load(), kFibers);
  int workers_used = 0;
  for (auto& n : ran_on) workers_used += n.load() > 0;
  EXPECT_GT(workers_used, 1) << "no fiber ran on another worker than its own";
}

// A fiber that parks while it runs on another worker than its home (it was
// stolen) is woken all the same (queued on its home worker again) and goes
// on: park/unpark across a steal keeps working. The fibers first yield
// until every worker has run one of them (at most 5 s), so that some of
// them sit on other workers when they park; the test checks that some did.
TEST_P(SchedulerTest, StolenFibersParkAndWakeCorrectly) {
  if (workers() == 1) GTEST_SKIP() << "needs several workers";
  constexpr int kPairs = 8, kRounds = 200;
  Harness h(workers());
  std::vector<std::atomic<int>> turn(kPairs);
  std::vector<Fiber*> ping(kPairs), pong(kPairs);
  std::atomic<int> done{0};
  std::atomic<int> parked_away{0};  // parks that began on another worker than the home (0)
  std::atomic<unsigned> workers_seen{0};
  const unsigned all = (1u << workers()) - 1;
  auto spread = [&] {
    auto until = Clock::now() + std::chrono::seconds(5);
    while (workers_seen.load() != all && Clock::now() < until) {
      workers_seen.fetch_or(1u << Scheduler::current_worker()->index());
      Scheduler::yield();
    }
  };
  // Waits for the pair's turn to be `mine`.
  auto wait_turn = [&](int p, int mine) {
    const bool away = Scheduler::current_worker()->index() != 0;
    const int parks = h.park_until([&] { return turn[static_cast<std::size_t>(p)].load() == mine; });
    if (parks > 0 && away) parked_away.fetch_add(1);
  };
  for (int p = 0; p < kPairs; ++p) {
    ping[static_cast<std::size_t>(p)] = h.spawn(0, [&, p] {
      spread();
      for (int r = 0; r < kRounds; ++r) {
        wait_turn(p, 0);
        turn[static_cast<std::size_t>(p)].store(1);
        Scheduler::unpark(pong[static_cast<std::size_t>(p)]);
      }
      done.fetch_add(1);
    });
    pong[static_cast<std::size_t>(p)] = h.spawn(0, [&, p] {
      spread();
      for (int r = 0; r < kRounds; ++r) {
        wait_turn(p, 1);
        turn[static_cast<std::size_t>(p)].store(0);
        Scheduler::unpark(ping[static_cast<std::size_t>(p)]);
      }
      done.fetch_add(1);
    });
  }
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(done.load(), 2 * kPairs);
  EXPECT_EQ(workers_seen.load(), all) << "some worker never ran a fiber homed on worker 0";
  EXPECT_GT(parked_away.load(), 0) << "no fiber parked while on another worker than its home";
}
