// Unit tests of the superblock region tracker (runtime/src/regions): the
// iteration-at-a-time logic behind tucana_sb_next/ran/end: readiness (a
// region runs only when the instances it depends on have run and their
// requests completed), how far requests may lag behind the iterations,
// retirement, priorities, the wait descriptions, completions on other
// threads, and nested superblocks (one run per superblock); then the
// lookahead mode (a canonical loop's regions running ahead of each other).
// Requests are simulated with request_posted/request_completed.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
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
    long iteration = run.next_iteration_of(region);
    Instance* in = run.start(region);
    EXPECT_EQ(in->region, region);
    EXPECT_EQ(in->iteration, iteration);
    if (!run.lookahead()) {
      EXPECT_EQ(iteration, run.iteration());
    }
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

// ------------------------------------------------------------ readiness --

// A region with two dependencies (one on this iteration, one on the
// previous) is ready only when both instances are done; each of
// "not run", "run with requests pending" holds it back.
TEST_F(SuperblockRunTest, ReadyOnlyWhenEveryDependencyIsDone) {
  // a; b; c depends(a, b*)
  const tucana_dependency c_deps[] = {{0, 0}, {1, 1}};
  const tucana_region_desc regions[] = {{"a", TUCANA_REGION_RECEIVE, 0, nullptr},
                                        {"b", TUCANA_REGION_SEND, 0, nullptr},
                                        {"c", TUCANA_REGION_COMPUTE, 2, c_deps}};
  const tucana_superblock_desc desc = {"t.c:1", 3, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  run.set_priority(2, 5);  // c first whenever it is ready
  // Iteration 0: b* names iteration -1; a has not run.
  EXPECT_EQ(run.pick_ready(), 0);
  Instance* a0 = run_region(run, 0, 1);
  EXPECT_EQ(run.pick_ready(), 1);  // c: a's request is pending
  SuperblockRun::request_completed(a0);
  EXPECT_EQ(run.pick_ready(), 2);
  run_region(run, 2);
  Instance* b0 = run_region(run, 1, 2);
  EXPECT_EQ(run.pick_ready(), kDone);
  run.next_iteration();
  // Iteration 1: a done this iteration, but b of iteration 0 still pending.
  run_region(run, 0);
  EXPECT_EQ(run.pick_ready(), 1);
  SuperblockRun::request_completed(b0);
  EXPECT_EQ(run.pick_ready(), 1);  // one of b0's two requests left
  SuperblockRun::request_completed(b0);
  EXPECT_EQ(run.pick_ready(), 2);
  EXPECT_EQ(wakes, 2);  // a0's last completion and b0's
}

// A chain a -> b -> c in one iteration: each waits for its predecessor's
// requests, and the wait is described by the dependency that holds it.
TEST_F(SuperblockRunTest, ChainRunsInDependencyOrder) {
  // Listed backwards, so that the lowest index is never the answer by itself.
  const tucana_dependency on_b[] = {{1, 0}};
  const tucana_dependency on_a[] = {{2, 0}};
  const tucana_region_desc chain[] = {{"c", TUCANA_REGION_OTHER, 1, on_b},
                                      {"b", TUCANA_REGION_OTHER, 1, on_a},
                                      {"a", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc desc = {"t.c:1", 3, chain};
  SuperblockRun run(&desc, &count_wake, &wakes);
  for (long j = 0; j < 3; ++j) {
    EXPECT_EQ(run.pick_ready(), 2);  // a
    Instance* a = run_region(run, 2, 1);
    EXPECT_EQ(run.pick_ready(), kNone);
    char note[256];
    run.describe_wait(note, sizeof note, false);
    EXPECT_EQ(std::string(note), "region b (iteration " + std::to_string(j) +
                                     ") waits for region a to complete its requests");
    SuperblockRun::request_completed(a);
    EXPECT_EQ(run.pick_ready(), 1);  // b
    Instance* b = run_region(run, 1, 1);
    EXPECT_EQ(run.pick_ready(), kNone);
    SuperblockRun::request_completed(b);
    EXPECT_EQ(run.pick_ready(), 0);  // c
    run_region(run, 0);
    EXPECT_EQ(run.pick_ready(), kDone);
    run.next_iteration();
  }
}

// ------------------------------------------------------- iteration skew --

// Iterations advance when every region has run, not when their requests
// completed: requests nobody depends on may stay pending for any number of
// iterations (an MPI_Isend never waited for inside the loop), and only the
// end of the superblock waits for them.
TEST_F(SuperblockRunTest, UnwatchedRequestsMayLagAnyNumberOfIterations) {
  // receive depends(compute*); compute depends(receive); send depends(compute),
  // and nothing depends on send.
  const tucana_dependency recv_deps[] = {{1, 1}};
  const tucana_dependency compute_deps[] = {{0, 0}};
  const tucana_dependency send_deps[] = {{1, 0}};
  const tucana_region_desc regions[] = {{"receive", TUCANA_REGION_RECEIVE, 1, recv_deps},
                                        {"compute", TUCANA_REGION_COMPUTE, 1, compute_deps},
                                        {"send", TUCANA_REGION_SEND, 1, send_deps}};
  const tucana_superblock_desc desc = {"t.c:1", 3, regions};
  SuperblockRun run(&desc, &count_wake, &wakes);
  std::vector<Instance*> sends;
  for (long j = 0; j < 10; ++j) {
    Instance* recv = run_region(run, 0, 1);
    SuperblockRun::request_completed(recv);
    ASSERT_EQ(run.pick_ready(), 1) << "iteration " << j;
    run_region(run, 1);
    ASSERT_EQ(run.pick_ready(), 2);
    sends.push_back(run_region(run, 2, 1));  // the send's request: nobody waits
    ASSERT_EQ(run.pick_ready(), kDone);
    run.next_iteration();
  }
  EXPECT_EQ(run.iteration(), 10);
  EXPECT_FALSE(run.all_done());
  EXPECT_GE(run.live_instances(), 10u);  // the pending sends are kept
  for (Instance* s : sends) SuperblockRun::request_completed(s);
  EXPECT_TRUE(run.all_done());
}

// depends(x*) bounds the lag to one iteration: x's requests of iteration j
// hold back its dependents in iteration j+1, so the superblock cannot
// reach iteration j+2 before they complete.
TEST_F(SuperblockRunTest, PreviousIterationDependencyBoundsTheLagToOneIteration) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  run_region(run, 0);
  run_region(run, 1);
  Instance* compute0 = run_region(run, 2, 3);
  ASSERT_EQ(run.pick_ready(), kDone);
  run.next_iteration();
  // Iteration 1: receive and send depend on compute*: nothing can run, so
  // the iteration cannot end.
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(run.pick_ready(), kNone);
    EXPECT_EQ(run.waiting_priority(), 0);
    SuperblockRun::request_completed(compute0);
  }
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(run.pick_ready(), 0);
  run_region(run, 0);
  run_region(run, 1);
  run_region(run, 2);
  EXPECT_EQ(run.pick_ready(), kDone);
}

// A same-iteration dependency allows no lag at all: compute of iteration j
// runs after receive's requests of iteration j completed.
TEST_F(SuperblockRunTest, SameIterationDependencyAllowsNoLag) {
  SuperblockRun run(&kToucan, &count_wake, &wakes);
  for (long j = 0; j < 5; ++j) {
    Instance* recv = run_region(run, 0, 1);
    run_region(run, 1);
    EXPECT_EQ(run.pick_ready(), kNone) << "iteration " << j;
    char note[256];
    run.describe_wait(note, sizeof note, false);
    EXPECT_EQ(std::string(note), "region compute (iteration " + std::to_string(j) +
                                     ") waits for region receive to complete its requests");
    SuperblockRun::request_completed(recv);
    EXPECT_EQ(run.pick_ready(), 2);
    run_region(run, 2);
    run.next_iteration();
  }
  EXPECT_TRUE(run.all_done());
}

// ------------------------------------------------------------- threads --

std::atomic<int> g_thread_wakes{0};
void count_wake_atomic(void*) { g_thread_wakes.fetch_add(1); }

// Requests complete on other threads while the owner polls pick_ready: the
// dependent region becomes ready exactly when the last one completed, and
// each instance wakes the owner once (at its last completion).
TEST_F(SuperblockRunTest, CompletionsOnOtherThreadsMakeRegionsReady) {
  constexpr int kIterations = 200, kRequests = 8;
  g_thread_wakes.store(0);
  SuperblockRun run(&kToucan, &count_wake_atomic, nullptr);
  std::atomic<int> completed{0};
  for (int j = 0; j < kIterations; ++j) {
    Instance* recv = run_region(run, 0, kRequests);
    run_region(run, 1);
    completed.store(0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < kRequests / 2; ++i) {
          completed.fetch_add(1);
          SuperblockRun::request_completed(recv);
        }
      });
    }
    int r;
    while ((r = run.pick_ready()) == kNone) std::this_thread::yield();
    EXPECT_EQ(r, 2);
    EXPECT_EQ(completed.load(), kRequests) << "compute was ready before every request completed";
    for (auto& t : threads) t.join();
    run_region(run, 2);
    run.next_iteration();
  }
  EXPECT_EQ(g_thread_wakes.load(), kIterations);
  EXPECT_TRUE(run.all_done());
}

