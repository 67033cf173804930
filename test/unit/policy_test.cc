// Unit tests of the ready-queue policies (runtime/src/sched/policy.h): the
// queues alone (order, FIFO among equal priorities, priorities, the
// stealing and preemption queries), and a one-worker scheduler that runs
// woken fibers by priority, or in wake-up order under the round-robin policy.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "sched/policy.h"

namespace {

using tucana::fiber::Fiber;
using tucana::sched::PolicyFactory;
using tucana::sched::PriorityPolicy;
using tucana::sched::ReadyPolicy;
using tucana::sched::RoundRobinPolicy;
using tucana::sched::Scheduler;
using tucana::test::Harness;

// Fibers that are never run: only queued.
class PolicyTest : public ::testing::Test {
 protected:
  Fiber* fiber(int priority) {
    fibers_.push_back(std::make_unique<Fiber>(&nothing, nullptr, 16384, "f" + std::to_string(fibers_.size())));
    fibers_.back()->priority = priority;
    return fibers_.back().get();
  }
  // Queues fibers of these priorities in this order, and returns the order
  // (indices into `priorities`) in which the policy gives them back.
  std::vector<int> order(ReadyPolicy& p, const std::vector<int>& priorities) {
    std::vector<Fiber*> fs;
    for (int prio : priorities) fs.push_back(fiber(prio));
    for (Fiber* f : fs) p.awakened(f);
    EXPECT_EQ(p.size(), fs.size());
    std::vector<int> out;
    while (Fiber* f = p.pick_next()) {
      for (std::size_t i = 0; i < fs.size(); ++i)
        if (fs[i] == f) out.push_back(static_cast<int>(i));
    }
    EXPECT_FALSE(p.has_ready());
    EXPECT_EQ(p.size(), 0u);
    return out;
  }

