#include "regions/superblock_run.h"

#include <algorithm>
#include <cstdio>

namespace tucana::regions {

SuperblockRun::SuperblockRun(const tucana_superblock_desc* desc, void (*wake)(void*), void* wake_arg)
    : desc_(desc), regions_(static_cast<std::size_t>(desc->nregions)), wake_(wake), wake_arg_(wake_arg) {}

SuperblockRun::~SuperblockRun() = default;

bool SuperblockRun::instance_done(int region, long iteration) const {
  if (iteration < 0) return true;
  const RegionState& s = regions_[static_cast<std::size_t>(region)];
  if (iteration >= s.next) return s.finished;  // not run yet: done only if it never will
  if (s.window.empty() || iteration < s.window.front()->iteration) return true;  // retired
  const Instance& in = *s.window[static_cast<std::size_t>(iteration - s.window.front()->iteration)];
  return in.done();
}

bool SuperblockRun::deps_met(int region, long iteration, const tucana_dependency** blocking) const {
  const tucana_region_desc& r = desc_->regions[region];
  for (int k = 0; k < r.ndeps; ++k) {
    const tucana_dependency& d = r.deps[k];
    if (!instance_done(d.region, iteration - (d.previous ? 1 : 0))) {
      if (blocking) *blocking = &d;
      return false;
    }
  }
  // A region's own iterations run in order: the previous one must have run
  // (it has, since next only advances in ran()).
  return true;
}

int SuperblockRun::pick_ready() const {
  bool any_open = false;
  for (int r = 0; r < desc_->nregions; ++r) {
    const RegionState& s = regions_[static_cast<std::size_t>(r)];
    if (s.finished) continue;
    any_open = true;
    if (deps_met(r, s.next, nullptr)) return r;
  }
  return any_open ? kNoneReady : kAllFinished;
}

Instance* SuperblockRun::start(int region) {
  RegionState& s = regions_[static_cast<std::size_t>(region)];
  auto in = std::make_unique<Instance>();
  in->run = this;
  in->region = region;
  in->iteration = s.next;
  Instance* raw = in.get();
  s.window.push_back(std::move(in));
  return raw;
}

void SuperblockRun::ran(int region) {
  RegionState& s = regions_[static_cast<std::size_t>(region)];
  Instance& in = *s.window.back();
  in.ran.store(true, std::memory_order_release);
  ++s.next;
  retire();
}

void SuperblockRun::finish(int region) {
  RegionState& s = regions_[static_cast<std::size_t>(region)];
  // Drop the instance start() made for the iteration that will not run.
  if (!s.window.empty() && s.window.back()->iteration == s.next && !s.window.back()->ran.load())
    s.window.pop_back();
  s.finished = true;
}

bool SuperblockRun::all_done() const {
  for (const RegionState& s : regions_)
    for (const auto& in : s.window)
      if (!in->done()) return false;
  return true;
}

// Drops instances that are done and that no region can ask about any more:
// a region asks about iterations next and next-1 of the regions it names.
void SuperblockRun::retire() {
  long oldest_needed = 0;
  bool first = true;
  for (const RegionState& s : regions_) {
    if (s.finished) continue;
    oldest_needed = first ? s.next - 1 : std::min(oldest_needed, s.next - 1);
    first = false;
  }
  for (RegionState& s : regions_) {
    while (!s.window.empty() && s.window.front()->done() &&
           (first || s.window.front()->iteration < oldest_needed))
      s.window.pop_front();
  }
}

void SuperblockRun::request_posted(Instance* instance) {
  instance->pending.fetch_add(1, std::memory_order_relaxed);
}

void SuperblockRun::request_completed(Instance* instance) {
  SuperblockRun* run = instance->run;
  void (*wake)(void*) = run->wake_;
  void* arg = run->wake_arg_;
  // After this decrement the owner may see the instance done and free it:
  // touch nothing of it afterwards.
  if (instance->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) wake(arg);
}

void SuperblockRun::describe_wait(char* out, std::size_t size) const {
  for (int r = 0; r < desc_->nregions; ++r) {
    const RegionState& s = regions_[static_cast<std::size_t>(r)];
    if (s.finished) continue;
    const tucana_dependency* d = nullptr;
    if (!deps_met(r, s.next, &d) && d) {
      std::snprintf(out, size, "region %s (iteration %ld) waits for region %s%s to complete its requests",
                    desc_->regions[r].name, s.next, desc_->regions[d->region].name,
                    d->previous ? " of the previous iteration" : "");
      return;
    }
  }
  std::snprintf(out, size, "waiting for the superblock's last requests to complete");
}

}  // namespace tucana::regions
