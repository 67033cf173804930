// Tasks inside a subrank (include/tucana/task.h): the TPOD and hybrid models.
//
// A task is a transient fiber (sched::Scheduler::spawn_transient, the task
// pool) whose Fiber::actor is its Task record here, an mpi::Actor whose
// subrank is the spawning subrank, so every MPI call it makes acts for that
// subrank. The records
// of one subrank form its task graph, guarded by one lock (RankTasks::mutex):
// a parent (the subrank's own code, or a task) owns a Scope of children;
// each child has a join counter of unfinished predecessors (data
// dependencies, handles) and starts, as a fiber on the spawning worker, when
// it drops to zero; a finishing task releases its successors and wakes its
// parent when that waits.
#pragma once

#include <tucana/task.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "fiber/fiber.h"
#include "core/runtime.h"
#include "sync/mutex.h"

namespace tucana::regions {
struct Instance;
}

namespace tucana::tasks {

struct Task;

// The children of one parent since its last taskwait.
struct Scope {
  int outstanding = 0;              // spawned and not finished
  fiber::Fiber* waiter = nullptr;   // the parent, parked until a child finishes
  Task* waiting_for = nullptr;      // ... this one (tucana_task_wait), or all of them
  int next_ordinal = 0;             // spawns since the last taskwait
  std::vector<std::unique_ptr<Task>> children;  // freed by the taskwait
  // depend(): per address, the last sibling that wrote it and the ones
  // that read it since.
  struct DataState {
    Task* writer = nullptr;
    std::vector<Task*> readers;
  };
  std::unordered_map<const void*, DataState> data;
  // Boundary learning: whether the task spawned k-th in the previous epoch
  // (between two taskwaits) with the same function talked to another
  // process.
  struct Learned {
    const void* key = nullptr;  // the task's function (a taskloop's body)
    bool remote = false;
  };
  std::vector<Learned> previous, current;
};

// (Its Actor: the subrank it belongs to, its blocked-in record and polling
// flag.)
struct Task : mpi::Actor {
  Scope* parent = nullptr;
  Scope own;                         // its children
  void (*fn)(void*) = nullptr;
  const void* key = nullptr;         // Scope::Learned::key
  void* arg = nullptr;               // what fn gets: the copy of the spawner's bytes
  bool owns_arg = false;             // arg is malloc'd and freed with the task
  int id = 0;                        // 1, 2, ... per subrank
  int ordinal = 0;                   // its place in the parent's epoch
  const char* label = nullptr;
  int priority = 0;                  // Fiber::priority: 2 * attr priority + boundary
  bool boundary = false;
  int pending = 0;                   // unfinished predecessors (+1 while spawning)
  std::vector<Task*> successors;
  bool started = false;
  bool finished = false;
  // The superblock region instance that spawned it (the subrank's own code
  // inside a region): the instance is done only once the task is
  // (regions/superblock_run.h), as with the requests it posts.
  regions::Instance* instance = nullptr;
  // Written by the task's own fiber only.
  bool remote = false;               // it posted a message to or from another process
  Task* live_prev = nullptr;         // the subrank's started, unfinished tasks
  Task* live_next = nullptr;
  ~Task();
};

// One subrank's tasks.
struct RankTasks {
  sync::Mutex mutex{sync::LockLevel::kTaskGraph, "task graph"};
  Scope root TUCANA_GUARDED_BY(mutex);   // the subrank's own children
  int next_id TUCANA_GUARDED_BY(mutex) = 1;
  Task* live TUCANA_GUARDED_BY(mutex) = nullptr;  // head of the live list
  int live_count TUCANA_GUARDED_BY(mutex) = 0;
  int unstarted TUCANA_GUARDED_BY(mutex) = 0;     // spawned, waiting for predecessors
  // Ready, waiting for a free slot (task.cc's started_limit), in order.
  std::deque<Task*> waiting_for_slot TUCANA_GUARDED_BY(mutex);
  // What the last taskloop of each body learnt (Scope::previous).
  std::unordered_map<const void*, std::vector<Scope::Learned>> loop_learned TUCANA_GUARDED_BY(mutex);
};

// `a` as a task, or null (no actor, or a subrank: Fiber::actor of its own
// fiber and its helpers).
inline Task* task_of(mpi::Actor* a) { return a && mpi::is_task(*a) ? static_cast<Task*>(a) : nullptr; }

// The task the calling fiber runs, or null (a subrank's own fiber, a
// helper, no fiber).
inline Task* current_task() { return task_of(mpi::fiber_actor(sched::Scheduler::current_fiber())); }

// The actor the calling fiber of `me` runs: the subrank itself, one of its
// tasks, or null (a helper fiber, which has nothing to report).
inline mpi::Actor* calling_actor(mpi::Subrank* me) {
  fiber::Fiber* f = sched::Scheduler::current_fiber();
  if (f && f == me->fiber) return me;
  return task_of(mpi::fiber_actor(f));
}

// The calling fiber's wait record when no call has marked it yet (a
// blocking call inside another one, e.g. a wait inside a collective,
// leaves the outer call's description), or null: the record a blocking
// call fills before it parks and clears (call = null) after.
inline mpi::BlockedIn* unmarked_blocked_record(mpi::Subrank* me) {
  mpi::Actor* actor = calling_actor(me);
  return actor && !actor->blocked.call ? &actor->blocked : nullptr;
}

// Waits (suspending only the calling fiber) until every child of the
// calling fiber has finished, then frees their records. Called at the end
// of a task, and for the subrank's own children by MPI_Finalize and when
// its main returns. Contract: called by a subrank's fiber or a task.
void wait_for_children(const char* call);

// A point-to-point request of the calling fiber of `me` goes to or comes
// from world rank `peer`: a message of another process makes the calling
// task a boundary task or, on the subrank's own fiber, the subrank a
// boundary subrank (from now on; mpi::ready_priority). Cheap when nothing
// changes.
void note_p2p_peer(mpi::Subrank* me, int peer);

}  // namespace tucana::tasks
