// Unit tests of the subrank layout (runtime/src/comm/layout.h): world rank
// <-> (process, worker, local index) for P processes x W workers x VF
// subranks per worker, uneven totals (--vranks), and the layouts compute()
// refuses.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "comm/layout.h"

namespace {

using tucana::comm::Layout;

Layout make(int total, int nprocs, int my_proc, int workers) {
  Layout l;
  std::string error;
  EXPECT_TRUE(Layout::compute(total, nprocs, my_proc, workers, &l, &error)) << error;
  return l;
}

// (P, W, VF): every process holds W*VF consecutive world ranks, every
// worker VF consecutive local indices.
class LayoutSweepTest : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

INSTANTIATE_TEST_SUITE_P(Layouts, LayoutSweepTest,
                         ::testing::Values(std::make_tuple(1, 1, 1), std::make_tuple(1, 1, 8),
                                           std::make_tuple(1, 4, 1), std::make_tuple(1, 4, 8),
                                           std::make_tuple(2, 1, 1), std::make_tuple(2, 2, 2),
                                           std::make_tuple(2, 4, 8), std::make_tuple(3, 2, 5),
                                           std::make_tuple(4, 3, 1), std::make_tuple(8, 1, 16)),
                         [](const auto& info) {
                           return "p" + std::to_string(std::get<0>(info.param)) + "w" +
                                  std::to_string(std::get<1>(info.param)) + "vf" +
                                  std::to_string(std::get<2>(info.param));
                         });

TEST_P(LayoutSweepTest, WorldRankMapsToProcessWorkerAndLocalIndexAndBack) {
  const auto [P, W, VF] = GetParam();
  const int total = P * W * VF;
  for (int me = 0; me < P; ++me) {
    SCOPED_TRACE("process " + std::to_string(me));
    const Layout l = make(total, P, me, W);
    EXPECT_EQ(l.total, total);
    EXPECT_EQ(l.nprocs, P);
    EXPECT_EQ(l.workers, W);
    ASSERT_EQ(l.proc_first.size(), static_cast<std::size_t>(P) + 1);
    ASSERT_EQ(l.worker_first.size(), static_cast<std::size_t>(W) + 1);
    EXPECT_EQ(l.first_local(), me * W * VF);
    EXPECT_EQ(l.local_count(), W * VF);
    EXPECT_EQ(l.max_local_count(), W * VF);
    for (int world = 0; world < total; ++world) {
      const int proc = world / (W * VF);
      const int local = world % (W * VF);
      EXPECT_EQ(l.proc_of(world), proc) << "world " << world;
      EXPECT_EQ(l.local_of(world), local) << "world " << world;
      EXPECT_EQ(l.is_local(world), proc == me) << "world " << world;
      // The inverse: the process's first rank plus the local index.
      EXPECT_EQ(l.proc_first[static_cast<std::size_t>(l.proc_of(world))] + l.local_of(world), world);
    }
    for (int local = 0; local < l.local_count(); ++local) {
      EXPECT_EQ(l.worker_of_local(local), local / VF) << "local " << local;
      const int w = l.worker_of_local(local);
      EXPECT_GE(local, l.worker_first[static_cast<std::size_t>(w)]);
      EXPECT_LT(local, l.worker_first[static_cast<std::size_t>(w) + 1]);
    }
  }
}

// --vranks totals that do not divide: blocks differ by at most one, the
// larger ones first.
TEST(LayoutTest, UnevenTotalsGiveTheFirstBlocksOneMore) {
  const Layout p0 = make(10, 3, 0, 2);
  EXPECT_EQ(p0.proc_first, (std::vector<int>{0, 4, 7, 10}));
  EXPECT_EQ(p0.local_count(), 4);
  EXPECT_EQ(p0.worker_first, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(p0.max_local_count(), 4);

  const Layout p1 = make(10, 3, 1, 2);
  EXPECT_EQ(p1.first_local(), 4);
  EXPECT_EQ(p1.local_count(), 3);
  EXPECT_EQ(p1.worker_first, (std::vector<int>{0, 2, 3}));  // worker 0: 2, worker 1: 1
  EXPECT_EQ(p1.worker_of_local(1), 0);
  EXPECT_EQ(p1.worker_of_local(2), 1);
  EXPECT_EQ(p1.max_local_count(), 4);  // of every process, not this one's

  const Layout p2 = make(10, 3, 2, 2);
  EXPECT_EQ(p2.first_local(), 7);
  EXPECT_EQ(p2.local_count(), 3);
  EXPECT_TRUE(p2.is_local(7));
  EXPECT_TRUE(p2.is_local(9));
  EXPECT_FALSE(p2.is_local(6));
  EXPECT_EQ(p2.proc_of(6), 1);
  EXPECT_EQ(p2.local_of(6), 2);
  EXPECT_EQ(p2.proc_of(9), 2);
  EXPECT_EQ(p2.local_of(9), 2);

  for (int total = 7; total <= 40; ++total) {
    for (int P = 1; P <= 4; ++P) {
      for (int W = 1; W <= 3 && P * W <= total; ++W) {
        for (int me = 0; me < P; ++me) {
          const Layout l = make(total, P, me, W);
          SCOPED_TRACE(std::to_string(total) + " over " + std::to_string(P) + "x" + std::to_string(W));
          EXPECT_EQ(l.proc_first.front(), 0);
          EXPECT_EQ(l.proc_first.back(), total);
          for (int p = 0; p < P; ++p) {
            const int n = l.proc_first[static_cast<std::size_t>(p) + 1] - l.proc_first[static_cast<std::size_t>(p)];
            EXPECT_TRUE(n == total / P || n == total / P + 1);
            if (p > 0) {  // the larger blocks first
              EXPECT_LE(n, l.proc_first[static_cast<std::size_t>(p)] - l.proc_first[static_cast<std::size_t>(p) - 1]);
            }
          }
          EXPECT_EQ(l.worker_first.back(), l.local_count());
          for (int w = 0; w < W; ++w) {
            const int n = l.worker_first[static_cast<std::size_t>(w) + 1] - l.worker_first[static_cast<std::size_t>(w)];
            EXPECT_GE(n, 1) << "worker " << w << " has no subrank";
            EXPECT_LE(n, l.local_count() / W + 1);
          }
        }
      }
    }
  }
}

// As many workers as subranks: one subrank each (VF 1).
TEST(LayoutTest, OneSubrankPerWorker) {
  const Layout l = make(8, 2, 1, 4);
  EXPECT_EQ(l.worker_first, (std::vector<int>{0, 1, 2, 3, 4}));
  for (int local = 0; local < 4; ++local) EXPECT_EQ(l.worker_of_local(local), local);
}

TEST(LayoutTest, ImpossibleLayoutsAreRefusedWithTheReason) {
  Layout l;
  l.total = 99;  // untouched on failure
  std::string error;
  // Fewer subranks than workers: some worker would have none.
  EXPECT_FALSE(Layout::compute(3, 1, 0, 4, &l, &error));
  EXPECT_EQ(error, "3 subranks cannot give every one of 1 processes x 4 workers at least one subrank");
  EXPECT_EQ(l.total, 99);
  error.clear();
  EXPECT_FALSE(Layout::compute(7, 2, 0, 4, &l, &error));
  EXPECT_EQ(error, "7 subranks cannot give every one of 2 processes x 4 workers at least one subrank");
  for (auto [total, nprocs, workers] : {std::make_tuple(0, 1, 1), std::make_tuple(4, 0, 1), std::make_tuple(4, 1, 0),
                                        std::make_tuple(-1, 1, 1)}) {
    error.clear();
    EXPECT_FALSE(Layout::compute(total, nprocs, 0, workers, &l, &error));
    EXPECT_EQ(error, "the number of processes, workers and subranks must all be at least 1");
  }
  // The smallest possible: exactly one subrank per worker.
  error.clear();
  EXPECT_TRUE(Layout::compute(8, 2, 0, 4, &l, &error)) << error;
  EXPECT_EQ(l.local_count(), 4);
}

}  // namespace
