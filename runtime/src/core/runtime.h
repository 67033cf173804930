// The process-wide state of the virtual MPI: configuration, layout, the
// transport, the messenger, the scheduler, and the subranks of this process.
#pragma once

#include <tucana/tmpi.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "comm/layout.h"
#include "comm/messenger.h"
#include "comm/transport.h"
#include "config.h"
#include "core/output.h"
#include "core/privatize.h"
#include "sched/scheduler.h"
#include "sync/mutex.h"

namespace tucana::regions {
class SuperblockRun;
struct Instance;
}  // namespace tucana::regions

// What the layers above the core keep per subrank (core/runtime.h names
// them, never includes them): its tasks, its libc state, its communicators.
namespace tucana::tasks {
struct RankTasks;
}  // namespace tucana::tasks
namespace tucana::libc {
struct State;
}  // namespace tucana::libc

namespace tucana::mpi {

struct Handles;
class DeadlockDetector;

// A layer's state kept by a lower layer's record: made by the layer above,
// which knows its type and gives the function that deletes it, so that the
// record can be destroyed with no link to that layer (null: none yet).
template <typename T>
using LayerState = std::unique_ptr<T, void (*)(T*)>;

template <typename T>
LayerState<T> no_layer_state() {
  return LayerState<T>(nullptr, [](T*) {});
}

// What a blocked subrank waits in, for the deadlock report.
struct BlockedIn {
  const char* call = nullptr;   // the MPI call the program made, e.g. "MPI_Waitall"
  const char* op = nullptr;     // the operation it waits for, e.g. "MPI_Irecv" (may equal call)
  const char* peer_label = "source";  // "source" or "dest"; null: a collective (no peer)
  int peer = 0;                 // rank in `comm` (or MPI_ANY_SOURCE / MPI_PROC_NULL)
  int tag = 0;
  TMPI_Comm comm = TMPI_COMM_NULL;
  const char* note = nullptr;   // free text instead of the fields above (superblocks)
};

struct Subrank;

// What runs MPI calls on a fiber of its own: a subrank (its main) or one of
// its tasks (tasks/task.h), each with its own record of what it waits in.
// A fiber names the actor whose work it runs (Fiber::actor): the subrank's
// own fiber and its helper fibers name the subrank, a task's fiber the task.
// `blocked` and `polling` are written by its own fiber; read by the deadlock
// report (mpi/deadlock.h).
struct Actor {
  // The subrank it works for: itself for a subrank, set once when made.
  Subrank* subrank = nullptr;
  BlockedIn blocked;      // valid while blocked.call != nullptr
  bool polling = false;   // in a loop of unsuccessful MPI_Test/MPI_Iprobe calls
};

struct Subrank : Actor {
  Subrank() { subrank = this; }
  // Its copy of the privatized variables: the distance from their image
  // (tucana_priv_delta), and its tucana_priv_atexit calls (core/privatize.h).
  std::ptrdiff_t priv_delta = 0;
  AtexitList priv_atexit;
  int world = 0;   // rank in MPI_COMM_WORLD
  int local = 0;   // index within this process
  int worker = 0;
  fiber::Fiber* fiber = nullptr;
  bool initialized = false;
  bool finalized = false;
  bool finished = false;
  int exit_code = 0;
  int thread_level = TMPI_THREAD_SINGLE;
  // Its MPI sessions open now (mpi/comm/session.cc): with one, its MPI calls are
  // allowed before MPI_Init. Its own fiber only.
  int sessions = 0;
  // The value MPI_Comm_get_attr(MPI_LASTUSEDCODE) points to: the subrank's
  // own, as another subrank may read its own at the same time.
  int last_used_code_attr = 0;
  int mpi_t_initialized = 0;  // MPI_T_init_thread minus MPI_T_finalize (mpi/tools.cc)
  // It has sent or received a point-to-point message of another process
  // (written by its own fiber): a boundary subrank (ready_priority).
  bool talks_remote = false;
  // Its communicators and groups (mpi/comm/communicator.h), made with the
  // subrank; null only in unit tests of the layers below MPI.
  LayerState<Handles> handles = no_layer_state<Handles>();
  // MPI_Buffer_attach's buffer, and how much of it buffered sends in flight
  // take (they complete on any thread).
  void* bsend_buffer = nullptr;
  int bsend_size = 0;
  std::atomic<long long> bsend_used{0};
  std::vector<std::string> args;   // each subrank has its own argv strings
  std::vector<char*> argv;
  // Superblocks being run (innermost last) and the region instance whose
  // code runs now: requests posted meanwhile belong to it.
  std::vector<regions::SuperblockRun*> superblocks;
  regions::Instance* current_instance = nullptr;
  std::int64_t region_since_ns = 0;  // tracing: when the current region began
  char wait_note[256] = {0};
  SubrankOutput output;   // its pending output lines (core/output.h)
  // Its rand(), strtok() and getopt() state (libc/libc_state.h), made on first use.
  LayerState<libc::State> libc = no_layer_state<libc::State>();
  // Its tasks (tasks/task.h), made by its first tucana_task_spawn.
  LayerState<tasks::RankTasks> tasks = no_layer_state<tasks::RankTasks>();
};

using UserMain = int (*)(int, char**, char**);

class Runtime {
 public:
  // The one runtime of this process; valid between start and exit of run().
  static Runtime& get() { return *instance_; }
  static Runtime* instance() { return instance_; }