// -------------------------------------------------------------- nesting --

// A superblock begun inside a region of another (through a call) has a run
// of its own: it runs to its end while the outer region is running, its
// requests do not hold the outer regions back, and each run's completions
// wake its own owner record.
TEST_F(SuperblockRunTest, NestedSuperblocksAreIndependentRuns) {
  int outer_wakes = 0, inner_wakes = 0;
  SuperblockRun outer(&kToucan, &count_wake, &outer_wakes);
  Instance* outer_recv = outer.start(0);
  SuperblockRun::request_posted(outer_recv);  // a request of the outer region
  EXPECT_EQ(outer.running(), 0);
  {
    SuperblockRun inner(&kToucan, &count_wake, &inner_wakes);
    Instance* r = run_region(inner, 0, 1);
    run_region(inner, 1);
    EXPECT_EQ(inner.pick_ready(), kNone);  // the inner compute waits for the inner receive only
    SuperblockRun::request_completed(r);
    EXPECT_EQ(inner_wakes, 1);
    EXPECT_EQ(outer_wakes, 0);
    EXPECT_EQ(inner.pick_ready(), 2);
    run_region(inner, 2);
    EXPECT_EQ(inner.pick_ready(), kDone);
    EXPECT_TRUE(inner.all_done());  // the end of the inner superblock
    EXPECT_FALSE(outer.all_done());
  }
  EXPECT_EQ(outer.running(), 0);  // untouched by the inner run
  outer.ran(0);
  run_region(outer, 1);
  EXPECT_EQ(outer.pick_ready(), kNone);
  SuperblockRun::request_completed(outer_recv);
  EXPECT_EQ(outer_wakes, 1);
  EXPECT_EQ(inner_wakes, 1);
  EXPECT_EQ(outer.pick_ready(), 2);
}

