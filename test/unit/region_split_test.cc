// Unit tests of the runtime side of interior/boundary splitting
// (tucana/superblock.h, docs/translator.md "Splitting a compute region"):
// the boxes of a split nest (tucana_split_boxes) partition the nest's box,
// a TUCANA_DEP_RAN dependency needs only the region's code to have run,
// deps_done waits for all of it, and the buffers of the requests that the
// interior overlaps are checked against its spans.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "regions/superblock_run.h"

namespace {

using tucana::regions::Instance;
using tucana::regions::SuperblockRun;

// Every point of `box` (n loops) in exactly one of the boxes 0 .. k-1, box
// k the whole box; box 0 (the interior) is the box less the halos.
void expect_partition(int n, const std::vector<long long>& box, const std::vector<int>& halo) {
  std::vector<long long> boxes(static_cast<std::size_t>((2 * n + 2) * 2 * n), -99);
  int k = tucana_split_boxes(n, box.data(), halo.data(), boxes.data());
  bool empty_interior = false;
  for (int d = 0; d < n; ++d) empty_interior |= box[2 * d] + halo[2 * d] >= box[2 * d + 1] - halo[2 * d + 1];
  if (empty_interior) {
    EXPECT_EQ(k, 0);
    for (int e = 0; e < 2 * n; ++e) EXPECT_EQ(boxes[e], box[e]);
    return;
  }
  ASSERT_GE(k, 1);
  ASSERT_LE(k, 2 * n + 1);
  for (int d = 0; d < n; ++d) {
    EXPECT_EQ(boxes[2 * d], box[2 * d] + halo[2 * d]);
    EXPECT_EQ(boxes[2 * d + 1], box[2 * d + 1] - halo[2 * d + 1]);
  }
  for (int e = 0; e < 2 * n; ++e) EXPECT_EQ(boxes[2 * n * k + e], box[e]);
  // Count how often each point is covered (n <= 3 here).
  std::vector<long long> point(3, 0);
  long long covered = 0, points = 1;
  for (int d = 0; d < n; ++d) points *= box[2 * d + 1] - box[2 * d];
  for (int b = 0; b < k; ++b) {
    const long long* bb = &boxes[static_cast<std::size_t>(2 * n * b)];
    long long size = 1;
    for (int d = 0; d < n; ++d) {
      EXPECT_LT(bb[2 * d], bb[2 * d + 1]) << "box " << b << " is empty in loop " << d;
      EXPECT_GE(bb[2 * d], box[2 * d]);
      EXPECT_LE(bb[2 * d + 1], box[2 * d + 1]);
      size *= bb[2 * d + 1] - bb[2 * d];
    }
    covered += size;
  }
  EXPECT_EQ(covered, points);  // with the inclusion checks below: a partition
  std::set<std::vector<long long>> seen;
  std::vector<long long> p(static_cast<std::size_t>(n));
  for (int b = 0; b < k; ++b) {
    const long long* bb = &boxes[static_cast<std::size_t>(2 * n * b)];
    std::function<void(int)> walk = [&](int d) {
      if (d == n) {
        EXPECT_TRUE(seen.insert(p).second) << "a point is in two boxes";
        return;
      }
      for (p[static_cast<std::size_t>(d)] = bb[2 * d]; p[static_cast<std::size_t>(d)] < bb[2 * d + 1];
           ++p[static_cast<std::size_t>(d)])
        walk(d + 1);
    };
    walk(0);
  }
  EXPECT_EQ(static_cast<long long>(seen.size()), points);
}

TEST(SplitBoxes, TwoLoopsWithHaloInTheFirstOnly) {
  // rows 1..8 with a halo of 1, columns 1..6 with none: interior rows 2..7,
  // boundary row 1 and row 8 (whole rows).
  long long box[] = {1, 9, 1, 7};
  int halo[] = {1, 1, 0, 0};
  long long boxes[(2 * 2 + 2) * 4];
  int k = tucana_split_boxes(2, box, halo, boxes);
  ASSERT_EQ(k, 3);
  EXPECT_EQ(std::vector<long long>(boxes, boxes + 4), (std::vector<long long>{2, 8, 1, 7}));
  EXPECT_EQ(std::vector<long long>(boxes + 4, boxes + 8), (std::vector<long long>{1, 2, 1, 7}));
  EXPECT_EQ(std::vector<long long>(boxes + 8, boxes + 12), (std::vector<long long>{8, 9, 1, 7}));
  EXPECT_EQ(std::vector<long long>(boxes + 12, boxes + 16), (std::vector<long long>{1, 9, 1, 7}));
}

TEST(SplitBoxes, EveryShapePartitionsTheBox) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    int n = 1 + static_cast<int>(rng() % 3);
    std::vector<long long> box;
    std::vector<int> halo;
    for (int d = 0; d < n; ++d) {
      long long lo = static_cast<long long>(rng() % 5) - 2, len = 1 + static_cast<long long>(rng() % 7);
      box.push_back(lo);
      box.push_back(lo + len);
      halo.push_back(static_cast<int>(rng() % 3));
      halo.push_back(static_cast<int>(rng() % 3));
    }
    expect_partition(n, box, halo);
  }
}

