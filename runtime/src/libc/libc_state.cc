// Per-subrank libc state: where a State lives, and the entry points of
// tucana/privatize.h other than the getopt functions (getopt.cc).
#include "libc/libc_state.h"

#include <tucana/privatize.h>

#include <cassert>
#include <cstring>

#include "core/runtime.h"

namespace tucana::libc {

RandomState::RandomState() {
  // initstate_r() saves the type of the previous state into it when
  // data_.state is set: it must start zeroed.
  std::memset(&data_, 0, sizeof data_);
  // glibc's own table is initialized as by initstate(1, table, 128).
  int rc = initstate_r(1, reinterpret_cast<char*>(state_), sizeof state_, &data_);
  assert(rc == 0);
  (void)rc;
}

void RandomState::seed(unsigned int seed) {
  sync::MutexLock lock(mutex_);
  int rc = srandom_r(seed, &data_);
  assert(rc == 0);
  (void)rc;
}

std::int32_t RandomState::next() {
  sync::MutexLock lock(mutex_);
  std::int32_t result = 0;
  int rc = random_r(&data_, &result);
  assert(rc == 0);
  (void)rc;
  return result;
}


State& current_state() {
  mpi::Subrank* s = mpi::current_subrank();
  // A thread the subrank started (OpenMP, pthread_create) shares its state,
  // which the subrank created before starting it (omp::capture).
  if (!s) s = mpi::thread_subrank();
  if (!s) {
    // Never destroyed: exit handlers and the program's threads may still
    // use it while static objects are being destroyed.
    static State* const process_wide = new State;
    return *process_wide;
  }
  if (!s->libc) s->libc = mpi::LayerState<State>(new State, [](State* state) { delete state; });
  return *s->libc;
}

}  // namespace tucana::libc

using tucana::libc::current_state;

extern "C" {

int* tucana_priv_optind(void) { return &current_state().getopt.optind; }
char** tucana_priv_optarg(void) { return &current_state().getopt.optarg; }
int* tucana_priv_opterr(void) { return &current_state().getopt.opterr; }
int* tucana_priv_optopt(void) { return &current_state().getopt.optopt; }

// glibc's rand() is random() and srand() is srandom(): one generator.
int tucana_rand(void) { return current_state().random.next(); }
void tucana_srand(unsigned int seed) { current_state().random.seed(seed); }
long tucana_random(void) { return current_state().random.next(); }
void tucana_srandom(unsigned int seed) { current_state().random.seed(seed); }

char* tucana_strtok(char* str, const char* delim) {
  return strtok_r(str, delim, &current_state().strtok_save);
}

}  // extern "C"