// ------------------------------------------------------------- lookahead

// send (no dependency) and compute (depends(send)): send may run ahead of
// compute while compute waits for send's requests.
const tucana_dependency kAfterSend[] = {{0, 0}};
const tucana_region_desc kSendComputeRegions[] = {
    {"send", TUCANA_REGION_SEND, 0, nullptr},
    {"compute", TUCANA_REGION_COMPUTE, 1, kAfterSend},
};
const tucana_superblock_desc kSendCompute = {"ahead.c:1", 2, kSendComputeRegions};

TEST_F(SuperblockRunTest, LookaheadWithNoTripsIsDoneAtOnce) {
  SuperblockRun run(&kSendCompute, &count_wake, &wakes, 0);
  EXPECT_TRUE(run.lookahead());
  EXPECT_EQ(run.pick_ready(), kDone);
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, LookaheadRunsEachRegionThroughEveryIterationInOrder) {
  SuperblockRun run(&kToucan, &count_wake, &wakes, 3);
  std::vector<std::pair<int, long>> order;
  for (int r; (r = run.pick_ready()) >= 0;) {
    order.push_back({r, run.next_iteration_of(r)});
    run_region(run, r);
  }
  EXPECT_EQ(run.pick_ready(), kDone);
  // The Toucan graph orders the iterations (receive and send of j+1 after
  // compute of j): the same order as iteration at a time.
  std::vector<std::pair<int, long>> expected = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1},
                                                {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  EXPECT_EQ(order, expected);
  EXPECT_TRUE(run.all_done());
}