// receive, send, and a split compute region that needs only their code.
const tucana_dependency kRecvDeps[] = {{2, TUCANA_DEP_PREVIOUS}};
const tucana_dependency kSendDeps[] = {{2, TUCANA_DEP_PREVIOUS}};
const tucana_dependency kComputeDeps[] = {{0, TUCANA_DEP_RAN}, {1, TUCANA_DEP_RAN}};
const tucana_region_desc kRegions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 1, kRecvDeps},
    {"send", TUCANA_REGION_SEND, 1, kSendDeps},
    {"compute", TUCANA_REGION_COMPUTE, 2, kComputeDeps},
};
const tucana_superblock_desc kDesc = {"split.c:1", 3, kRegions};

void no_wake(void*) {}

TEST(SplitDependencies, RanDependencyNeedsOnlyTheCode) {
  SuperblockRun run(&kDesc, &no_wake, nullptr);
  run.track_buffers();
  // One block: [0, 64) receive, [64, 128) send, [192, 256) the interior's.
  static char mem[256];
  char *recv_buf = mem, *send_buf = mem + 64, *other = mem + 192;
  EXPECT_EQ(run.pick_ready(), 0);
  Instance* r = run.start(0);
  SuperblockRun::request_posted(r, recv_buf, recv_buf + 64);
  run.ran(0);
  EXPECT_EQ(run.pick_ready(), 1);  // compute still needs send's code
  Instance* s = run.start(1);
  SuperblockRun::request_posted(s, send_buf, send_buf + 64);
  run.ran(1);
  // Both requests are in flight: compute may start, but not all is done.
  ASSERT_EQ(run.pick_ready(), 2);
  run.start(2);
  EXPECT_FALSE(run.deps_done(2));
  // Spans that meet a request's buffer are not clear; others are.
  std::pair<const char*, const char*> mine{other, other + 64};
  EXPECT_TRUE(run.clear_of_buffers(2, &mine, 1));
  std::pair<const char*, const char*> into_recv{recv_buf + 63, recv_buf + 64};
  EXPECT_FALSE(run.clear_of_buffers(2, &into_recv, 1));
  std::pair<const char*, const char*> into_send{send_buf, send_buf + 1};
  EXPECT_FALSE(run.clear_of_buffers(2, &into_send, 1));
  std::pair<const char*, const char*> between{mem + 128, mem + 192};  // touches both ends, meets neither
  EXPECT_TRUE(run.clear_of_buffers(2, &between, 1));
  SuperblockRun::request_completed(r);
  EXPECT_FALSE(run.deps_done(2));
  SuperblockRun::request_completed(s);
  EXPECT_TRUE(run.deps_done(2));
  // A completed receive's buffer still counts (the data is read later).
  EXPECT_FALSE(run.clear_of_buffers(2, &into_recv, 1));
  run.ran(2);
  EXPECT_EQ(run.pick_ready(), SuperblockRun::kIterationDone);
}

TEST(SplitDependencies, AnUnknownBufferIsNeverClear) {
  SuperblockRun run(&kDesc, &no_wake, nullptr);
  run.track_buffers();
  char other[8];
  Instance* r = run.start(0);
  SuperblockRun::request_posted(r);  // e.g. a non-contiguous datatype, or a task
  run.ran(0);
  run.start(1);
  run.ran(1);
  run.start(2);
  std::pair<const char*, const char*> mine{other, other + 8};
  EXPECT_FALSE(run.clear_of_buffers(2, &mine, 1));
  SuperblockRun::request_completed(r);
  run.ran(2);
}

}  // namespace
