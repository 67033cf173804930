// Threads inside a subrank: the per-thread state (threads.h).
#include "omp/threads.h"

#include <cassert>

#include "libc/libc_state.h"
#include "core/runtime.h"
#include "sched/worker.h"

namespace tucana::omp {

namespace {
thread_local int t_depth = 0;
}  // namespace

int region_depth() { return t_depth; }

Handoff capture() {
  Handoff h;
  h.delta = tucana_priv_current_delta;
  h.subrank = mpi::current_subrank();
  if (h.subrank) {
    // Created now, on the subrank's own thread: its threads then only use it.
    (void)libc::current_state();
  } else {
    h.subrank = mpi::thread_subrank();  // a thread of a subrank starting threads of its own
  }
  return h;
}

Handoff install(const Handoff& h) {
  Handoff old{tucana_priv_current_delta, mpi::thread_subrank()};
  tucana_priv_current_delta = h.delta;
  // The subrank's own fiber needs no record (current_subrank() finds it).
  if (!mpi::current_subrank()) mpi::set_thread_subrank(h.subrank);
  return old;
}

void region_begin() { ++t_depth; }

void region_end() {
  assert(t_depth > 0 && "omp::region_end: a region began on this thread");
  --t_depth;
}

}  // namespace tucana::omp
