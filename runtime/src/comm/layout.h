// Where each subrank lives: which process, and which worker within it.
#pragma once

#include <string>
#include <vector>

namespace tucana::comm {

// N subranks over P processes and W workers per process, in contiguous blocks
// (so that neighbouring ranks are siblings): process p holds world ranks
// [proc_first[p], proc_first[p+1]); within a process, worker w holds local
// indices [worker_first[w], worker_first[w+1]). Blocks differ by at most one.
struct Layout {
  int total = 0;
  int nprocs = 1;
  int my_proc = 0;
  int workers = 1;
  std::vector<int> proc_first;    // nprocs + 1 entries
  std::vector<int> worker_first;  // workers + 1 entries, for this process

  int first_local() const { return proc_first[my_proc]; }
  int local_count() const { return proc_first[my_proc + 1] - proc_first[my_proc]; }
  int max_local_count() const;
  int proc_of(int world) const;
  int local_of(int world) const { return world - proc_first[proc_of(world)]; }
  bool is_local(int world) const {
    return world >= proc_first[my_proc] && world < proc_first[my_proc + 1];
  }
  int worker_of_local(int local) const;

  // Computes the layout, or returns false with `error` saying why it is
  // impossible (fewer subranks than workers, ...).
  static bool compute(int total, int nprocs, int my_proc, int workers, Layout* out,
                      std::string* error);
};

}  // namespace tucana::comm
