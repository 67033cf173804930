#include "regions/superblock_run.h"

#include <cassert>
#include <cstdio>

namespace tucana::regions {

SuperblockRun::SuperblockRun(const tucana_superblock_desc* desc, void (*wake)(void*), void* wake_arg, long trips)
    : desc_(desc), regions_(static_cast<std::size_t>(desc->nregions)), trips_(trips), wake_(wake), wake_arg_(wake_arg) {}

SuperblockRun::~SuperblockRun() = default;

const Instance* SuperblockRun::find(int region, long iteration) const {
  const RegionState& s = regions_[static_cast<std::size_t>(region)];
  if (s.window.empty() || iteration < s.window.front()->iteration || iteration > s.window.back()->iteration)
    return nullptr;
  // A region's instances are consecutive iterations (one per iteration).
  return s.window[static_cast<std::size_t>(iteration - s.window.front()->iteration)].get();
}

bool SuperblockRun::instance_done(int region, long iteration) const {
  if (iteration < 0) return true;  // depends(x*) in the first iteration
  const RegionState& s = regions_[static_cast<std::size_t>(region)];
  if (iteration > s.last_ran) return false;  // not run yet
  const Instance* in = find(region, iteration);
  return !in || in->done();  // retired instances were done
}

bool SuperblockRun::deps_met(int region, long iteration, const tucana_dependency** blocking,
                             bool ran_is_enough) const {
  const tucana_region_desc& r = desc_->regions[region];
  for (int k = 0; k < r.ndeps; ++k) {
    const tucana_dependency& d = r.deps[k];
    if (d.previous == TUCANA_DEP_RAN && ran_is_enough) {
      if (regions_[static_cast<std::size_t>(d.region)].last_ran >= iteration) continue;
      if (blocking) *blocking = &d;
      return false;
    }
    if (!instance_done(d.region, iteration - (d.previous == TUCANA_DEP_PREVIOUS ? 1 : 0))) {
      if (blocking) *blocking = &d;
      return false;
    }
  }
  return true;
}

long SuperblockRun::next_iteration_of(int region) const {
  return lookahead() ? regions_[static_cast<std::size_t>(region)].last_ran + 1 : iteration_;
}

long SuperblockRun::oldest_unrun() const {
  long oldest = trips_;
  for (const RegionState& s : regions_)
    if (s.last_ran + 1 < oldest) oldest = s.last_ran + 1;
  return oldest;
}

bool SuperblockRun::may_run(int region) const {
  const RegionState& s = regions_[static_cast<std::size_t>(region)];
  if (!lookahead()) return s.last_ran != iteration_;
  long next = s.last_ran + 1;
  return next < trips_ && next < oldest_unrun() + kAheadLimit;
}

int SuperblockRun::pick_ready() const {
  assert(running_ < 0);
  if (lookahead() ? oldest_unrun() >= trips_ : ran_in_iteration_ == desc_->nregions) return kIterationDone;
  int best = kNoneReady;
  long best_iteration = 0;
  for (int r = 0; r < desc_->nregions; ++r) {
    if (!may_run(r)) continue;
    long j = next_iteration_of(r);
    bool better = best < 0 || j < best_iteration ||
                  (j == best_iteration && regions_[static_cast<std::size_t>(r)].priority >
                                              regions_[static_cast<std::size_t>(best)].priority);
    if (better && deps_met(r, j, nullptr)) best = r, best_iteration = j;
  }
  return best;
}

Instance* SuperblockRun::start(int region) {
  assert(running_ < 0 && may_run(region));
  RegionState& s = regions_[static_cast<std::size_t>(region)];
  auto in = std::make_unique<Instance>();
  in->run = this;
  in->region = region;
  in->iteration = next_iteration_of(region);
  Instance* raw = in.get();
  s.window.push_back(std::move(in));
  running_ = region;
  return raw;
}

void SuperblockRun::ran(int region) {
  assert(running_ == region);
  RegionState& s = regions_[static_cast<std::size_t>(region)];
  s.window.back()->ran.store(true, std::memory_order_release);
  s.last_ran = s.window.back()->iteration;
  ++ran_in_iteration_;
  running_ = -1;
  // Lookahead: every region will next run an iteration >= oldest, whose
  // dependencies name iterations >= oldest - 1.
  if (lookahead()) retire(oldest_unrun() - 1);
}

void SuperblockRun::retire(long before) {
  for (RegionState& s : regions_)
    while (!s.window.empty() && s.window.front()->iteration < before && s.window.front()->done())
      s.window.pop_front();
}

// Dependencies name iterations j and j-1 only: at the start of iteration j,
// done instances of iterations before j-1 are out of reach.
void SuperblockRun::next_iteration() {
  assert(running_ < 0 && !lookahead() && ran_in_iteration_ == desc_->nregions);
  ++iteration_;
  ran_in_iteration_ = 0;
  retire(iteration_ - 1);
}

bool SuperblockRun::all_done() const {
  for (const RegionState& s : regions_)
    for (const auto& in : s.window)
      if (!in->done()) return false;
  return true;
}

std::size_t SuperblockRun::live_instances() const {
  std::size_t n = 0;
  for (const RegionState& s : regions_) n += s.window.size();
  return n;
}

void SuperblockRun::set_priority(int region, int priority) {
  if (region < 0) {
    for (RegionState& s : regions_) s.priority = priority;
  } else {
    regions_[static_cast<std::size_t>(region)].priority = priority;
  }
}

int SuperblockRun::waiting_priority() const {
  bool any = false;
  int best = 0;
  for (const RegionState& s : regions_) {
    if (lookahead() ? s.last_ran + 1 >= trips_ : s.last_ran == iteration_) continue;
    if (!any || s.priority > best) best = s.priority;
    any = true;
  }
  return best;
}

void SuperblockRun::request_posted(Instance* instance, const void* lo, const void* hi) {
  instance->pending.fetch_add(1, std::memory_order_relaxed);
  if (!instance->run->track_buffers_) return;
  if (lo)
    instance->buffers.emplace_back(static_cast<const char*>(lo), static_cast<const char*>(hi));
  else
    instance->unknown_buffer = true;
}

// The running region's instance is the newest of its window (start()).
bool SuperblockRun::deps_done(int region) const {
  assert(running_ == region);
  return deps_met(region, regions_[static_cast<std::size_t>(region)].window.back()->iteration, nullptr, false);
}

bool SuperblockRun::clear_of_buffers(int region, const std::pair<const char*, const char*>* ranges, int n) const {
  assert(track_buffers_ && running_ == region);
  const tucana_region_desc& r = desc_->regions[region];
  for (int k = 0; k < r.ndeps; ++k) {
    if (r.deps[k].previous != TUCANA_DEP_RAN) continue;
    const Instance* in = find(r.deps[k].region, regions_[static_cast<std::size_t>(region)].window.back()->iteration);
    if (!in) continue;  // posted nothing this iteration (retired only when done and old)
    if (in->unknown_buffer) return false;
    for (const auto& [lo, hi] : in->buffers)
      for (int i = 0; i < n; ++i)
        if (ranges[i].first < hi && lo < ranges[i].second) return false;
  }
  return true;
}

void SuperblockRun::request_completed(Instance* instance) {
  SuperblockRun* run = instance->run;
  void (*wake)(void*) = run->wake_;
  void* arg = run->wake_arg_;
  // After this decrement the owner may see the instance done and free it
  // (and the whole run): touch nothing of them afterwards.
  if (instance->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) wake(arg);
}

void SuperblockRun::defer(Deferred* d) {
  SuperblockRun* run = d->instance->run;
  // Read before the push: once the owner has delivered it, the run may go.
  void (*wake)(void*) = run->wake_;
  void* arg = run->wake_arg_;
  Deferred* head = run->deferred_.load(std::memory_order_relaxed);
  do d->next_deferred = head;
  while (!run->deferred_.compare_exchange_weak(head, d, std::memory_order_release, std::memory_order_relaxed));
  wake(arg);
}

void SuperblockRun::deliver_deferred() {
  if (!deferred_.load(std::memory_order_relaxed)) return;
  Deferred* d = deferred_.exchange(nullptr, std::memory_order_acquire);
  while (d) {
    Deferred* next = d->next_deferred;
    Instance* in = d->instance;
    d->deliver(d);  // (may free d)
    request_completed(in);
    d = next;
  }
}

void SuperblockRun::describe_wait(char* out, std::size_t size, bool at_end) const {
  const tucana_region_desc* regions = desc_->regions;
  if (!at_end) {
    // Prefer a dependency that has run and waits for its requests; a region
    // held back only by regions that cannot run is a dependency cycle.
    // (Lookahead: a region held back by kAheadLimit waits for the oldest
    // iteration, which a region below is held in: that one is described.)
    int cycle_region = -1;
    const tucana_dependency* cycle_dep = nullptr;
    for (int r = 0; r < desc_->nregions; ++r) {
      if (!may_run(r)) continue;
      const tucana_region_desc& rd = regions[r];
      long j = next_iteration_of(r);
      for (int k = 0; k < rd.ndeps; ++k) {
        const tucana_dependency& d = rd.deps[k];
        long it = j - (d.previous == TUCANA_DEP_PREVIOUS ? 1 : 0);
        // (The running region waits in tucana_sb_await_deps for all of it.)
        if (d.previous == TUCANA_DEP_RAN && r != running_ ? regions_[static_cast<std::size_t>(d.region)].last_ran >= it
                                                          : instance_done(d.region, it))
          continue;
        if (it <= regions_[static_cast<std::size_t>(d.region)].last_ran) {
          if (lookahead())
            std::snprintf(out, size,
                          "region %s (iteration %ld) waits for region %s (iteration %ld) to complete its requests",
                          rd.name, j, regions[d.region].name, it);
          else
            std::snprintf(out, size, "region %s (iteration %ld) waits for region %s%s to complete its requests",
                          rd.name, j, regions[d.region].name,
                          d.previous == TUCANA_DEP_PREVIOUS ? " of the previous iteration" : "");
          return;
        }
        if (cycle_region < 0) {
          cycle_region = r;
          cycle_dep = &d;
        }
      }
    }
    if (cycle_region >= 0) {
      std::snprintf(out, size, "region %s (iteration %ld) waits for region %s, which cannot run (a dependency cycle)",
                    regions[cycle_region].name, next_iteration_of(cycle_region), regions[cycle_dep->region].name);
      return;
    }
  }
  for (int r = 0; r < desc_->nregions; ++r)
    for (const auto& in : regions_[static_cast<std::size_t>(r)].window)
      if (!in->done()) {
        std::snprintf(out, size, "the end of the superblock waits for region %s (iteration %ld) to complete its requests",
                      regions[r].name, in->iteration);
        return;
      }
  std::snprintf(out, size, "waiting for the superblock's last requests to complete");
}

}  // namespace tucana::regions
