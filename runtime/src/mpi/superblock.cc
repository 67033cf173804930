// The superblock interface of generated code (tucana/superblock.h), on top
// of the region tracker (regions/), the subrank's fiber and the scheduler's
// priorities (sched/).
#include <tucana/superblock.h>

#include "mpi/errors.h"
#include "mpi/request.h"
#include "regions/superblock_run.h"
#include "tasks/task.h"
#include "trace/trace.h"

using namespace tucana;
using namespace tucana::mpi;
using regions::SuperblockRun;

struct tucana_superblock {
  SuperblockRun run;
  Subrank* subrank;
  // What was current when the superblock began (an enclosing superblock's
  // region, through a call): restored between regions and at the end.
  regions::Instance* outer_instance;
  int outer_priority;
  std::int64_t interior_since_ns = -1;  // tracing: a split region's interior began (-1: none running)
  tucana_superblock(const tucana_superblock_desc* d, Subrank* s, long trips)
      : run(d, &wake, s->fiber, trips),
        subrank(s),
        outer_instance(s->current_instance),
        outer_priority(s->fiber->priority) {}
  static void wake(void* fiber) { sched::Scheduler::unpark(static_cast<fiber::Fiber*>(fiber)); }
};

namespace {

Subrank* owner_of(tucana_superblock* sb, const char* call) {
  Entered me = enter(call);
  if (me->superblocks.empty() || &sb->run != me->superblocks.back())
    fatal("%s: superblock %s is not the innermost superblock of subrank %d", call,
          sb->run.desc().where, me->world);
  return me;
}

// Parks the subrank until a request of the superblock completes, described
// for the deadlock report.
void park_in(Subrank* me, const SuperblockRun& run, bool at_end) {
  run.describe_wait(me->wait_note, sizeof me->wait_note, at_end);
  me->blocked = BlockedIn{"superblock", nullptr, "source", 0, 0, TMPI_COMM_WORLD, me->wait_note};
  me->blocked.call = run.desc().where;
  sched::Scheduler::park();
  me->blocked.call = nullptr;
}

tucana_superblock* begin_superblock(const char* call, const tucana_superblock_desc* desc, long trips) {
  Entered me = enter(call);
  // A superblock's regions are the subrank's own schedule (its fiber parks
  // between them, its requests belong to them): not a task's.
  if (tasks::Task* t = tasks::current_task())
    fatal("superblock %s entered by task %d ('%s') of subrank %d: superblocks run in the subrank's own code, not "
          "in tasks (split the work of a region into tasks instead)",
          desc->where, t->id, t->label, me->world);
  auto* sb = new tucana_superblock(desc, me, trips);
  me->superblocks.push_back(&sb->run);
  return sb;
}

// tucana_sb_next and tucana_sb_next_ahead: the region to run (and its
// iteration), or -1 when the iteration (lookahead: the loop) is over.
int next_region(Subrank* me, tucana_superblock* sb, long* iteration) {
  SuperblockRun& run = sb->run;
  if (run.running() >= 0)
    fatal("tucana_sb_next: superblock %s: region %s has not called tucana_sb_ran", run.desc().where,
          run.desc().regions[run.running()].name);
  fiber::Fiber* self = me->fiber;
  for (;;) {
    run.deliver_deferred();
    int r = run.pick_ready();
    if (r == SuperblockRun::kIterationDone) {
      if (!run.lookahead()) run.next_iteration();
      me->current_instance = sb->outer_instance;
      self->priority = sb->outer_priority;
      return -1;
    }
    if (r >= 0) {
      int priority = ready_priority(*me, run.priority(r));
      // A region of higher priority is ready on another subrank of this
      // worker: it goes first.
      if (sched::Scheduler::outranked(priority)) {
        self->priority = priority;
        sched::Scheduler::yield();
        continue;  // what is ready may have changed meanwhile
      }
      self->priority = priority;
      *iteration = run.next_iteration_of(r);
      me->current_instance = run.start(r);
      if (trace::enabled()) me->region_since_ns = trace::now_ns();
      return r;
    }
    // Nothing to run: give the worker to another subrank until a request
    // of this superblock completes; queued by what it waits to run.
    self->priority = ready_priority(*me, run.waiting_priority());
    park_in(me, run, false);
  }
}

}  // namespace