 private:
  static void nothing(void*) {}
  std::vector<std::unique_ptr<Fiber>> fibers_;
};

TEST_F(PolicyTest, RoundRobinIsFifoAndIgnoresPriorities) {
  RoundRobinPolicy p;
  EXPECT_FALSE(p.has_ready());
  EXPECT_EQ(p.pick_next(), nullptr);
  EXPECT_EQ(order(p, {0, 5, -1, 3, 0}), (std::vector<int>{0, 1, 2, 3, 4}));
  Fiber* high = fiber(9);
  p.awakened(high);
  EXPECT_EQ(p.next_priority(), 0);
  EXPECT_FALSE(p.outranks(-100));
  EXPECT_EQ(p.pick_next(), high);
}

TEST_F(PolicyTest, PriorityWithEqualPrioritiesIsFifo) {
  PriorityPolicy p;
  EXPECT_EQ(order(p, {0, 0, 0, 0, 0}), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(order(p, {-2, -2, -2}), (std::vector<int>{0, 1, 2}));
}

TEST_F(PolicyTest, PriorityRunsHighestFirstAndFifoAmongEquals) {
  PriorityPolicy p;
  // priorities:       0  5  0 -1  5  3  0  3 -1
  // index:            0  1  2  3  4  5  6  7  8
  EXPECT_EQ(order(p, {0, 5, 0, -1, 5, 3, 0, 3, -1}), (std::vector<int>{1, 4, 5, 7, 0, 2, 6, 3, 8}));
  // Ascending arrival: each one goes to the head.
  EXPECT_EQ(order(p, {1, 2, 3, 4}), (std::vector<int>{3, 2, 1, 0}));
}

TEST_F(PolicyTest, PriorityInterleavesWithPicks) {
  PriorityPolicy p;
  Fiber* a = fiber(0);
  Fiber* b = fiber(0);
  Fiber* c = fiber(2);
  Fiber* d = fiber(1);
  p.awakened(a);
  p.awakened(b);
  EXPECT_EQ(p.pick_next(), a);
  p.awakened(c);
  p.awakened(a);  // a again, behind b among the 0s
  p.awakened(d);
  EXPECT_EQ(p.size(), 4u);
  EXPECT_EQ(p.next_priority(), 2);
  EXPECT_EQ(p.pick_next(), c);
  EXPECT_EQ(p.pick_next(), d);
  EXPECT_EQ(p.pick_next(), b);
  EXPECT_EQ(p.pick_next(), a);
  EXPECT_EQ(p.pick_next(), nullptr);
}

TEST_F(PolicyTest, PriorityOutranksOnlyStrictlyHigher) {
  PriorityPolicy p;
  EXPECT_FALSE(p.outranks(0));  // empty
  p.awakened(fiber(3));
  EXPECT_TRUE(p.outranks(2));
  EXPECT_FALSE(p.outranks(3));
  EXPECT_FALSE(p.outranks(4));
  EXPECT_EQ(p.next_priority(), 3);
}

TEST(PolicyFactoryTest, MakesTheKindAsked) {
  tucana::sched::PolicyContext context;
  PolicyFactory make_rr = tucana::sched::find_policy("fifo");
  PolicyFactory make_pr = tucana::sched::find_policy("priority");
  ASSERT_NE(make_rr, nullptr);
  ASSERT_NE(make_pr, nullptr);
  auto rr = make_rr(context);
  auto pr = make_pr(context);
  EXPECT_NE(dynamic_cast<RoundRobinPolicy*>(rr.get()), nullptr);
  EXPECT_NE(dynamic_cast<PriorityPolicy*>(pr.get()), nullptr);
}

// The registry names the policies that --policy accepts, and no other.
TEST(PolicyFactoryTest, RegistryListsTheSelectablePolicies) {
  EXPECT_EQ(tucana::sched::find_policy("random"), nullptr);
  EXPECT_EQ(tucana::sched::find_policy(""), nullptr);
  EXPECT_EQ(tucana::sched::policy_names(), "'priority' or 'fifo'");
}

// One worker: fibers 1..4 park with priorities 0, 5, 0, 2; fiber 0 wakes
// them in that order and finishes; they run in the policy's order.
std::vector<int> wake_order(const std::string& kind) {
  Harness::Options o = Harness::options_for(1);
  o.policy = kind;
  Harness h(o);
  const int prios[] = {0, 5, 0, 2};
  std::vector<Fiber*> sleepers(4, nullptr);
  std::vector<int> ran;
  int parked = 0;
  bool woken[4] = {false, false, false, false};
  for (int i = 0; i < 4; ++i) {
    sleepers[static_cast<std::size_t>(i)] = h.spawn(0, [&, i] {
      Scheduler::current_fiber()->priority = prios[i];
      ++parked;
      h.park_until([&] { return woken[i]; });
      ran.push_back(i);
    });
  }
  h.spawn(0, [&] {
    h.park_until([&] { return parked == 4; });  // (never parks: the sleepers ran first)
    for (int i = 0; i < 4; ++i) {
      woken[i] = true;
      Scheduler::unpark(sleepers[static_cast<std::size_t>(i)]);
    }
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  return ran;
}

TEST(PolicySchedulingTest, OneWorkerRunsWokenFibersByPriority) {
  EXPECT_EQ(wake_order("priority"), (std::vector<int>{1, 3, 0, 2}));
}

TEST(PolicySchedulingTest, OneWorkerRoundRobinRunsWokenFibersInWakeOrder) {
  EXPECT_EQ(wake_order("fifo"), (std::vector<int>{0, 1, 2, 3}));
}

// Scheduler::outranked: a running fiber sees a higher-priority fiber ready
// on its worker (priority policy only).
TEST(PolicySchedulingTest, OutrankedSeesHigherReadyFibers) {
  for (std::string kind : {"priority", "fifo"}) {
    Harness::Options o = Harness::options_for(1);
    o.policy = kind;
    Harness h(o);
    bool low_outranked = false, high_outranked = true;
    Fiber* other = nullptr;
    bool go = false;
    h.spawn(0, [&] {
      Scheduler::yield();  // let `other` park
      go = true;
      Scheduler::unpark(other);  // ready at priority 4
      low_outranked = Scheduler::outranked(1);
      high_outranked = Scheduler::outranked(4);
    });
    other = h.spawn(0, [&] {
      Scheduler::current_fiber()->priority = 4;
      h.park_until([&] { return go; });
    });
    h.run();
    EXPECT_EQ(low_outranked, kind == "priority");
    EXPECT_FALSE(high_outranked);
  }
}

// Two workers: worker 1 has fibers of priorities 0, 5, 0 ready (woken by a
// fiber of its own that keeps it busy); worker 0 becomes idle and steals:
// the fiber its policy ranks first (priority 5), or the first woken under
// round robin. Returns that fiber's index, or -1 when the first sleeper to
// run did not run on worker 0 (nothing was stolen: worker 1 gave up waiting
// and ran them itself).
int first_stolen(const std::string& kind) {
  Harness::Options o = Harness::options_for(2, /*steal=*/true);
  o.policy = kind;
  Harness h(o);
  const int prios[] = {0, 5, 0};
  std::vector<Fiber*> sleepers(3, nullptr);
  std::atomic<int> first{-1};
  std::atomic<int> first_worker{-1};
  std::atomic<bool> released{false};
  std::atomic<int> parked{0};
  bool woken[3] = {false, false, false};
  // Worker 0 is busy until the sleepers are ready on worker 1.
  h.spawn(0, [&] {
    while (!released.load()) std::this_thread::yield();
  });
  for (int i = 0; i < 3; ++i) {
    sleepers[static_cast<std::size_t>(i)] = h.spawn(1, [&, i] {
      Scheduler::current_fiber()->priority = prios[i];
      parked.fetch_add(1);
      h.park_until([&] { return woken[i]; });
      int none = -1;
      if (first.compare_exchange_strong(none, i)) first_worker.store(Scheduler::current_worker()->index());
    });
  }
  h.spawn(1, [&] {
    EXPECT_EQ(parked.load(), 3);  // they ran first on this worker
    for (int i = 0; i < 3; ++i) {
      woken[i] = true;
      Scheduler::unpark(sleepers[static_cast<std::size_t>(i)]);
    }
    released.store(true);
    // Keep this worker busy until worker 0 has stolen one.
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (first.load() < 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  EXPECT_EQ(first_worker.load(), 0) << "the first sleeper to run was not stolen by worker 0";
  return first_worker.load() == 0 ? first.load() : -1;
}

// A fiber that polls (Scheduler::yield_behind_all) while two others keep
// taking turns on its worker. Returns how many turns they had taken when
// the poller's third poll returned (kTurns: it never ran before they
// stopped). `poller_priority`, `others_priority`: their priorities.
int turns_before_polls_return(int poller_priority, int others_priority) {
  constexpr int kTurns = 10000;
  Harness h(Harness::options_for(1));
  int turns = 0, seen = -1;
  bool done = false;
  h.spawn(0, [&] {
    Scheduler::current_fiber()->priority = poller_priority;
    for (int i = 0; i < 3; ++i) Scheduler::yield_behind_all();
    seen = turns;
    done = true;
  });
  for (int k = 0; k < 2; ++k)
    h.spawn(0, [&] {
      Scheduler::current_fiber()->priority = others_priority;
      while (!done && turns < kTurns) {
        ++turns;
        Scheduler::yield();
      }
    });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  return seen;
}

// A poller goes behind the fibers ready when it polls, not behind every
// fiber that becomes ready later: two fibers that keep yielding (or waking
// each other) do not keep it from running (an MCS mutex's unlock loop
// starved that way behind a sibling's trylock loop and the window's agent).
TEST(PolicySchedulingTest, PollerRunsAgainAfterTheFibersReadyWhenItPolled) {
  EXPECT_LE(turns_before_polls_return(0, 0), 6);
}

// A poller of a high priority still goes behind ready fibers of a lower one.
TEST(PolicySchedulingTest, HighPriorityPollerGoesBehindLowerReadyFibers) {
  EXPECT_GE(turns_before_polls_return(5, 0), 2);
  EXPECT_LE(turns_before_polls_return(5, 0), 6);
}

TEST(PolicySchedulingTest, ThiefTakesTheHighestPriorityReadyFiber) {
  EXPECT_EQ(first_stolen("priority"), 1);
}

TEST(PolicySchedulingTest, ThiefTakesTheFirstReadyFiberUnderRoundRobin) {
  EXPECT_EQ(first_stolen("fifo"), 0);
}

// Two workers, both busy. Worker 1 runs `hog`, which keeps it busy until
// the test ends, with `high` (priority 5) ready behind it. On worker 0,
// `low` (priority 0) is ready when `a` finishes. Returns which of them
// worker 0 runs next ("high" or "low"), or "" on a timeout.
std::string next_after_switch(bool process_wide, const std::string& kind = "priority") {
  Harness::Options o = Harness::options_for(2, /*steal=*/true);
  o.policy = kind;
  o.process_wide_priority = process_wide;
  Harness h(o);
  std::atomic<int> first{-1};  // 0: low, 1: high
  std::atomic<bool> high_ready{false};
  // Atomic: a fiber may be stolen and test its flag on one worker while
  // another worker sets it.
  std::atomic<bool> low_go{false}, high_go{false};
  Fiber* low = nullptr;
  Fiber* high = nullptr;
  auto record = [&](int who) {
    int none = -1;
    first.compare_exchange_strong(none, who);
  };
  low = h.spawn(0, [&] {
    h.park_until([&] { return low_go.load(); });
    record(0);
  });
  h.spawn(0, [&] {  // a
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!high_ready.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    low_go = true;
    Scheduler::unpark(low);  // ready on worker 0, priority 0
    // Finishes: worker 0 picks its next fiber now.
  });
  high = h.spawn(1, [&] {
    Scheduler::current_fiber()->priority = 5;
    h.park_until([&] { return high_go.load(); });
    record(1);
  });
  h.spawn(1, [&] {  // hog
    high_go = true;
    Scheduler::unpark(high);  // ready on worker 1, behind this fiber
    high_ready.store(true);
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (first.load() < 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  int f = first.load();
  return f == 1 ? "high" : f == 0 ? "low" : "";
}

// Priorities decide among the ready fibers of the whole process: a worker
// that switches takes a higher-priority fiber ready on another worker
// before its own.
TEST(PolicySchedulingTest, ProcessWidePriorityRunsTheHighestReadyFiberOfAnyWorker) {
  EXPECT_EQ(next_after_switch(/*process_wide=*/true), "high");
}

TEST(PolicySchedulingTest, WorkerScopedPriorityRunsTheWorkersOwnFiberFirst) {
  EXPECT_EQ(next_after_switch(/*process_wide=*/false), "low");
}

TEST(PolicySchedulingTest, RoundRobinIgnoresOtherWorkersPriorities) {
  EXPECT_EQ(next_after_switch(/*process_wide=*/true, "fifo"), "low");
}

// A fiber woken by a fiber of another worker is queued on the waker's
// worker with wake_on_waker, handed to its home worker without. Returns
// whether the waker's worker then had it ready (Scheduler::outranked: a
// ready fiber of priority 0 outranks -1), and sets *ran_on to the worker
// it ran on.
bool woken_fiber_queued_on_waker(bool on_waker, int* ran_on) {
  Harness::Options o = Harness::options_for(2, /*steal=*/true);
  o.wake_on_waker = on_waker;
  o.process_wide_priority = false;  // outranked() looks at this worker only
  Harness h(o);
  std::atomic<bool> go{false};
  std::atomic<int> where{-1};
  std::atomic<bool> queued_here{false};
  Fiber* sleeper = h.spawn(0, [&] {
    h.park_until([&] { return go.load(); });
    where.store(Scheduler::current_worker()->index());
  });
  h.spawn(1, [&] {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (sleeper->park_state.load() != 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    go = true;
    Scheduler::unpark(sleeper);
    queued_here.store(Scheduler::outranked(-1));
    Scheduler::yield();  // with wake_on_waker, the sleeper runs here now
  });
  h.spawn(0, [&] {  // keeps worker 0 busy until the sleeper has run
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (where.load() < 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  });
  h.run();
  EXPECT_FALSE(h.watchdog_fired());
  *ran_on = where.load();
  return queued_here.load();
}

TEST(PolicySchedulingTest, WokenFiberRunsOnTheWakersWorker) {
  int ran_on = -1;
  EXPECT_TRUE(woken_fiber_queued_on_waker(true, &ran_on));
  EXPECT_EQ(ran_on, 1);
}

TEST(PolicySchedulingTest, WokenFiberGoesToItsHomeWorkerByDefault) {
  int ran_on = -1;
  EXPECT_FALSE(woken_fiber_queued_on_waker(false, &ran_on));
  EXPECT_GE(ran_on, 0);  // it ran (stolen by worker 1 once idle, or at home)
}

}  // namespace
