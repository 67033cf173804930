#include "comm/layout.h"

#include <algorithm>

namespace tucana::comm {

namespace {
std::vector<int> blocks(int items, int parts) {
  std::vector<int> first(static_cast<std::size_t>(parts) + 1, 0);
  for (int p = 0; p < parts; ++p) first[p + 1] = first[p] + items / parts + (p < items % parts ? 1 : 0);
  return first;
}
}  // namespace

int Layout::max_local_count() const {
  int m = 0;
  for (int p = 0; p < nprocs; ++p) m = std::max(m, proc_first[p + 1] - proc_first[p]);
  return m;
}

int Layout::proc_of(int world) const {
  auto it = std::upper_bound(proc_first.begin(), proc_first.end(), world);
  return static_cast<int>(it - proc_first.begin()) - 1;
}

int Layout::worker_of_local(int local) const {
  auto it = std::upper_bound(worker_first.begin(), worker_first.end(), local);
  return static_cast<int>(it - worker_first.begin()) - 1;
}

bool Layout::compute(int total, int nprocs, int my_proc, int workers, Layout* out,
                     std::string* error) {
  if (nprocs < 1 || workers < 1 || total < 1) {
    *error = "the number of processes, workers and subranks must all be at least 1";
    return false;
  }
  if (total < nprocs * workers) {
    *error = std::to_string(total) + " subranks cannot give every one of " + std::to_string(nprocs) +
             " processes x " + std::to_string(workers) + " workers at least one subrank";
    return false;
  }
  Layout l;
  l.total = total;
  l.nprocs = nprocs;
  l.my_proc = my_proc;
  l.workers = workers;
  l.proc_first = blocks(total, nprocs);
  l.worker_first = blocks(l.local_count(), workers);
  *out = std::move(l);
  return true;
}

}  // namespace tucana::comm
