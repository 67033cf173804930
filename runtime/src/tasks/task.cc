#include "tasks/task.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstdio>
#include <cstring>

#include "regions/superblock_run.h"

namespace tucana::tasks {

Task::~Task() {
  if (owns_arg) std::free(arg);
}

namespace {

using mpi::Subrank;

// Who calls: the subrank, the task it runs in (null: the subrank's own
// code), and the calling fiber.
struct Caller {
  Subrank* me;
  Task* task;
  fiber::Fiber* fiber;
};

Caller caller(const char* call) {
  fiber::Fiber* f = sched::Scheduler::current_fiber();
  mpi::Actor* actor = mpi::fiber_actor(f);
  Subrank* me = actor ? actor->subrank : nullptr;
  if (!me)
    mpi::fatal("%s called outside a subrank (from a thread the program created, a static constructor, or an "
               "atexit handler)",
               call);
  Task* task = task_of(actor);
  if (!task && f != me->fiber)
    mpi::fatal("%s called by subrank %d inside a non-blocking collective's user function; tasks belong to the "
               "subrank's own code and its tasks",
               call, me->world);
  return Caller{me, task, f};
}

RankTasks& rank_tasks(Subrank* me) {
  // Only the subrank's own code can spawn its first task (a task exists only
  // after that), so this needs no lock.
  if (!me->tasks) me->tasks = mpi::LayerState<RankTasks>(new RankTasks, [](RankTasks* t) { delete t; });
  return *me->tasks;
}

// Tasks are many and mostly small: 256 KiB unless asked (or the subrank
// stack size, when smaller).
constexpr std::size_t kTaskStack = 256u << 10;
std::size_t task_stack_size() {
  const Config& c = mpi::Runtime::get().config;
  return c.task_stack_size ? c.task_stack_size : std::min(c.stack_size, kTaskStack);
}

void task_main(void* arg);

// How many tasks of one subrank may have a fiber at once; the others wait
// for a slot. Each fiber's stack and guard page are two memory mappings,
// and a process may have vm.max_map_count of them in all (65530 by
// default): a quarter of those (16384 fibers at most) go to tasks, shared
// by the subranks of the process, but at least 64 per subrank. Under
// ThreadSanitizer, whose fibers cost tens of megabytes each, 16 per subrank.
int started_limit() {
  static const int limit = [] {
#ifdef TUCANA_TSAN
    return 16;
#else
    long maps = 65530;
    if (FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
      if (std::fscanf(f, "%ld", &maps) != 1) maps = 65530;
      std::fclose(f);
    }
    long fibers = std::min(maps / 4, 16384L);
    return static_cast<int>(std::max(fibers / std::max(1, mpi::Runtime::get().layout.local_count()), 64L));
#endif
  }();
  return limit;
}

// Starts `t`, whose predecessors have all finished, as a fiber on the
// calling fiber's worker, or queues it for a free slot.
void start(RankTasks& rt, Task* t) TUCANA_REQUIRES(rt.mutex) {
  if (rt.live_count >= started_limit()) {
    rt.waiting_for_slot.push_back(t);
    return;
  }
  t->started = true;
  t->live_next = rt.live;
  if (rt.live) rt.live->live_prev = t;
  rt.live = t;
  ++rt.live_count;
  sched::Scheduler::TransientSpec spec;
  spec.entry = &task_main;
  spec.arg = t;
  spec.stack_size = task_stack_size();
  spec.pool = sched::Scheduler::Pool::kTask;
  spec.actor = t;
  spec.priority = t->priority;
  spec.trace_id = t->subrank->world;
  spec.trace_task = t->id;
  spec.trace_label = t->label;
  mpi::Runtime::get().scheduler->spawn_transient(spec);
}

// `t` has returned and its children have finished: releases its successors
// and wakes its parent if that waits for it.
void finish(Task* t) {
  RankTasks& rt = *t->subrank->tasks;
  sync::MutexLock lock(rt.mutex);
  t->finished = true;
  if (t->live_prev) t->live_prev->live_next = t->live_next;
  else rt.live = t->live_next;
  if (t->live_next) t->live_next->live_prev = t->live_prev;
  --rt.live_count;
  if (!rt.waiting_for_slot.empty()) {
    Task* next = rt.waiting_for_slot.front();
    rt.waiting_for_slot.pop_front();
    start(rt, next);
  }
  Scope* parent = t->parent;
  if (parent->current.size() <= static_cast<std::size_t>(t->ordinal))
    parent->current.resize(static_cast<std::size_t>(t->ordinal) + 1);
  parent->current[static_cast<std::size_t>(t->ordinal)] = Scope::Learned{t->key, t->remote};
  for (Task* s : t->successors) {
    if (--s->pending == 0) {
      --rt.unstarted;
      start(rt, s);
    }
  }
  if (t->instance) regions::SuperblockRun::request_completed(t->instance);
  --parent->outstanding;
  if (parent->waiter && (parent->waiting_for ? parent->waiting_for == t : parent->outstanding == 0))
    sched::Scheduler::unpark(parent->waiter);
  // From here on `t` belongs to the parent's taskwait, which may free it.
}

void task_main(void* arg) {
  auto* t = static_cast<Task*>(arg);
  t->fn(t->arg);
  wait_for_children("the end of a task");  // a task finishes after its children
  finish(t);
}

Scope& scope_of(RankTasks& rt, const Caller& c) TUCANA_REQUIRES(rt.mutex) {
  return c.task ? c.task->own : rt.root;
}

// Marks what the caller waits in while it parks (deadlock reports).
class WaitMark {
 public:
  WaitMark(Subrank* me, const char* call, const char* note) {
    record_ = unmarked_blocked_record(me);
    if (record_) {
      *record_ = mpi::BlockedIn{};
      record_->call = call;
      record_->note = note;
    }
  }
  ~WaitMark() {
    if (record_) record_->call = nullptr;
  }
  WaitMark(const WaitMark&) = delete;
  WaitMark& operator=(const WaitMark&) = delete;

