// The runtime side of tucana/privatize.h: each subrank's copy of the image of
// the program's privatized variables (the ELF section `tucana_priv`), the
// per-subrank initializers and the per-subrank destructor calls.
// (tucana_priv_delta and tucana_priv_atexit are in privatize.cc.)
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "sync/mutex.h"

// Where the running subrank's privatized globals are, relative to their
// image, per thread (0 outside subranks): translated code reaches its copy
// of a privatized global through tucana_priv_delta() (tucana/privatize.h), a
// `const` call that returns it (initial-exec: defined in the executable).
// Set at each switch from the running fiber's actor (install_run_hook,
// below), and by OpenMP threads from the subrank that started them.
extern "C" __attribute__((tls_model("initial-exec"))) __thread std::ptrdiff_t tucana_priv_current_delta;

namespace tucana::mpi {

// A subrank's distance from the image to its copy is a multiple of this, so
// every privatized variable keeps its alignment (up to 2 MiB) in every copy.
constexpr std::size_t kPrivateCopyAlign = std::size_t{2} << 20;

// Copies [begin, end) into a new block at a distance that is a multiple of
// kPrivateCopyAlign and sets *delta to the distance (copy - begin); sets 0
// and makes no block for an empty range. Returns false when there is no
// memory for the block. The block is never freed (privatize.cc says why).
// Contract: begin <= end, both null or both in one mapped range.
bool copy_private_image(const char* begin, const char* end, std::ptrdiff_t* delta);

// A copy of the program's own image [__start_tucana_priv, __stop_tucana_priv)
// (copy_private_image); *delta = 0 when the program has no privatized
// variable.
bool make_private_copy(std::ptrdiff_t* delta);

// Runs every initializer registered with tucana_priv_add_init, in the order
// of registration, after making the subrank's copies of the shared
// libraries loaded so far (run_module_inits). Contract: on the subrank's own
// fiber (its delta in effect), before its main.
void run_private_inits();

struct Subrank;

// Makes the scheduler give a worker's thread, at each switch, the view of
// the program that the actor about to run has (sched::g_run_hook): its
// subrank's privatized globals (tucana_priv_current_delta, 0 for no
// subrank), then whatever g_subrank_run_hook adds. Call before the
// scheduler runs; once per process (any later call changes nothing).
void install_run_hook();
// Called by the run hook on the thread about to run a fiber of subrank `s`
// (any of its fibers), after its globals are in view: omp/threadprivate.cc
// sets it when the program has threadprivate variables (the thread's copies
// then take the running subrank's values). Null otherwise. Set at any time
// (a module loaded later).
extern std::atomic<void (*)(Subrank* s)> g_subrank_run_hook;

// Shared libraries' images (priv_modules.cc; tucana/privatize.h, "Shared
// libraries"). Weak: the unit tests link privatize.cc without them.
// Makes the running subrank's copy of every shared library registered so
// far, running each one's initializers, in registration order.
__attribute__((weak)) void run_module_inits();
// tucana_priv_extern for an address outside the executable's image: the
// running subrank's copy when it is in a shared library's image, else p.
__attribute__((weak)) void* module_extern(char* p);

// Destructor calls registered by one subrank (tucana_priv_atexit).
class AtexitList {
 public:
  using Fn = void (*)(void*);
  // Any thread: a helper fiber of the subrank may run on another worker.
  // Contract: fn is not null.
  void push(Fn fn, void* arg);
  // Makes and removes the calls, the latest first; a call registered by one
  // of them meanwhile runs next (as with __cxa_atexit). Contract: on the
  // subrank's own fiber. Reentrant: exit() inside a call goes on with the
  // calls left.
  void run_all();
  bool empty();

 private:
  // The calls run without it (they may register more, or exit()).
  sync::Mutex mutex_{sync::LockLevel::kLeaf, "atexit calls of a subrank"};
  std::vector<std::pair<Fn, void*>> calls_ TUCANA_GUARDED_BY(mutex_);
};

}  // namespace tucana::mpi