TEST_F(SuperblockRunTest, LookaheadLetsARegionRunAheadUpToTheLimit) {
  SuperblockRun run(&kSendCompute, &count_wake, &wakes, 100);
  std::vector<Instance*> sends;
  // compute of iteration 0 waits for send 0's request: send runs ahead.
  for (long j = 0; j < SuperblockRun::kAheadLimit; ++j) {
    ASSERT_EQ(run.pick_ready(), 0);
    EXPECT_EQ(run.next_iteration_of(0), j);
    sends.push_back(run_region(run, 0, 1));
  }
  // send is kAheadLimit iterations ahead of compute: it waits.
  EXPECT_EQ(run.pick_ready(), kNone);
  char note[256];
  run.describe_wait(note, sizeof note, false);
  EXPECT_EQ(std::string(note), "region compute (iteration 0) waits for region send (iteration 0) to complete its requests");
  SuperblockRun::request_completed(sends[0]);
  EXPECT_EQ(run.pick_ready(), 1);  // compute 0 is ready, send 4 is not yet
  EXPECT_EQ(run.next_iteration_of(1), 0);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 0);  // compute 1 waits; send 4 is within the limit now
  EXPECT_EQ(run.next_iteration_of(0), SuperblockRun::kAheadLimit);
}

TEST_F(SuperblockRunTest, LookaheadPicksTheLowestIterationBeforeThePriority) {
  SuperblockRun run(&kSendCompute, &count_wake, &wakes, 10);
  run.set_priority(0, 5);  // send outranks compute
  run_region(run, 0);      // send 0, no requests
  // Ready: compute 0 and send 1; compute 0 is of the lower iteration.
  EXPECT_EQ(run.pick_ready(), 1);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 0);
  // Same iteration: the priority, then the index.
  const tucana_region_desc free_regions[] = {{"a", TUCANA_REGION_OTHER, 0, nullptr},
                                             {"b", TUCANA_REGION_OTHER, 0, nullptr},
                                             {"c", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc free_desc = {"t.c:5", 3, free_regions};
  SuperblockRun even(&free_desc, &count_wake, &wakes, 10);
  even.set_priority(2, 5);
  EXPECT_EQ(even.pick_ready(), 2);  // c 0: the highest priority
  run_region(even, 2);
  EXPECT_EQ(even.pick_ready(), 0);  // a 0 before b 0 and c 1
}

TEST_F(SuperblockRunTest, LookaheadPreviousIterationDependencyNamesTheIterationBefore) {
  // a (depends(b*)) and b (no dependency): a of j waits for b of j-1.
  const tucana_dependency a_deps[] = {{1, 1}};
  const tucana_region_desc regions[] = {{"a", TUCANA_REGION_OTHER, 1, a_deps}, {"b", TUCANA_REGION_OTHER, 0, nullptr}};
  const tucana_superblock_desc desc = {"t.c:9", 2, regions};
  SuperblockRun run(&desc, &count_wake, &wakes, 10);
  run_region(run, 0);  // a 0: b of -1 is met
  EXPECT_EQ(run.pick_ready(), 1);
  Instance* b0 = run_region(run, 1, 1);
  // a 1 waits for b 0's request; b 1 may run meanwhile.
  EXPECT_EQ(run.pick_ready(), 1);
  EXPECT_EQ(run.next_iteration_of(1), 1);
  run_region(run, 1);
  EXPECT_EQ(run.pick_ready(), 1);  // b 2: a 1 still waits for b 0
  EXPECT_EQ(run.next_iteration_of(1), 2);
  SuperblockRun::request_completed(b0);
  EXPECT_EQ(run.pick_ready(), 0);  // a 1, of the lower iteration
  EXPECT_EQ(run.next_iteration_of(0), 1);
}

TEST_F(SuperblockRunTest, LookaheadRetiresInstancesAndTheEndWaitsForRequests) {
  SuperblockRun run(&kSendCompute, &count_wake, &wakes, 50);
  Instance* last = nullptr;
  for (int r; (r = run.pick_ready()) >= 0;) {
    last = run_region(run, r, run.next_iteration_of(r) == 49 && r == 1 ? 1 : 0);
    EXPECT_LE(run.live_instances(), 2u * (SuperblockRun::kAheadLimit + 1));
  }
  EXPECT_EQ(run.pick_ready(), kDone);
  EXPECT_LE(run.live_instances(), 4u);  // iterations 48 and 49 may still be named
  EXPECT_FALSE(run.all_done());          // compute 49's request
  char note[256];
  run.describe_wait(note, sizeof note, true);
  EXPECT_EQ(std::string(note), "the end of the superblock waits for region compute (iteration 49) to complete its requests");
  SuperblockRun::request_completed(last);
  EXPECT_TRUE(run.all_done());
}

}  // namespace