 private:
  mpi::BlockedIn* record_;
};

struct SpawnArgs {
  void (*fn)(void*);
  const void* key;   // what boundary learning matches (the user's function)
  void* arg;         // what fn gets
  bool owns_copy;    // arg is a malloc'd copy the task frees
  const tucana_task_attr* attr;
};

void check_attr(const char* call, const tucana_task_attr* a) {
  if (!a) return;
  if (a->ndeps < 0 || (a->ndeps > 0 && !a->deps))
    mpi::fatal("%s: attr.ndeps is %d with deps %s", call, a->ndeps, a->deps ? "given" : "null");
  for (int i = 0; i < a->ndeps; ++i) {
    int k = a->deps[i].kind;
    if (k != TUCANA_DEP_IN && k != TUCANA_DEP_OUT && k != TUCANA_DEP_INOUT)
      mpi::fatal("%s: attr.deps[%d].kind is %d (expected TUCANA_DEP_IN, _OUT or _INOUT)", call, i, k);
  }
  if (a->nafter < 0 || (a->nafter > 0 && !a->after))
    mpi::fatal("%s: attr.nafter is %d with after %s", call, a->nafter, a->after ? "given" : "null");
  if (a->boundary < -1 || a->boundary > 1)
    mpi::fatal("%s: attr.boundary is %d (expected -1, 0 or 1)", call, a->boundary);
}

// Spawns into the caller's scope, or into `group` (a taskloop's).
Task* spawn(const char* call, const Caller& c, const SpawnArgs& s, Scope* group = nullptr) {
  const tucana_task_attr* a = s.attr;
  check_attr(call, a);
  RankTasks& rt = rank_tasks(c.me);
  auto owned = std::make_unique<Task>();
  Task* t = owned.get();
  t->subrank = c.me;
  t->fn = s.fn;
  t->key = s.key;
  t->arg = s.arg;
  t->owns_arg = s.owns_copy;
  t->label = a && a->name ? a->name : "task";
  // Spawned by a superblock region: the region is done when the task is.
  if (!c.task && c.me->current_instance) {
    t->instance = c.me->current_instance;
    regions::SuperblockRun::request_posted(t->instance);
  }
  const char* misplaced = nullptr;
  int misplaced_index = 0;
  {
    sync::MutexLock lock(rt.mutex);
    Scope& scope = group ? *group : scope_of(rt, c);
    t->id = rt.next_id++;
    t->parent = &scope;
    t->ordinal = scope.next_ordinal++;
    int boundary = a ? a->boundary : 0;
    if (boundary == 0) {
      auto k = static_cast<std::size_t>(t->ordinal);
      t->boundary = k < scope.previous.size() && scope.previous[k].key == s.key && scope.previous[k].remote;
    } else {
      t->boundary = boundary > 0;
    }
    t->priority = 2 * (a ? a->priority : 0) + (t->boundary ? 1 : 0);
    t->pending = 1;  // held until its edges are in
    auto edge_from = [t](Task* pred) {
      if (pred && pred != t && !pred->finished) {
        pred->successors.push_back(t);
        ++t->pending;
      }
    };
    for (int i = 0; a && i < a->nafter; ++i) {
      Task* h = reinterpret_cast<Task*>(a->after[i]);
      if (!h || h->parent != &scope) {
        misplaced = "attr.after";
        misplaced_index = i;
        break;
      }
      edge_from(h);
    }
    if (!misplaced) {
      for (int i = 0; a && i < a->ndeps; ++i) {
        Scope::DataState& d = scope.data[a->deps[i].addr];
        edge_from(d.writer);
        if (a->deps[i].kind == TUCANA_DEP_IN) {
          d.readers.push_back(t);
        } else {
          for (Task* r : d.readers) edge_from(r);
          d.readers.clear();
          d.writer = t;
        }
      }
      ++scope.outstanding;
      scope.children.push_back(std::move(owned));
      if (--t->pending == 0) start(rt, t);
      else ++rt.unstarted;
    }
  }
  if (misplaced)
    mpi::fatal("%s: %s[%d] is not a task spawned by the caller since its last taskwait (subrank %d%s)", call,
               misplaced, misplaced_index, c.me->world, c.task ? ", in a task" : "");
  return t;
}

void* copy_of(const void* arg, std::size_t size, std::size_t prefix) {
  void* p = std::malloc(prefix + size ? prefix + size : 1);
  if (!p) mpi::fatal("no memory for a task's argument (%zu bytes)", size);
  if (size) std::memcpy(static_cast<char*>(p) + prefix, arg, size);
  return p;
}

// A taskloop chunk's argument: the body, its range, then the copy of the
// spawner's bytes.
struct Chunk {
  void (*body)(long long, long long, void*);
  long long lo, hi;
};
constexpr std::size_t kChunkPrefix =
    (sizeof(Chunk) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

void run_chunk(void* p) {
  auto* c = static_cast<Chunk*>(p);
  c->body(c->lo, c->hi, static_cast<char*>(p) + kChunkPrefix);
}

}  // namespace

// Parks the caller until every task of `scope` has finished (or `one`,
// when given). Called and returns with rt.mutex held (a MutexLock of the
// caller's: released and taken again here, so held on return).
void wait_in(RankTasks& rt, Scope& scope, Task* one, const Caller& c, const char* call, const char* note)
    TUCANA_REQUIRES(rt.mutex) {
  auto done = [&] { return one ? one->finished : scope.outstanding == 0; };
  if (done()) return;
  rt.mutex.unlock();
  {
    WaitMark mark(c.me, call, note);
    rt.mutex.lock();
    while (!done()) {
      scope.waiter = c.fiber;
      scope.waiting_for = one;
      rt.mutex.unlock();
      sched::Scheduler::park();
      rt.mutex.lock();
    }
    scope.waiter = nullptr;
    scope.waiting_for = nullptr;
  }
}

void wait_for_children(const char* call) {
  Caller c = caller(call);
  if (!c.me->tasks) return;
  RankTasks& rt = *c.me->tasks;
  std::vector<std::unique_ptr<Task>> done;
  {
    sync::MutexLock lock(rt.mutex);
    Scope& scope = scope_of(rt, c);
    wait_in(rt, scope, nullptr, c, call, c.task ? "waiting for its child tasks" : "waiting for its tasks");
    done.swap(scope.children);
    scope.data.clear();
    scope.previous.swap(scope.current);
    scope.current.clear();
    scope.next_ordinal = 0;
  }
  // (Freed outside the lock: their arguments' memory goes back to malloc.)
}

void note_p2p_peer(mpi::Subrank* me, int peer) {
  if (peer < 0) return;  // MPI_ANY_SOURCE, MPI_PROC_NULL
  if (me->talks_remote && !current_task()) return;
  mpi::Runtime& rt = mpi::Runtime::get();
  if (rt.layout.is_local(peer)) return;
  if (Task* t = current_task()) {
    t->remote = true;
    return;
  }
  fiber::Fiber* f = sched::Scheduler::current_fiber();
  if (f != me->fiber) return;  // a helper fiber
  me->talks_remote = true;
  // Outside superblocks its priority is the base one; a superblock sets
  // it at its next region.
  if (me->superblocks.empty()) f->priority = mpi::ready_priority(*me, 0);
}

}  // namespace tucana::tasks

using tucana::tasks::Caller;
using tucana::tasks::Task;

extern "C" {

tucana_task_t tucana_task_spawn(void (*fn)(void*), const void* arg, size_t arg_size, const tucana_task_attr* attr) {
  const char* call = "tucana_task_spawn";
  Caller c = tucana::tasks::caller(call);
  if (!fn) tucana::mpi::fatal("%s: the task function is null (subrank %d)", call, c.me->world);
  if (arg_size > 0 && !arg)
    tucana::mpi::fatal("%s: arg is null with arg_size %zu (subrank %d)", call, arg_size, c.me->world);
  void* copy = arg_size > 0 ? tucana::tasks::copy_of(arg, arg_size, 0) : const_cast<void*>(arg);
  tucana::tasks::SpawnArgs s{fn, reinterpret_cast<const void*>(fn), copy, arg_size > 0, attr};
  return reinterpret_cast<tucana_task_t>(tucana::tasks::spawn(call, c, s));
}

void tucana_taskwait(void) { tucana::tasks::wait_for_children("tucana_taskwait"); }

void tucana_task_wait(tucana_task_t handle) {
  const char* call = "tucana_task_wait";
  Caller c = tucana::tasks::caller(call);
  auto* t = reinterpret_cast<Task*>(handle);
  tucana::tasks::RankTasks* rt = c.me->tasks.get();
  if (!t || !rt) tucana::mpi::fatal("%s: not a task of subrank %d", call, c.me->world);
  tucana::sync::MutexLock lock(rt->mutex);
  tucana::tasks::Scope& scope = tucana::tasks::scope_of(*rt, c);
  if (t->parent != &scope) {
    lock.unlock();
    tucana::mpi::fatal("%s: task %d is not a child of the caller (subrank %d%s)", call, t->id, c.me->world,
                       c.task ? ", in a task" : "");
  }
  tucana::tasks::wait_in(*rt, scope, t, c, call, "waiting for one of its tasks");
}

int tucana_num_tasks(void) {
  tucana::mpi::Runtime* rt = tucana::mpi::Runtime::instance();
  return rt ? rt->config.tasks : 1;
}

int tucana_task_id(void) {
  Task* t = tucana::tasks::current_task();
  return t ? t->id : 0;
}

void tucana_taskloop(long long n, long long num_tasks, long long grainsize,
                     void (*body)(long long lo, long long hi, void* arg), const void* arg, size_t arg_size,
                     const tucana_task_attr* attr) {
  const char* call = "tucana_taskloop";
  Caller c = tucana::tasks::caller(call);
  if (!body) tucana::mpi::fatal("%s: the loop body is null (subrank %d)", call, c.me->world);
  if (n < 0) tucana::mpi::fatal("%s: negative iteration count %lld (subrank %d)", call, n, c.me->world);
  if (num_tasks > 0 && grainsize > 0)
    tucana::mpi::fatal("%s: num_tasks(%lld) and grainsize(%lld) together (subrank %d)", call, num_tasks, grainsize,
                       c.me->world);
  if (arg_size > 0 && !arg)
    tucana::mpi::fatal("%s: arg is null with arg_size %zu (subrank %d)", call, arg_size, c.me->world);
  if (attr && (attr->ndeps > 0 || attr->nafter > 0))
    tucana::mpi::fatal("%s: a taskloop takes no dependencies (attr.deps, attr.after) (subrank %d)", call,
                       c.me->world);
  if (n == 0) return;
  // The chunks are a group of their own, waited for here (an implicit
  // taskgroup), so that a taskloop in a time loop frees its records at
  // once; what it learns about boundary chunks is kept per body.
  tucana::tasks::RankTasks& rt = tucana::tasks::rank_tasks(c.me);
  tucana::tasks::Scope group;
  {
    tucana::sync::MutexLock lock(rt.mutex);
    auto it = rt.loop_learned.find(reinterpret_cast<const void*>(body));
    if (it != rt.loop_learned.end()) group.previous = std::move(it->second);
  }
  // As OpenMP's taskloop: grainsize(g) makes chunks of g to 2g-1 iterations.
  long long chunks = grainsize > 0 ? std::max(1LL, n / grainsize)
                                   : num_tasks > 0 ? num_tasks : static_cast<long long>(tucana_num_tasks());
  chunks = std::min(chunks, n);
  for (long long k = 0; k < chunks; ++k) {
    void* copy = tucana::tasks::copy_of(arg, arg_size, tucana::tasks::kChunkPrefix);
    auto* chunk = static_cast<tucana::tasks::Chunk*>(copy);
    // Sizes differ by one at most: the first n % chunks get one more.
    long long base = n / chunks, extra = n % chunks;
    chunk->body = body;
    chunk->lo = k * base + std::min(k, extra);
    chunk->hi = chunk->lo + base + (k < extra ? 1 : 0);
    tucana::tasks::SpawnArgs s{&tucana::tasks::run_chunk, reinterpret_cast<const void*>(body), copy, true, attr};
    tucana::tasks::spawn(call, c, s, &group);
  }
  tucana::sync::MutexLock lock(rt.mutex);
  tucana::tasks::wait_in(rt, group, nullptr, c, call, "waiting for its chunks");
  rt.loop_learned[reinterpret_cast<const void*>(body)] = std::move(group.current);
  // (group's records are freed on return, with the lock released.)
}

}  // extern "C"
