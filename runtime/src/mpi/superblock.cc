// The superblock interface of generated code (tucana/superblock.h), on top
// of the region tracker and the subrank's fiber.
#include <tucana/superblock.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "mpi/errors.h"
#include "mpi/request.h"
#include "regions/superblock_run.h"
#include "trace/trace.h"

using namespace tucana;
using namespace tucana::mpi;
using regions::SuperblockRun;

struct tucana_superblock {
  SuperblockRun run;
  Subrank* subrank;
  tucana_superblock(const tucana_superblock_desc* d, Subrank* s)
      : run(d, &wake, s->fiber), subrank(s) {}
  static void wake(void* fiber) { sched::Scheduler::unpark(static_cast<fiber::Fiber*>(fiber)); }
};

namespace {

Subrank* owner_of(tucana_superblock* sb, const char* call) {
  Subrank* me = enter(call);
  if (me->superblocks.empty() || &sb->run != me->superblocks.back())
    fatal("%s: superblock %s is not the innermost superblock of subrank %d", call,
          sb->run.desc().where, me->world);
  return me;
}

// Warns once per (superblock, region) that a wait was not covered by the graph.
void warn_uncovered(const tucana_superblock* sb, int waiting_region, const Request* r) {
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> warned;
  std::lock_guard<std::mutex> lock(mutex);
  if (!warned.insert({sb->run.desc().regions, waiting_region}).second) return;
  const tucana_superblock_desc& d = sb->run.desc();
  std::fprintf(stderr,
               "tucana: warning: superblock %s: region %s waits for a request of region %s that its "
               "dependencies do not cover, so it blocks there; add depends(%s) to region %s\n",
               d.where, d.regions[waiting_region].name, d.regions[r->posted_region].name,
               d.regions[r->posted_region].name, d.regions[waiting_region].name);
}

}  // namespace

extern "C" {

tucana_superblock* tucana_sb_begin(const tucana_superblock_desc* desc) {
  Subrank* me = enter("tucana_sb_begin");
  auto* sb = new tucana_superblock(desc, me);
  me->superblocks.push_back(&sb->run);
  return sb;
}

int tucana_sb_next(tucana_superblock* sb) {
  Subrank* me = owner_of(sb, "tucana_sb_next");
  SuperblockRun& run = sb->run;
  for (;;) {
    int r = run.pick_ready();
    if (r >= 0) {
      me->current_instance = run.start(r);
      if (trace::enabled()) me->region_since_ns = trace::now_ns();
      return r;
    }
    if (r == SuperblockRun::kAllFinished && run.all_done()) return -1;
    // Nothing to run: give the worker to another subrank until a request
    // of this superblock completes.
    run.describe_wait(me->wait_note, sizeof me->wait_note);
    me->blocked = BlockedIn{"superblock", nullptr, "source", 0, 0, TMPI_COMM_WORLD, me->wait_note};
    me->blocked.call = run.desc().where;
    sched::Scheduler::park();
    me->blocked.call = nullptr;
  }
}

void tucana_sb_ran(tucana_superblock* sb, int region) {
  Subrank* me = owner_of(sb, "tucana_sb_ran");
  if (trace::enabled())
    trace::span(sched::Scheduler::current_worker()->index(), "region", sb->run.desc().regions[region].name,
                me->region_since_ns, trace::now_ns(), me->world, sb->run.next_iteration(region));
  me->current_instance = nullptr;
  sb->run.ran(region);
  // Region boundaries are where a busy worker lets messages move.
  Runtime::get().messenger->poll();
}

void tucana_sb_finish(tucana_superblock* sb, int region) {
  Subrank* me = owner_of(sb, "tucana_sb_finish");
  // The instance started for this region never ran: it is dropped unrun.
  me->current_instance = nullptr;
  sb->run.finish(region);
}

void tucana_sb_end(tucana_superblock* sb) {
  Subrank* me = owner_of(sb, "tucana_sb_end");
  me->superblocks.pop_back();
  delete sb;
}

int tucana_sb_wait(tucana_superblock* sb, TMPI_Request* request, TMPI_Status* status) {
  return tucana_sb_waitall(sb, 1, request, status == TMPI_STATUS_IGNORE ? TMPI_STATUSES_IGNORE : status);
}

int tucana_sb_waitall(tucana_superblock* sb, int count, TMPI_Request requests[], TMPI_Status statuses[]) {
  Subrank* me = owner_of(sb, "MPI_Waitall");
  int waiting_region = me->current_instance ? me->current_instance->region : -1;
  for (int i = 0; i < count; ++i) {
    Request* r = requests[i];
    if (r == TMPI_REQUEST_NULL || (r->persistent && !r->active) || is_done(r)) continue;
    if (r->posted_in == &sb->run && waiting_region >= 0) warn_uncovered(sb, waiting_region, r);
  }
  return TMPI_Waitall(count, requests, statuses);
}

}  // extern "C"
