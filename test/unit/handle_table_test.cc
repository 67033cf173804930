// Unit tests of the MPI handle allocator (runtime/src/mpi/handle_table.h):
// the numbers each reuse policy hands out after frees, reserved handles,
// lookups of stale handles, the contract on release (death test), the
// table's lock in the lock order, and allocations from several threads at
// once (run under TSan by scripts/test.sh --tsan).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "mpi/handle_table.h"

namespace {

using tucana::mpi::HandleReuse;
using tucana::mpi::HandleTable;
using tucana::sync::LockLevel;
using tucana::sync::locks_held;
using tucana::sync::MutexLock;

template <HandleReuse kReuse>
using Names = HandleTable<std::string, kReuse>;

// Allocates "a".."e" from `first` on, frees b and d (in that order), and
// gives the next two handles.
template <HandleReuse kReuse>
std::vector<int> after_two_frees(int first) {
  Names<kReuse> t(LockLevel::kLeaf, "test handles", first);
  std::vector<int> h;
  for (const char* s : {"a", "b", "c", "d", "e"}) h.push_back(t.allocate(s));
  EXPECT_EQ(h, (std::vector<int>{first, first + 1, first + 2, first + 3, first + 4}));
  EXPECT_EQ(t.release(h[1]), "b");
  EXPECT_EQ(t.release(h[3]), "d");
  return {t.allocate("x"), t.allocate("y"), t.allocate("z")};
}

TEST(HandleTableTest, NeverReusesANumber) {
  EXPECT_EQ(after_two_frees<HandleReuse::kNever>(1), (std::vector<int>{6, 7, 8}));
}

TEST(HandleTableTest, LowestFreeTakesTheLowestFreedNumberFirst) {
  EXPECT_EQ(after_two_frees<HandleReuse::kLowestFree>(1), (std::vector<int>{2, 4, 6}));
}

TEST(HandleTableTest, LastFreedTakesTheNumberFreedLastFirst) {
  EXPECT_EQ(after_two_frees<HandleReuse::kLastFreed>(2), (std::vector<int>{5, 3, 7}));
}

TEST(HandleTableTest, ReservedAndStaleHandlesFindNothing) {
  Names<HandleReuse::kNever> t(LockLevel::kLeaf, "test handles", 3);
  EXPECT_FALSE(t.find(0).has_value());
  EXPECT_FALSE(t.find(2).has_value());
  EXPECT_FALSE(t.find(-1).has_value());
  EXPECT_FALSE(t.find(3).has_value());  // not allocated yet
  int h = t.allocate("object");
  EXPECT_EQ(h, 3);
  EXPECT_EQ(t.find(h), std::optional<std::string>("object"));
  t.release(h);
  EXPECT_FALSE(t.find(h).has_value());
  MutexLock hold(t.mutex());
  EXPECT_EQ(t.find_locked(h), nullptr);
}

TEST(HandleTableTest, LockedAccessSeesAndChangesTheStoredObject) {
  Names<HandleReuse::kLowestFree> t(LockLevel::kLeaf, "test handles", 1);
  int a = t.allocate("a");
  int b = t.allocate("b");
  MutexLock hold(t.mutex());
  std::string* pa = t.find_locked(a);
  ASSERT_NE(pa, nullptr);
  *pa += "!";
  int c = t.allocate_locked("c");  // does not move a's object
  EXPECT_EQ(pa, t.find_locked(a));
  std::vector<std::pair<int, std::string>> seen;
  t.for_each_locked([&](int h, std::string& s) { seen.emplace_back(h, s); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, std::string>>{{a, "a!"}, {b, "b"}, {c, "c"}}));
  EXPECT_EQ(t.release_locked(b), "b");
}

TEST(HandleTableTest, MoveOnlyObjectsAreGivenBackByRelease) {
  HandleTable<std::unique_ptr<int>, HandleReuse::kLastFreed> t(LockLevel::kLeaf, "test handles", 1);
  int h = t.allocate(std::make_unique<int>(42));
  std::unique_ptr<int> back = t.release(h);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(*back, 42);
}

TEST(HandleTableTest, TheLockIsHeldOnlyInsideTheCalls) {
  Names<HandleReuse::kNever> t(LockLevel::kLeaf, "test handles", 1);
  int before = locks_held();
  int h = t.allocate("a");
  t.find(h);
  t.release(h);
  EXPECT_EQ(locks_held(), before);
}

#ifdef TUCANA_LOCK_ORDER_CHECKS
// A table's lock is in the lock order with its level: taking it under a
// lock of the same level (kLeaf tables never nest) aborts.
void nest_two_tables() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  static Names<HandleReuse::kNever> outer(LockLevel::kLeaf, "outer table", 1);
  static Names<HandleReuse::kNever> inner(LockLevel::kLeaf, "inner table", 1);
  MutexLock hold(outer.mutex());
  inner.allocate("x");
}

TEST(HandleTableTest, TablesAreInTheLockOrder) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(nest_two_tables(), "lock order: taking inner table \\(level 100.*\n  outer table \\(level 100");
}
#endif

#ifndef NDEBUG
TEST(HandleTableTest, ReleasingAHandleThatIsNotLiveBreaksTheContract) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Names<HandleReuse::kLowestFree> t(LockLevel::kLeaf, "test handles", 1);
  EXPECT_DEATH(t.release(1), "the handle is not live");
  int h = t.allocate("a");
  t.release(h);
  EXPECT_DEATH(t.release(h), "the handle is not live");
}
#endif

// Threads allocating and freeing at once get distinct live handles.
TEST(HandleTableTest, ConcurrentAllocationsGetDistinctHandles) {
  HandleTable<int, HandleReuse::kLowestFree> t(LockLevel::kLeaf, "test handles", 1);
  constexpr int kThreads = 4, kRounds = 500;
  std::vector<std::vector<int>> kept(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&t, &kept, i] {
      for (int r = 0; r < kRounds; ++r) {
        int h = t.allocate(i);
        if (r % 2) {
          EXPECT_EQ(t.release(h), i);
        } else {
          kept[static_cast<std::size_t>(i)].push_back(h);
        }
      }
    });
  for (auto& th : threads) th.join();
  std::set<int> all;
  for (int i = 0; i < kThreads; ++i)
    for (int h : kept[static_cast<std::size_t>(i)]) {
      EXPECT_TRUE(all.insert(h).second);
      EXPECT_EQ(t.find(h), std::optional<int>(i));
    }
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kRounds / 2));
}

}  // namespace
