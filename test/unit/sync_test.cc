// Unit tests of the annotated locks (runtime/src/sync/mutex.h): the
// run-time lock-order check (a thread blocks only on a lock of a higher
// level than every lock it holds, else the process aborts naming the locks)
// and Mutex::assert_held, as death tests; MutexLock's early unlock and
// relock, and try-locks, which the order does not restrict.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>  // std::adopt_lock
#include <thread>

#include "sync/mutex.h"

namespace {

using tucana::sync::LockLevel;
using tucana::sync::locks_held;
using tucana::sync::Mutex;
using tucana::sync::MutexLock;
using tucana::sync::SpinLock;

#ifdef TUCANA_LOCK_ORDER_CHECKS
#define SKIP_WITHOUT_CHECKS() (void)0
#else
#define SKIP_WITHOUT_CHECKS() GTEST_SKIP() << "lock-order checks are compiled out (NDEBUG)"
#endif

// The misuses below are on purpose; the analysis would refuse some of them.
void take_outer_under_inner() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  static Mutex outer(LockLevel::kTransport, "outer lock");
  static Mutex inner(LockLevel::kMailbox, "inner lock");
  MutexLock a(inner);
  MutexLock b(outer);
}

void nest_one_level() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  static Mutex first(LockLevel::kLeaf, "first table");
  static Mutex second(LockLevel::kLeaf, "second table");
  MutexLock a(first);
  MutexLock b(second);
}

void spin_under_output() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  static Mutex output(LockLevel::kOutput, "some output");
  static SpinLock queue(LockLevel::kReadyQueue, "a ready queue");
  MutexLock a(output);
  queue.lock();
}

void assert_not_held() TUCANA_NO_THREAD_SAFETY_ANALYSIS {
  static Mutex m(LockLevel::kTransport, "unheld lock");
  m.assert_held();
}

TEST(SyncTest, TakingAnOuterLevelUnderAnInnerOneAborts) {
  SKIP_WITHOUT_CHECKS();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(take_outer_under_inner(),
               "lock order: taking outer lock \\(level 40.*this thread holds:\n  inner lock \\(level 50");
}

TEST(SyncTest, LocksOfOneLevelDoNotNest) {
  SKIP_WITHOUT_CHECKS();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(nest_one_level(), "lock order: taking second table \\(level 100.*\n  first table \\(level 100");
}

TEST(SyncTest, SpinLocksAreInTheOrderToo) {
  SKIP_WITHOUT_CHECKS();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(spin_under_output(), "lock order: taking a ready queue \\(level 90.*\n  some output \\(level 110");
}

TEST(SyncTest, AssertHeldAbortsWhenTheThreadDoesNotHoldIt) {
  SKIP_WITHOUT_CHECKS();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(assert_not_held(), "lock order: expected to hold unheld lock .*\n  nothing");
}

TEST(SyncTest, AssertHeldPassesForTheHolderOnly) {
  SKIP_WITHOUT_CHECKS();
  Mutex m(LockLevel::kMailbox, "a mailbox");
  MutexLock hold(m);
  m.assert_held();
  // Another thread does not hold it (its check would abort): its list is
  // its own.
  int elsewhere = -1;
  std::thread([&] { elsewhere = locks_held(); }).join();
  EXPECT_EQ(elsewhere, 0);
  EXPECT_EQ(locks_held(), 1);
}

TEST(SyncTest, InnerLevelsNestInOrderAndAreCounted) {
  SKIP_WITHOUT_CHECKS();
  Mutex transport(LockLevel::kTransport, "transport");
  Mutex mailbox(LockLevel::kMailbox, "mailbox");
  SpinLock queue(LockLevel::kReadyQueue, "ready queue");
  Mutex output(LockLevel::kOutput, "output");
  EXPECT_EQ(locks_held(), 0);
  {
    MutexLock a(transport);
    MutexLock b(mailbox);
    queue.lock();
    {
      MutexLock d(output);
      EXPECT_EQ(locks_held(), 4);
    }
    queue.unlock();
  }
  EXPECT_EQ(locks_held(), 0);
}

TEST(SyncTest, UnlockAndRelockLeaveTheListRight) {
  SKIP_WITHOUT_CHECKS();
  Mutex outer(LockLevel::kTransport, "outer");
  Mutex inner(LockLevel::kMailbox, "inner");
  MutexLock a(outer);
  MutexLock b(inner);
  a.unlock();  // out of order: the list keeps `inner` only
  EXPECT_EQ(locks_held(), 1);
  b.unlock();
  EXPECT_EQ(locks_held(), 0);
  a.lock();  // the order holds again from scratch
  b.lock();
  EXPECT_EQ(locks_held(), 2);
}

TEST(SyncTest, TryLocksMayBeTakenAtAnyLevel) {
  SKIP_WITHOUT_CHECKS();
  Mutex outer(LockLevel::kTransport, "outer");
  Mutex inner(LockLevel::kMailbox, "inner");
  MutexLock a(inner);
  // A try-lock cannot deadlock: the order does not apply, but it is held.
  if (!outer.try_lock()) {
    ADD_FAILURE() << "try_lock failed on a free lock";
    return;
  }
  MutexLock b(outer, std::adopt_lock);
  EXPECT_EQ(locks_held(), 2);
}

TEST(SyncTest, TryLockFailsWhileAnotherThreadHoldsIt) {
  Mutex m(LockLevel::kTransport, "transport");
  MutexLock hold(m);
  bool got = true;
  std::thread([&] {
    if (m.try_lock()) {
      m.unlock();
      return;
    }
    got = false;
  }).join();
  EXPECT_FALSE(got);
}

}  // namespace