extern "C" {

tucana_superblock* tucana_sb_begin(const tucana_superblock_desc* desc) {
  return begin_superblock("tucana_sb_begin", desc, -1);
}

tucana_superblock* tucana_sb_begin_ahead(const tucana_superblock_desc* desc, long long trips) {
  if (trips < 0) fatal("tucana_sb_begin_ahead: superblock %s: negative trip count %lld", desc->where, trips);
  return begin_superblock("tucana_sb_begin_ahead", desc, static_cast<long>(trips));
}

int tucana_sb_next(tucana_superblock* sb) {
  Subrank* me = owner_of(sb, "tucana_sb_next");
  if (sb->run.lookahead())
    fatal("tucana_sb_next: superblock %s was begun by tucana_sb_begin_ahead (use tucana_sb_next_ahead)",
          sb->run.desc().where);
  long iteration;
  return next_region(me, sb, &iteration);
}

int tucana_sb_next_ahead(tucana_superblock* sb, long long* iteration) {
  Subrank* me = owner_of(sb, "tucana_sb_next_ahead");
  if (!sb->run.lookahead())
    fatal("tucana_sb_next_ahead: superblock %s was begun by tucana_sb_begin (use tucana_sb_next)",
          sb->run.desc().where);
  long j = -1;
  int r = next_region(me, sb, &j);
  *iteration = j;
  return r;
}

void tucana_sb_ran(tucana_superblock* sb, int region) {
  Subrank* me = owner_of(sb, "tucana_sb_ran");
  SuperblockRun& run = sb->run;
  if (region < 0 || region != run.running())
    fatal("tucana_sb_ran: superblock %s: region %d is not the one tucana_sb_next returned", run.desc().where,
          region);
  if (trace::enabled())
    trace::span(sched::Scheduler::current_worker()->index(), "region", run.desc().regions[region].name,
                me->region_since_ns, trace::now_ns(), me->world, me->current_instance->iteration);
  me->current_instance = sb->outer_instance;
  run.ran(region);
  // Region boundaries are where a busy worker lets messages move.
  Runtime::get().messenger->poll();
  // Bamboo's yielding rule: a region of negative priority lets the other
  // ready subranks run first (queued at its priority: behind them).
  if (run.priority(region) < 0) sched::Scheduler::yield();
}

void tucana_sb_priority(tucana_superblock* sb, int region, int priority) {
  owner_of(sb, "tucana_sb_priority");
  if (region < -1 || region >= sb->run.desc().nregions)
    fatal("tucana_sb_priority: superblock %s has no region %d", sb->run.desc().where, region);
  sb->run.set_priority(region, priority);
}

void tucana_sb_end(tucana_superblock* sb) {
  Subrank* me = owner_of(sb, "tucana_sb_end");
  if (sb->run.running() >= 0)
    fatal("tucana_sb_end: superblock %s: region %s has not called tucana_sb_ran", sb->run.desc().where,
          sb->run.desc().regions[sb->run.running()].name);
  me->current_instance = sb->outer_instance;
  me->fiber->priority = sb->outer_priority;
  for (;;) {
    sb->run.deliver_deferred();
    if (sb->run.all_done()) break;
    park_in(me, sb->run, true);
  }
  me->superblocks.pop_back();
  delete sb;
}

void tucana_sb_track_buffers(tucana_superblock* sb) {
  owner_of(sb, "tucana_sb_track_buffers");
  sb->run.track_buffers();
}

int tucana_sb_split_clear(tucana_superblock* sb, int nspans, const tucana_span* spans) {
  owner_of(sb, "tucana_sb_split_clear");
  SuperblockRun& run = sb->run;
  if (run.running() < 0) fatal("tucana_sb_split_clear: superblock %s: no region is running", run.desc().where);
  std::vector<std::pair<const char*, const char*>> ranges;
  for (int i = 0; i < nspans; ++i) {
    const char* lo = static_cast<const char*>(spans[i].lo);
    const char* hi = static_cast<const char*>(spans[i].hi);
    // A written span must not meet another: two names for one array (a
    // pointer the translator could not tell apart) would make the interior
    // read what it writes.
    for (int j = 0; j < nspans; ++j)
      if (j != i && (spans[i].written || spans[j].written) &&
          lo < static_cast<const char*>(spans[j].hi) && static_cast<const char*>(spans[j].lo) < hi)
        return 0;
    ranges.emplace_back(lo, hi);
  }
  run.deliver_deferred();
  if (!run.clear_of_buffers(run.running(), ranges.data(), nspans)) return 0;
  if (trace::enabled()) sb->interior_since_ns = trace::now_ns();
  return 1;
}

void tucana_sb_await_deps(tucana_superblock* sb) {
  Subrank* me = owner_of(sb, "tucana_sb_await_deps");
  SuperblockRun& run = sb->run;
  if (run.running() < 0) fatal("tucana_sb_await_deps: superblock %s: no region is running", run.desc().where);
  // The interior's span (its region's name, category "split"), for traces.
  if (sb->interior_since_ns >= 0) {
    trace::span(sched::Scheduler::current_worker()->index(), "split", run.desc().regions[run.running()].name,
                sb->interior_since_ns, trace::now_ns(), me->world, me->current_instance->iteration);
    sb->interior_since_ns = -1;
  }
  for (;;) {
    run.deliver_deferred();
    if (run.deps_done(run.running())) return;
    park_in(me, run, false);
  }
}

// Blocking point-to-point calls in regions: posted without a handle,
// attributed to the running region instance (p2p.cc's start_detached), and
// released by their completion; outside regions, the blocking calls.
int tucana_sb_recv(void* buf, int count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
                   TMPI_Status* status) {
  Entered me = enter("MPI_Recv");
  if (!me->current_instance || tasks::current_task()) return TMPI_Recv(buf, count, type, source, tag, comm, status);
  return post_released("MPI_Recv", comm::Operation::Kind::Recv, buf, count, type, source, tag, comm, status);
}

int tucana_sb_send(const void* buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm) {
  Entered me = enter("MPI_Send");
  if (!me->current_instance || tasks::current_task()) return TMPI_Send(buf, count, type, dest, tag, comm);
  return post_released("MPI_Send", comm::Operation::Kind::Send, const_cast<void*>(buf), count, type, dest, tag,
                       comm, TMPI_STATUS_IGNORE);
}

int tucana_sb_sendrecv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, int dest, int sendtag,
                       void* recvbuf, int recvcount, TMPI_Datatype recvtype, int source, int recvtag,
                       TMPI_Comm comm, TMPI_Status* status) {
  Entered me = enter("MPI_Sendrecv");
  if (!me->current_instance || tasks::current_task())
    return TMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                         recvtag, comm, status);
  // The receive first, as MPI_Sendrecv posts it.
  if (int e = post_released("MPI_Sendrecv", comm::Operation::Kind::Recv, recvbuf, recvcount, recvtype, source,
                            recvtag, comm, status))
    return e;
  return post_released("MPI_Sendrecv", comm::Operation::Kind::Send, const_cast<void*>(sendbuf), sendcount,
                       sendtype, dest, sendtag, comm, TMPI_STATUS_IGNORE);
}

}  // extern "C"
