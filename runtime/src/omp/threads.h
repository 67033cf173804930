// Threads inside a subrank: the threads an OpenMP parallel region, a host
// teams construct or pthread_create starts while a subrank runs see that
// subrank's copies of the privatized globals (docs/privatization.md,
// "OpenMP and threads inside a subrank").
//
// How: the thread that starts them (the worker thread running the subrank's
// fiber) hands its tucana_priv_current_delta to each of them, and each sets
// it in its own thread for as long as it works for the subrank, then puts
// back what it had (0 for a pool thread between regions). With GCC's
// libgomp (and libomp's GOMP_* entry points) the runtime interposes the
// GOMP_* calls that start a team and runs the outlined function through a
// trampoline (gomp.cc); with LLVM's libomp (clang -fopenmp) the executable
// is an OMPT tool whose implicit-task callbacks do the same (ompt.cc);
// pthread_create is interposed (gomp.cc).
#pragma once

#include <cstddef>

namespace tucana::mpi {
struct Subrank;
}

namespace tucana::omp {

// (The subrank a thread works for when it is not the subrank's own fiber:
// mpi::thread_subrank(), core/runtime.h, which install() sets. MPI calls
// are still refused there (mpi::enter): the subrank's own thread makes them.)

// How many OpenMP parallel regions the calling thread has started and not
// yet ended (on a worker: the running subrank's regions). MPI calls from a
// subrank inside one are refused: its fiber must not leave the worker
// while its team runs (OpenMP's thread state is the worker thread's).
int region_depth();

// What a thread started for a subrank takes from its starter.
struct Handoff {
  std::ptrdiff_t delta = 0;
  mpi::Subrank* subrank = nullptr;
};

// The calling thread's view, to hand to the threads it starts. Makes sure
// the subrank's per-subrank libc state exists before they may share it.
Handoff capture();

// Installs `h` in the calling thread; returns what it replaced.
Handoff install(const Handoff& h);

// Region bookkeeping of the thread that starts a team.
void region_begin();
void region_end();

}  // namespace tucana::omp
