// The process-wide state and the subranks' records (runtime.h); the
// process's start, which knows every layer, is process/run.cc.
#include "core/runtime.h"

#include "core/output.h"
#include "trace/trace.h"

namespace tucana::mpi {

Runtime* Runtime::instance_ = nullptr;

Subrank* current_subrank() { return actor_subrank(sched::Scheduler::current_fiber()); }

namespace {
thread_local Subrank* t_thread_subrank = nullptr;
}  // namespace

Subrank* thread_subrank() { return t_thread_subrank; }
void set_thread_subrank(Subrank* s) { t_thread_subrank = s; }

sync::Mutex& polling_mutex() {
  static sync::Mutex m(sync::LockLevel::kLeaf, "polling subranks' blocked calls");
  return m;
}

void Runtime::subrank_finalized(Subrank* s) {
  sync::MutexLock lock(finalize_mutex);
  if (finalized_count.fetch_add(1) + 1 == layout.local_count()) {
    all_finalized.store(true);
    for (fiber::Fiber* f : finalize_waiters) sched::Scheduler::unpark(f);
    finalize_waiters.clear();
    return;
  }
  if (s->finished) return;  // returned from main: nothing to wait for
  // MPI_Finalize returns once every subrank of this process got there, so
  // that nothing it does afterwards (even exit()) can cut a sibling short.
  finalize_waiters.push_back(s->fiber);
  lock.unlock();
  s->blocked = BlockedIn{"MPI_Finalize", "MPI_Finalize", "source", TMPI_PROC_NULL, 0, TMPI_COMM_WORLD};
  while (!all_finalized.load()) sched::Scheduler::park();
  s->blocked.call = nullptr;
}

void Runtime::abort(int code) {
  aborting_.store(true);
  flush_all_subrank_output();
  write_trace();
  transport.abort(code);
}

void Runtime::write_trace() {
  if (trace_file_.empty() || trace_written_.exchange(true)) return;
  trace::finish(trace_file_, transport.size());
}

}  // namespace tucana::mpi
