// Dependency tracking of one running superblock on one subrank.
//
// Each region runs once per iteration, in iteration order. Region r may run
// iteration j when, for each of its dependencies, the named region's
// instance of iteration j (depends(x)) or j-1 (depends(x*)) is done. An
// instance is done when its code has run and every request it posted has
// completed. Requests complete on any thread; the last completion of an
// instance calls the wake-up hook (the one "became ready" entry point), so
// the owner, which may be suspended waiting for a ready region, runs again.
#pragma once

#include <tucana/superblock.h>

#include <atomic>
#include <deque>
#include <memory>
#include <vector>

namespace tucana::regions {

class SuperblockRun;

// One region's run for one iteration.
struct Instance {
  SuperblockRun* run;
  int region;
  long iteration;
  std::atomic<int> pending{0};  // requests posted and not yet complete
  std::atomic<bool> ran{false};
  bool done() const { return ran.load(std::memory_order_acquire) && pending.load(std::memory_order_acquire) == 0; }
};

class SuperblockRun {
 public:
  // `wake(arg)` is called (from any thread) when an instance becomes done.
  SuperblockRun(const tucana_superblock_desc* desc, void (*wake)(void*), void* wake_arg);
  ~SuperblockRun();
  SuperblockRun(const SuperblockRun&) = delete;
  SuperblockRun& operator=(const SuperblockRun&) = delete;

  static constexpr int kNoneReady = -1;
  static constexpr int kAllFinished = -2;

  // Contract for pick/start/ran/finish: called by the owning subrank only.
  // A region whose next iteration may run now (lowest index first), or
  // kNoneReady, or kAllFinished once every region has finished.
  int pick_ready() const;
  // Starts the next iteration of `region`; requests posted until ran() belong to it.
  Instance* start(int region);
  // The current iteration's code of `region` has run.
  void ran(int region);
  // `region` has no further iteration.
  void finish(int region);
  // True when every instance is done (no request of the superblock pending).
  bool all_done() const;

  // A request was posted by `instance` (owner) / has completed (any thread).
  static void request_posted(Instance* instance);
  static void request_completed(Instance* instance);

  const tucana_superblock_desc& desc() const { return *desc_; }
  long next_iteration(int region) const { return regions_[static_cast<std::size_t>(region)].next; }
  // What the owner waits for when nothing is ready, for reports: the first
  // unfinished region and the dependency that holds it back.
  void describe_wait(char* out, std::size_t size) const;

 private:
  struct RegionState {
    long next = 0;          // next iteration to run
    bool finished = false;
    std::deque<std::unique_ptr<Instance>> window;  // instances not yet retired, by iteration
  };
  bool instance_done(int region, long iteration) const;
  bool deps_met(int region, long iteration, const tucana_dependency** blocking) const;
  void retire();

  const tucana_superblock_desc* desc_;
  std::vector<RegionState> regions_;
  void (*wake_)(void*);
  void* wake_arg_;
};

}  // namespace tucana::regions