  // Starts the real MPI, creates this process's subranks and runs `main` on
  // each; returns the process exit status.
  static int run(int argc, char** argv, char** envp, UserMain main);

  Config config;
  comm::Layout layout;
  comm::Transport transport;
  std::unique_ptr<comm::Messenger> messenger;
  std::unique_ptr<sched::Scheduler> scheduler;
  // Deadlocks across processes (more than one process, timeout > 0).
  std::unique_ptr<DeadlockDetector> detector;
  std::vector<std::unique_ptr<Subrank>> subranks;

  // Subranks of this process that have called MPI_Finalize or returned.
  std::atomic<int> finalized_count{0};
  std::atomic<bool> all_finalized{false};
  // The subranks waiting in MPI_Finalize for the others; they are unparked
  // under the lock.
  sync::Mutex finalize_mutex{sync::LockLevel::kFinalize, "finalize"};
  std::vector<fiber::Fiber*> finalize_waiters TUCANA_GUARDED_BY(finalize_mutex);
  bool mpi_finalized = false;

  // Ends the whole job with status `code`, after writing out pending output
  // lines and this process's --trace part.
  [[noreturn]] void abort(int code);
  bool aborting() const { return aborting_.load(); }
  // Writes this process's --trace part (or file), once; later calls do
  // nothing. Any thread; also from the signal handlers (best effort).
  void write_trace();
  // One process: prints what each blocked subrank waits in and aborts the
  // job (mpi/deadlock.cc; across processes, DeadlockDetector reports).
  [[noreturn]] void report_deadlock();
  // Called by a subrank when it has reached MPI_Finalize or returned.
  void subrank_finalized(Subrank* s);

  // exit(status) called by the program. On a subrank's own fiber it ends
  // that subrank as returning `status` from main would, and never returns;
  // a non-zero status before MPI_Finalize ends the whole job with that
  // status (as mpirun does when a rank exits non-zero). Returns only when the
  // caller is not a subrank (then the process itself exits). A subrank
  // that ends runs its tucana_priv_atexit calls first (not when the job
  // ends).
  static void exit_called(int status);

 private:
  static Runtime* instance_;
  std::string trace_file_;  // TUCANA_TRACE, empty when not tracing
  // Set by abort(): MPI_Abort may call exit() itself (MPICH does), which
  // must then end the process, not the subrank.
  std::atomic<bool> aborting_{false};
  std::atomic<bool> trace_written_{false};
  UserMain main_ = nullptr;
  char** envp_ = nullptr;
  static void subrank_entry(void* arg);
};

// The actor whose work fiber `f` runs (Fiber::actor), or null (no fiber,
// or one of the runtime's own).
inline Actor* fiber_actor(const fiber::Fiber* f) { return f ? static_cast<Actor*>(f->actor) : nullptr; }
// The subrank that fiber `f` works for (its own, a helper's, a task's), or
// null.
inline Subrank* actor_subrank(const fiber::Fiber* f) {
  Actor* a = fiber_actor(f);
  return a ? a->subrank : nullptr;
}
// Whether actor `a` is one of its subrank's tasks (not the subrank itself).
inline bool is_task(const Actor& a) { return static_cast<const Actor*>(a.subrank) != &a; }

// The subrank running on the calling thread, or null outside any subrank.
Subrank* current_subrank();

// The subrank whose thread (an OpenMP thread, or a thread it started) runs
// on the calling thread, as set by set_thread_subrank (omp/threads.h); null
// on a subrank's own fiber and outside subranks.
Subrank* thread_subrank();
void set_thread_subrank(Subrank* s);

// Guards a polling subrank's Subrank::blocked: it rewrites it at each of its
// MPI calls (mpi::enter() clears it, mpi::note_polling sets it again) while
// the deadlock report may read it on another worker. Taken by those two and
// by blocked_subrank_lines (mpi/deadlock.h), nowhere else; takes no other
// lock while held.
sync::Mutex& polling_mutex();

// The scheduling priority of subrank `s`'s fiber when what it runs (or
// waits to run) has priority `priority` (a superblock region's; 0
// outside superblocks): 2 * priority, plus 1 for the subranks that the
// boundary order (Config::boundary_order) puts first among equals: the
// boundary subranks (first), the others (center), none (off). Tasks use the
// same scale (tasks/task.h).
inline int ready_priority(const Subrank& s, int priority) {
  int bonus = 0;
  switch (Runtime::get().config.boundary_order) {
    case Config::BoundaryOrder::kFirst: bonus = s.talks_remote ? 1 : 0; break;
    case Config::BoundaryOrder::kCenter: bonus = s.talks_remote ? 0 : 1; break;
    case Config::BoundaryOrder::kOff: break;
  }
  return 2 * priority + bonus;
}

}  // namespace tucana::mpi
