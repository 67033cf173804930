// Dependency tracking of one running superblock on one subrank.
//
// Two modes. Iteration at a time (the loop around the superblock is the
// program's own): in each iteration every region runs once, and the next
// iteration starts when all have run. Lookahead (a canonical loop whose trip
// count is known before it starts, docs/translator.md): each region runs its
// iterations 0..trips-1 in order, as far ahead of the others as its
// dependencies allow. In both, region r may run iteration j when it has run
// j-1 and, for each of its dependencies, the named region's instance of
// iteration j (depends(x)) or j-1 (depends(x*)) is done. An instance is done when its code has run and every
// request it posted has completed. Requests complete on any thread; the last
// completion of an instance calls the wake-up hook, so the owner, which may be
// suspended waiting for a ready region (or for the end), runs again.
#pragma once

#include <tucana/superblock.h>

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace tucana::regions {

class SuperblockRun;
struct Instance;

// Work that a request's completion leaves to the subrank that owns the
// superblock (SuperblockRun::defer): unpacking strided data into the
// program's buffer, which would otherwise run on the completing worker,
// perhaps under the transport lock, one message after another.
struct Deferred {
  Deferred* next_deferred = nullptr;
  void (*deliver)(Deferred* self) = nullptr;  // runs on the owner
  Instance* instance = nullptr;              // counted complete after deliver
};

// One region's run for one iteration.
struct Instance {
  SuperblockRun* run;
  int region;
  long iteration;
  std::atomic<int> pending{0};  // requests posted and not yet complete
  std::atomic<bool> ran{false};
  // With SuperblockRun::track_buffers: the buffers of its requests, and
  // whether one was not a contiguous range (owner only).
  std::vector<std::pair<const char*, const char*>> buffers;
  bool unknown_buffer = false;
  bool done() const { return ran.load(std::memory_order_acquire) && pending.load(std::memory_order_acquire) == 0; }
};

class SuperblockRun {
 public:
  // `wake(arg)` is called (from any thread) when an instance's last request
  // completes. It may come when nobody waits (the owner re-checks).
  // `trips` < 0: iteration at a time; otherwise lookahead over iterations
  // 0..trips-1.
  SuperblockRun(const tucana_superblock_desc* desc, void (*wake)(void*), void* wake_arg, long trips = -1);
  ~SuperblockRun();
  SuperblockRun(const SuperblockRun&) = delete;
  SuperblockRun& operator=(const SuperblockRun&) = delete;

  static constexpr int kNoneReady = -1;
  static constexpr int kIterationDone = -2;  // lookahead: every iteration has run
  // Lookahead: how many iterations the regions may spread over. A region may
  // run iteration j only while j < oldest + kAheadLimit, oldest being the
  // lowest iteration some region has not run yet. Every iteration in that
  // span keeps its instances (and the requests they posted, with their
  // buffers and the transport's state) alive; a region far ahead of a slow
  // one would otherwise pile them up without bound for no gain (the slow one
  // paces the loop anyway).
  static constexpr long kAheadLimit = 4;

  // Contract for every member but request_completed: called by the owning
  // subrank only.

  // A region that may run its next iteration now (the lowest iteration
  // first, then the highest priority, then the lowest index; iteration at a
  // time, every candidate is of the current iteration), or kIterationDone
  // once every region has run in the current iteration (lookahead: in every
  // iteration), or kNoneReady. Contract: no region is running (between
  // start and ran).
  int pick_ready() const;
  // `region` runs its next iteration (next_iteration_of) now: requests
  // posted until ran() belong to the instance returned. Contract:
  // pick_ready() returned it.
  Instance* start(int region);
  // The code of `region`'s running instance has run. Lookahead: retires the
  // instances no dependency can name any more. Contract: the region start()
  // was last called for.
  void ran(int region);
  // Iteration at a time: starts the next iteration and retires the
  // instances no dependency can name any more. Contract: pick_ready() ==
  // kIterationDone, not lookahead.
  void next_iteration();
  // The iteration `region` runs next (iteration at a time: the current one).
  long next_iteration_of(int region) const;
  bool lookahead() const { return trips_ >= 0; }
  // True when every instance is done (no request of the superblock pending).
  bool all_done() const;

  // True when `region`'s instance of `iteration` is done: it has run and
  // its requests have completed (iteration < 0: true, as for depends(x*)
  // in the first iteration).
  bool instance_done(int region, long iteration) const;

  // A request was posted by `instance` (owner) / has completed (any thread).
  // `lo`, `hi`: its buffer, when one contiguous range (else null).
  static void request_posted(Instance* instance, const void* lo = nullptr, const void* hi = nullptr);
  static void request_completed(Instance* instance);
  // Any thread, instead of request_completed: leaves d->deliver to the
  // owner and wakes it; the request counts as complete only once the owner
  // has run it (deliver_deferred). Contract: d->instance's run is live.
  static void defer(Deferred* d);
  // Owner: runs what completions have left, then counts their requests
  // complete. Called before every look at which instances are done.
  void deliver_deferred();

  // Split compute regions (tucana_sb_split_clear): record request buffers.
  void track_buffers() { track_buffers_ = true; }
  // True when none of `n` byte ranges overlaps a buffer that a region
  // `region` depends on with TUCANA_DEP_RAN posted in the current iteration
  // (and every such buffer is known). Contract: `region` is running.
  bool clear_of_buffers(int region, const std::pair<const char*, const char*>* ranges, int n) const;
  // True when every dependency of `region`, TUCANA_DEP_RAN ones counted as
  // plain ones, is done. Contract: `region` is running.
  bool deps_done(int region) const;

  // Scheduling priorities of the regions (default 0); `region` -1: all.
  void set_priority(int region, int priority);
  int priority(int region) const { return regions_[static_cast<std::size_t>(region)].priority; }
  // The highest priority among the regions that have iterations left to run
  // (iteration at a time: in the current iteration), what the owner waits to
  // run; 0 when every region has run.
  int waiting_priority() const;

  const tucana_superblock_desc& desc() const { return *desc_; }
  // Iteration at a time: the current iteration.
  long iteration() const { return iteration_; }
  // The region running now (between start and ran), or -1.
  int running() const { return running_; }
  // Instances not yet retired (done and out of reach of every dependency
  // are retired at each iteration start), for tests.
  std::size_t live_instances() const;
  // What the owner waits for, for reports: in pick_ready's kNoneReady case a
  // region not yet run, its iteration and the dependency that holds it back;
  // at the end (`at_end`), a region whose requests are pending.
  void describe_wait(char* out, std::size_t size, bool at_end) const;

 private:
  struct RegionState {
    long last_ran = -1;  // the last iteration that has run
    int priority = 0;
    std::deque<std::unique_ptr<Instance>> window;  // instances not yet retired, by iteration
  };
  const Instance* find(int region, long iteration) const;
  // `ran_is_enough`: a TUCANA_DEP_RAN dependency is met once its region ran
  // (else, for deps_done, once it is done).
  bool deps_met(int region, long iteration, const tucana_dependency** blocking, bool ran_is_enough = true) const;
  // Whether `region` has an iteration left to run that the mode allows now
  // (lookahead: within kAheadLimit of the oldest), deps aside.
  bool may_run(int region) const;
  // Lookahead: the lowest iteration some region has not run yet.
  long oldest_unrun() const;
  void retire(long before);

  const tucana_superblock_desc* desc_;
  std::vector<RegionState> regions_;
  long trips_;  // lookahead: the loop's trip count; < 0: iteration at a time
  long iteration_ = 0;
  int ran_in_iteration_ = 0;
  int running_ = -1;
  bool track_buffers_ = false;
  void (*wake_)(void*);
  void* wake_arg_;
  std::atomic<Deferred*> deferred_{nullptr};  // a stack, pushed by defer()
};

}  // namespace tucana::regions
