// Unit tests of the superblock region tracker (runtime/src/regions): the
// iteration-at-a-time logic behind tucana_sb_next/ran/end. Requests are
// simulated with request_posted/request_completed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "regions/superblock_run.h"

namespace {

using tucana::regions::Instance;
using tucana::regions::SuperblockRun;
constexpr int kNone = SuperblockRun::kNoneReady;
constexpr int kDone = SuperblockRun::kIterationDone;

void count_wake(void* arg) { ++*static_cast<int*>(arg); }

// The Toucan form: receive (depends on compute*), send (depends on
// compute*), compute (depends on receive and send).
const tucana_dependency kRecvDeps[] = {{2, 1}};
const tucana_dependency kSendDeps[] = {{2, 1}};
const tucana_dependency kComputeDeps[] = {{0, 0}, {1, 0}};
const tucana_region_desc kToucanRegions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 1, kRecvDeps},
    {"send", TUCANA_REGION_SEND, 1, kSendDeps},
    {"compute", TUCANA_REGION_COMPUTE, 2, kComputeDeps},
};
const tucana_superblock_desc kToucan = {"test.c:1", 3, kToucanRegions};

class SuperblockRunTest : public ::testing::Test {
 protected:
  // Runs `region` (pick_ready must have allowed it) posting `requests`
  // pending requests; returns its instance.
  Instance* run_region(SuperblockRun& run, int region, int requests = 0) {
    Instance* in = run.start(region);
    EXPECT_EQ(in->region, region);
    EXPECT_EQ(in->iteration, run.iteration());
    for (int i = 0; i < requests; ++i) SuperblockRun::request_posted(in);
    run.ran(region);
    return in;
  }
  int wakes = 0;
};

TEST_F(SuperblockRunTest, OneRegionRunsOncePerIteration) {
  const tucana_region_desc regions[] = {{"only", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc desc = {"t.c:1", 1, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  for (long j = 0; j < 3; ++j) {
    EXPECT_EQ(run.iteration(), j);
    EXPECT_EQ(run.pick_ready(), 0);
    run_region(run, 0);
    EXPECT_EQ(run.pick_ready(), kDone);  // every region ran: next says -1
    run.next_iteration();
  }
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, ZeroRegionsEndEachIterationAtOnce) {
  const tucana_superblock_desc desc = {"t.c:1", 0, nullptr};
  SuperblockRun run(&desc, &count_wake, &wakes);
  EXPECT_EQ(run.pick_ready(), kDone);
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, ZeroIterationsAreDoneAtOnce) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  EXPECT_TRUE(run.all_done());  // begin then end: nothing to wait for
  EXPECT_EQ(run.live_instances(), 0u);
}

TEST_F(SuperblockRunTest, SameIterationDependencyWaitsForRanAndRequests) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  // First iteration: depends(compute*) names iteration -1: met.
  EXPECT_EQ(run.pick_ready(), 0);
  Instance* recv = run_region(run, 0, /*requests=*/1);
  EXPECT_EQ(run.pick_ready(), 1);  // compute needs send, which has not run
  Instance* send = run_region(run, 1, 1);
  EXPECT_EQ(run.pick_ready(), kNone);  // both ran, requests pending
  SuperblockRun::request_completed(send);
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(run.pick_ready(), kNone);  // the receive is still pending
  SuperblockRun::request_completed(recv);
  EXPECT_EQ(wakes, 2);
  EXPECT_EQ(run.pick_ready(), 2);
  run_region(run, 2);
  EXPECT_EQ(run.pick_ready(), kDone);
}

TEST_F(SuperblockRunTest, RegionWithNoRequestsIsDoneWhenItHasRun) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  run_region(run, 0);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 2);
  EXPECT_EQ(wakes, 0);
}

TEST_F(SuperblockRunTest, PreviousIterationDependencyWaitsForTheRequests) {
  // compute posts a request in iteration 0 (depends(compute*) of receive
  // and send in iteration 1 wait for it).
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  run_region(run, 0);
  run_region(run, 1);
  Instance* compute0 = run_region(run, 2, 1);
  EXPECT_EQ(run.pick_ready(), kDone);  // its request does not hold the iteration's end
  run.next_iteration();
  EXPECT_EQ(run.iteration(), 1);
  EXPECT_EQ(run.pick_ready(), kNone);
  char note[256];
  run.describe_wait(note, sizeof note, false);
  EXPECT_EQ(std::string(note),
            "region receive (iteration 1) waits for region compute of the previous iteration to complete its requests");
  SuperblockRun::request_completed(compute0);
  EXPECT_EQ(run.pick_ready(), 0);
}

