// Deadlock detection across processes.
//
// A deadlock is reported only when every subrank of every process is blocked
// and no message is in flight anywhere, never because one process waits for
// another that computes. The processes agree on it through the real MPI:
//
// A process takes part in a *round* when it is quiescent (every live fiber
// parked or polling without progress, no receive in progress) for at least
// the deadlock timeout, or when its subranks have all ended. It contributes,
// with one MPI_Iallreduce(SUM) on a communicator of the detector's own:
//   not_done  1 while any of its subranks is running,
//   active    1 unless it stayed quiescent, with no progress at all, since
//             its contribution to the previous round,
//   sent      the real messages it has sent so far,
//   received  the real messages it has received so far.
// A process that is busy does not contribute, so a round cannot complete
// while anyone computes. Rounds are taken in order, one at a time.
//
// A round that ends with not_done == 0: every process has ended; they
// finalize. A round with active == 0 and sent == received: a deadlock. Why:
// let a_p and b_p be process p's contributions to the previous round and to
// this one. Each b_p comes after the previous round completed, i.e. after
// every a_q; so t* = max_q a_q lies inside every [a_p, b_p]. active == 0
// says no process saw progress inside its interval, so at t* every process
// was quiescent and its counters were those it contributed; sent == received
// then says no message was in flight at t*. Blocked subranks with nothing in
// flight stay blocked: the state at t* is a deadlock.
//
// The report: every process sends the lines of its blocked subranks to
// process 0, which prints them under one header; the job ends with status 2.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "comm/transport.h"
#include "sync/mutex.h"

namespace tucana::mpi {

class Runtime;

class DeadlockDetector {
 public:
  // Contract: the runtime has more than one process and a timeout > 0.
  explicit DeadlockDetector(Runtime& rt);

  // Called from the poll hook (any worker, often): takes part in rounds
  // while this process is quiescent. Cheap when there is nothing to do.
  void poll();
  // Called once this process's subranks have all ended: takes part in
  // rounds until every process has ended (returns) or a deadlock is agreed
  // (reports it and ends the job).
  void wait_for_all();

 private:
  // One step of the protocol; true once a round says every process ended.
  bool step(bool done) TUCANA_EXCLUDES(mutex_);
  [[noreturn]] void report();

  Runtime& rt_;
  // One thread at a time runs the protocol; it calls the transport (an inner
  // level) under this lock.
  sync::Mutex mutex_{sync::LockLevel::kDeadlock, "deadlock detector"};
  std::int64_t timeout_ns_;
  std::int64_t retry_ns_;            // quiescent time between inconclusive rounds
  bool outstanding_ TUCANA_GUARDED_BY(mutex_) = false;         // a contribution awaits its round's result
  std::int64_t since_contributed_ TUCANA_GUARDED_BY(mutex_) = -1;  // quiescent_since at the last contribution
  // Written under mutex_; poll() reads it without, on any worker, to skip
  // the lock (relaxed: step() looks again under the lock).
  std::atomic<std::int64_t> next_step_ns_{0};
  long long rounds_ TUCANA_GUARDED_BY(mutex_) = 0;
};

// The lines of a deadlock report for the subranks of this process that have
// not ended ("  subrank R (worker W): MPI_Recv(source=..., tag=..., comm=...)").
std::string blocked_subrank_lines(const Runtime& rt);

}  // namespace tucana::mpi
