// Unit tests of seeded schedules (SchedulerConfig::randomized, the
// RandomPolicy of runtime/src/sched/policy.h): the random queue gives back
// every fiber exactly once, in an order that the seed decides and that is
// not the order of arrival; a randomized scheduler runs every fiber to the
// end at 1, 2 and 4 workers, and its fibers park, wake and yield as usual.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "sched/policy.h"
#include "sched/scheduler.h"

namespace {

using tucana::fiber::Fiber;
using tucana::sched::RandomPolicy;
using tucana::sched::Scheduler;
using tucana::sched::SchedulerConfig;

void nothing(void*) {}

// The order (indices) in which a RandomPolicy seeded with `seed` gives back
// n fibers queued in index order.
std::vector<int> random_order(std::uint64_t seed, int n) {
  std::vector<std::unique_ptr<Fiber>> fibers;
  RandomPolicy p(seed);
  for (int i = 0; i < n; ++i) {
    fibers.push_back(std::make_unique<Fiber>(&nothing, nullptr, 16384, "f" + std::to_string(i)));
    p.awakened(fibers.back().get());
  }
  EXPECT_EQ(p.size(), static_cast<std::size_t>(n));
  std::vector<int> order;
  while (Fiber* f = p.pick_next())
    for (int i = 0; i < n; ++i)
      if (fibers[static_cast<std::size_t>(i)].get() == f) order.push_back(i);
  EXPECT_FALSE(p.has_ready());
  EXPECT_EQ(p.size(), 0u);
  return order;
}

TEST(RandomPolicyTest, GivesBackEveryFiberOnce) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<int> order = random_order(seed, 9);
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8})) << "seed " << seed;
  }
}

TEST(RandomPolicyTest, TheSeedDecidesTheOrder) {
  EXPECT_EQ(random_order(42, 9), random_order(42, 9));
  std::vector<int> fifo{0, 1, 2, 3, 4, 5, 6, 7, 8};
  int not_fifo = 0, differ_from_seed_0 = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<int> o = random_order(seed, 9);
    not_fifo += o != fifo;
    differ_from_seed_0 += o != random_order(0, 9);
  }
  // 9! orders: each of these fails by chance with probability ~20/362880.
  EXPECT_GE(not_fifo, 19);
  EXPECT_GE(differ_from_seed_0, 19);
}

// Taking the last fiber keeps the queue's tail right: what is queued next
// comes back too.
TEST(RandomPolicyTest, QueueStaysConsistentAcrossPicksAndArrivals) {
  std::vector<std::unique_ptr<Fiber>> fibers;
  for (int i = 0; i < 64; ++i) fibers.push_back(std::make_unique<Fiber>(&nothing, nullptr, 16384, "f"));
  RandomPolicy p(7);
  std::vector<Fiber*> out;
  std::size_t next = 0;
  // Interleave arrivals and picks.
  while (out.size() < fibers.size()) {
    for (int k = 0; k < 3 && next < fibers.size(); ++k) p.awakened(fibers[next++].get());
    if (Fiber* f = p.pick_next()) out.push_back(f);
  }
  EXPECT_EQ(p.pick_next(), nullptr);
  std::sort(out.begin(), out.end());
  EXPECT_EQ(std::unique(out.begin(), out.end()), out.end());
  EXPECT_EQ(out.size(), fibers.size());
}

// A randomized scheduler: every fiber runs to its end; fibers park and are
// woken by others and yield. Each of 32 fibers adds to a counter in 10
// steps, and fiber i > 0 first waits until fiber i-1 has finished (a chain of
// parks and unparks that any order of the ready queue must respect).
struct Chain {
  std::vector<Fiber*> fibers;
  std::vector<std::atomic<bool>> done;
  std::atomic<int> sum{0};
  explicit Chain(std::size_t n) : done(n) {}
};
struct Link {
  Chain* chain;
  std::size_t index;
};

void chain_body(void* arg) {
  auto* link = static_cast<Link*>(arg);
  Chain& c = *link->chain;
  std::size_t i = link->index;
  if (i > 0) {
    while (!c.done[i - 1].load()) Scheduler::park();
  }
  for (int step = 0; step < 10; ++step) {
    c.sum.fetch_add(1);
    Scheduler::yield();
  }
  c.done[i].store(true);
  if (i + 1 < c.fibers.size()) Scheduler::unpark(c.fibers[i + 1]);
}

class SeededSchedulerTest : public ::testing::TestWithParam<int> {};

TEST_P(SeededSchedulerTest, EveryFiberRunsToItsEnd) {
  for (std::uint64_t seed : {1u, 2u, 3u, 1000u}) {
    SchedulerConfig config;
    config.workers = GetParam();
    config.stack_size = 64 << 10;
    config.randomized = true;
    config.seed = seed;
    Scheduler s(config);
    const std::size_t n = 32;
    Chain chain(n);
    std::vector<Link> links;
    for (std::size_t i = 0; i < n; ++i) links.push_back({&chain, i});
    for (std::size_t i = 0; i < n; ++i)
      chain.fibers.push_back(s.spawn(static_cast<int>(i % static_cast<std::size_t>(config.workers)), &chain_body,
                                     &links[i], "f" + std::to_string(i)));
    s.run();
    EXPECT_EQ(chain.sum.load(), static_cast<int>(n) * 10) << "seed " << seed;
    for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(chain.done[i].load()) << "fiber " << i << " seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Sched, SeededSchedulerTest, ::testing::Values(1, 2, 4));

}  // namespace