TEST_F(SuperblockRunTest, RegionsRunOnlyOncePerIteration) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  run_region(run, 0);
  // receive has run iteration 0: only send may run now, though receive's
  // own dependencies still hold.
  EXPECT_EQ(run.pick_ready(), 1);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 2);
  run_region(run, 2);
  EXPECT_EQ(run.pick_ready(), kDone);
  EXPECT_EQ(run.pick_ready(), kDone);  // until the next iteration starts
  run.next_iteration();
  EXPECT_EQ(run.pick_ready(), 0);
}

TEST_F(SuperblockRunTest, SelfDependencyOnThePreviousIteration) {
  const tucana_dependency self[] = {{0, 1}};
  const tucana_region_desc regions[] = {{"r", TUCANA_REGION_OTHER, 1, self},
                                        {"s", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc desc = {"t.c:1", 2, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  Instance* r0 = run_region(run, 0, 1);
  run_region(run, 1);
  run.next_iteration();
  EXPECT_EQ(run.pick_ready(), 1);  // r waits for its own iteration 0
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), kNone);
  SuperblockRun::request_completed(r0);
  EXPECT_EQ(run.pick_ready(), 0);
}

TEST_F(SuperblockRunTest, EndWaitsForEveryRequest) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  Instance* recv = run_region(run, 0, 2);
  Instance* send = run_region(run, 1);
  (void)send;
  EXPECT_FALSE(run.all_done());
  char note[256];
  run.describe_wait(note, sizeof note, true);
  EXPECT_EQ(std::string(note),
            "the end of the superblock waits for region receive (iteration 0) to complete its requests");
  SuperblockRun::request_completed(recv);
  EXPECT_FALSE(run.all_done());
  EXPECT_EQ(wakes, 0);  // only the last completion of an instance wakes
  SuperblockRun::request_completed(recv);
  EXPECT_EQ(wakes, 1);
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, EndWaitsForRequestsOfEarlierIterations) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  // Iteration 0: send posts a request nobody depends on in the same iteration.
  run_region(run, 0);
  Instance* send0 = run_region(run, 1, 1);
  run_region(run, 2);
  run.next_iteration();
  for (int j = 1; j < 4; ++j) {
    run_region(run, 0);
    run_region(run, 1);
    run_region(run, 2);
    run.next_iteration();
  }
  EXPECT_FALSE(run.all_done());  // the pending instance was not retired
  SuperblockRun::request_completed(send0);
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, DoneInstancesAreRetired) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  for (int j = 0; j < 100; ++j) {
    Instance* a = run_region(run, 0, 1);
    Instance* b = run_region(run, 1, 1);
    SuperblockRun::request_completed(a);
    SuperblockRun::request_completed(b);
    ASSERT_EQ(run.pick_ready(), 2);
    run_region(run, 2);
    run.next_iteration();
    // Iterations j and j-1 at most (what dependencies can name).
    EXPECT_LE(run.live_instances(), 6u);
  }
}

TEST_F(SuperblockRunTest, HighestPriorityReadyRegionFirst) {
  const tucana_region_desc regions[] = {{"a", TUCANA_REGION_OTHER, 0, nullptr},
                                        {"b", TUCANA_REGION_OTHER, 0, nullptr},
                                        {"c", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc desc = {"t.c:1", 3, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  EXPECT_EQ(run.waiting_priority(), 0);
  run.set_priority(2, 7);
  run.set_priority(1, 3);
  EXPECT_EQ(run.priority(2), 7);
  EXPECT_EQ(run.waiting_priority(), 7);
  EXPECT_EQ(run.pick_ready(), 2);
  run_region(run, 2);
  EXPECT_EQ(run.waiting_priority(), 3);
  EXPECT_EQ(run.pick_ready(), 1);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 0);
  run_region(run, 0);
  run.set_priority(-1, -2);  // all regions
  EXPECT_EQ(run.priority(0), -2);
  EXPECT_EQ(run.priority(2), -2);
  run.next_iteration();
  EXPECT_EQ(run.waiting_priority(), -2);
  EXPECT_EQ(run.pick_ready(), 0);  // equal priorities: lowest index
}

TEST_F(SuperblockRunTest, PriorityDoesNotOverrideDependencies) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  run.set_priority(2, 10);
  EXPECT_EQ(run.waiting_priority(), 10);  // compute is waited for
  EXPECT_EQ(run.pick_ready(), 0);         // but it is not ready
}

TEST_F(SuperblockRunTest, DependencyCycleIsDescribed) {
  const tucana_dependency on_b[] = {{1, 0}};
  const tucana_dependency on_a[] = {{0, 0}};
  const tucana_region_desc regions[] = {{"a", TUCANA_REGION_OTHER, 1, on_b}, {"b", TUCANA_REGION_OTHER, 1, on_a}};
  const tucana_superblock_desc desc = {"t.c:1", 2, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  EXPECT_EQ(run.pick_ready(), kNone);
  char note[256];
  run.describe_wait(note, sizeof note, false);
  EXPECT_EQ(std::string(note), "region a (iteration 0) waits for region b, which cannot run (a dependency cycle)");
}

}  // namespace
