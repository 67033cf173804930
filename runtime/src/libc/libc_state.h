// libc state that MPI programs keep per rank, one copy per subrank
// (include/tucana/privatize.h, docs/runtime.md "libc state per subrank"):
// rand()/random()'s generator, strtok()'s position, and getopt()'s variables
// and parsing state. The tucana_* entry points (libc_state.cc, getopt.cc) use
// the running subrank's State, or one process-wide State outside subranks.
#pragma once

#include <stdlib.h>  // struct random_data

#include <cstdint>

#include "sync/mutex.h"

namespace tucana::libc {

// getopt()'s variables (what the program sees through tucana_priv_optind()
// etc., with libc's initial values) and its parsing state between calls.
struct GetoptState {
  int optind = 1;
  int opterr = 1;
  int optopt = '?';
  char* optarg = nullptr;

  // The scan, with glibc's own copies of the variables: glibc copies optind
  // and opterr in before each call and optind, optarg and optopt out after
  // it (so optopt reads 0, no longer '?', after a first call without error).
  struct Scan {
    int optind = 0;
    int opterr = 0;
    int optopt = 0;
    char* optarg = nullptr;
    // How non-options are treated; chosen when a scan starts (optind 0 or
    // the first call).
    enum class Ordering { kPermute, kRequireOrder, kReturnInOrder };
    bool initialized = false;
    Ordering ordering = Ordering::kPermute;
    // The rest of the current group of short options ("-abc"), or null.
    char* nextchar = nullptr;
    // Permutation: argv[first_nonopt, last_nonopt) are the non-options
    // skipped so far, to be moved behind the options that follow them.
    int first_nonopt = 0;
    int last_nonopt = 0;
  } scan;
};

// The generator of random()/rand(): glibc's TYPE_3 additive generator with
// its own 128-byte state, started as glibc's is (as if srandom(1)).
class RandomState {
 public:
  RandomState();
  RandomState(const RandomState&) = delete;  // data_ points into state_
  RandomState& operator=(const RandomState&) = delete;

  void seed(unsigned int seed);
  // A value in [0, RAND_MAX], the next of the sequence.
  std::int32_t next();

 private:
  // Serializes the subrank's helper fibers (and, for the process-wide state,
  // threads the program starts) with each other: random_r() on one state
  // from two threads at once can run its pointers past the table.
  sync::Mutex mutex_{sync::LockLevel::kLeaf, "random() state"};
  random_data data_ TUCANA_GUARDED_BY(mutex_);
  std::int32_t state_[32] TUCANA_GUARDED_BY(mutex_);  // 128 bytes, glibc's default degree (TYPE_3)
};

struct State {
  GetoptState getopt;
  RandomState random;
  char* strtok_save = nullptr;  // strtok_r()'s position
};

// The running subrank's State (made on its first use), or the process-wide
// one outside subranks (start-up code, exit handlers, the program's own
// threads). Contract: a subrank's State is used by its own fibers only.
State& current_state();

}  // namespace tucana::libc
