// The process: starts each layer of the runtime in turn, creates this
// process's subranks and runs them; the program's exit(). The top of the
// runtime's layers (docs/runtime.md, "Layers"): the one place that knows
// them all.
#include <dlfcn.h>
#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/output.h"
#include "core/privatize.h"
#include "core/runtime.h"
#include "core/signals.h"
#include "mpi/comm/communicator.h"
#include "mpi/deadlock.h"
#include "omp/threadprivate.h"
#include "tasks/task.h"
#include "trace/trace.h"

namespace tucana::mpi {

namespace {

// True when worker threads outnumber the cores they may run on: a process
// bound to fewer cores than the machine has (the launcher's binding) counts
// its own; an unbound one counts every process of the job on this node (the
// launcher tells how many: Open MPI, MPICH/Hydra and PMI set these).
bool worker_threads_oversubscribe(int workers) {
  int machine = static_cast<int>(std::thread::hardware_concurrency());
  cpu_set_t set;
  int allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : machine;
  if (allowed <= 0) return false;
  if (allowed < machine) return workers > allowed;
  int local_processes = 1;
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"}) {
    if (const char* v = std::getenv(var); v && std::atoi(v) > 0) {
      local_processes = std::atoi(v);
      break;
    }
  }
  return static_cast<long>(workers) * local_processes > allowed;
}


void print_error_once(const Runtime& rt, const std::string& message) {
  if (rt.transport.rank() == 0) std::fprintf(stderr, "tucana: error: %s\n", message.c_str());
}

// The process's own exit. exit() called by a subrank ends only that subrank
// (Runtime::exit_called, through the exit() of main.cc); this handler only
// meets an exit that bypassed it (libc's own, from inside a library), which
// is fine once every subrank here has reached MPI_Finalize and would
// otherwise silently kill the other subranks, so it is then an error.
void on_process_exit() {
  Runtime* rt = Runtime::instance();
  if (!rt || rt->mpi_finalized || rt->aborting()) return;
  if (rt->all_finalized.load()) {
    rt->mpi_finalized = true;
    rt->transport.finalize();
    return;
  }
  Subrank* me = current_subrank();
  int waiting = rt->layout.local_count() - rt->finalized_count.load();
  std::fprintf(stderr,
               "tucana: error: exit() called%s%d while %d subrank(s) of this process have not reached "
               "MPI_Finalize; exit() ends the whole process and every subrank in it (return from "
               "main instead)\n",
               me ? " by subrank " : " with subrank ", me ? me->world : -1, waiting);
  rt->transport.abort(1);
}

}  // namespace

void Runtime::exit_called(int status) {
  Runtime* rt = instance_;
  Subrank* me = rt && !rt->aborting_.load() ? current_subrank() : nullptr;
  if (!me) return;
  if (tasks::Task* t = tasks::current_task()) {
    // As exit() on a thread of an MPI process: the process (here, the job) ends.
    std::fprintf(stderr, "tucana: error: task %d ('%s') of subrank %d called exit(%d): the job ends\n", t->id,
                 t->label, me->world, status);
    rt->abort(status != 0 ? status : 1);
  }
  if (sched::Scheduler::current_fiber() != me->fiber) {
    // A helper fiber (a user reduction inside a non-blocking collective):
    // it cannot stand for its subrank, so the job ends.
    std::fprintf(stderr, "tucana: error: subrank %d called exit(%d) inside a non-blocking collective\n",
                 me->world, status);
    rt->abort(status != 0 ? status : 1);
  }
  if (status != 0 && !me->finalized) {
    std::fprintf(stderr,
                 "tucana: error: subrank %d called exit(%d) before MPI_Finalize: the job ends with status %d\n",
                 me->world, status, status);
    rt->abort(status);
  }
  tasks::wait_for_children("exit");  // its tasks may use its stack
  me->priv_atexit.run_all();  // (an exit() in one of them comes back here)
  flush_subrank_output(me);
  me->exit_code = status;
  me->finished = true;
  if (!me->finalized) rt->subrank_finalized(me);
  me->fiber->finish_now();
}

void Runtime::subrank_entry(void* arg) {
  auto* s = static_cast<Subrank*>(arg);
  Runtime& rt = get();
  run_private_inits();
  s->exit_code = rt.main_(static_cast<int>(s->args.size()), s->argv.data(), rt.envp_);
  tasks::wait_for_children("the end of main");  // a rank ends after its tasks
  s->priv_atexit.run_all();
  flush_subrank_output(s);
  s->finished = true;
  if (!s->finalized) rt.subrank_finalized(s);
}

int Runtime::run(int argc, char** argv, char** envp, UserMain main) {
  static Runtime rt;  // lives until exit: atexit handlers may still need it
  rt.main_ = main;
  rt.envp_ = envp;
  std::string error;
  if (!Config::from_environment(&rt.config, &error)) {
    std::fprintf(stderr, "tucana: error: %s\n", error.c_str());
    return 1;
  }
  install_subrank_output(rt.config.tag_output, rt.config.output_directory);
  install_signal_handlers();
  const comm::Progress progress = rt.config.progress == Config::ProgressMode::kWorker ? comm::Progress::kWorker
                                  : rt.config.progress == Config::ProgressMode::kMultiple
                                      ? comm::Progress::kMultiple
                                      : comm::Progress::kAny;
  if (!rt.transport.init(&argc, &argv, rt.config.workers > 1, progress, &error)) {
    print_error_once(rt, error);
    rt.transport.abort(1);
  }
  instance_ = &rt;
  int nprocs = rt.transport.size();
  int total = rt.config.vranks > 0 ? rt.config.vranks : nprocs * rt.config.workers * rt.config.vf;
  if (!comm::Layout::compute(total, nprocs, rt.transport.rank(), rt.config.workers, &rt.layout, &error)) {
    print_error_once(rt, "impossible layout: " + error);
    rt.transport.abort(1);
  }
  if (!rt.transport.configure(rt.layout, &error)) {
    print_error_once(rt, error);
    rt.transport.abort(1);
  }
  rt.messenger = std::make_unique<comm::Messenger>(rt.layout, rt.transport, rt.config.eager_limit);
  sched::SchedulerConfig sc;
  sc.workers = rt.config.workers;
  sc.stack_size = rt.config.stack_size;
  // One process decides about deadlocks alone (the scheduler's stall check);
  // several agree through the detector (mpi/deadlock.h).
  sc.stall_timeout_s = nprocs == 1 ? rt.config.deadlock_timeout : 0;
  // A program with OpenMP threadprivate variables keeps each subrank on its
  // worker: compilers keep a thread-local's address across calls (clang
  // does for threadprivate), so a subrank resumed on another thread would
  // use the first thread's copies (omp/threadprivate.cc swaps the values
  // per subrank on each thread, not the addresses).
  sc.steal = rt.config.steal && !omp::threadprivate_in_use();
  sc.process_wide_priority = rt.config.process_wide_priority;
  sc.wake_on_waker = rt.config.wake_on_waker;
  sc.policy = rt.config.policy;
  sc.randomized = rt.config.sched_randomized;
  // Each process draws its own sequence from the one seed.
  sc.seed = sched::mix_seed(rt.config.sched_seed) ^ static_cast<std::uint64_t>(rt.transport.rank());
  sc.oversubscribed = rt.config.oversubscribed >= 0 ? rt.config.oversubscribed == 1
                                                    : worker_threads_oversubscribe(rt.config.workers);
  rt.scheduler = std::make_unique<sched::Scheduler>(sc);
  if (nprocs > 1 && rt.config.deadlock_timeout > 0) rt.detector = std::make_unique<DeadlockDetector>(rt);
  if (nprocs > 1) {
    rt.scheduler->set_poll_hook([] {
      Runtime& r = get();
      if (!r.transport.may_call_mpi()) return false;  // --progress worker, off worker 0
      bool moved = r.transport.poll();
      if (r.detector) r.detector->poll();
      return moved;
    });
    rt.scheduler->set_in_flight_counter(&rt.transport.in_flight());
    if (progress == comm::Progress::kWorker) {
      // Only worker 0 (this thread, which initialized MPI) progresses MPI:
      // it alone polls at every switch and stays awake while anything is in
      // flight or queued for it; the others are woken only for fibers.
      for (int w = 1; w < rt.config.workers; ++w) rt.scheduler->worker(w).set_in_flight_counter(nullptr);
      rt.transport.set_wake_communicator(
          [](void* s) { static_cast<sched::Scheduler*>(s)->worker(0).wake(); }, rt.scheduler.get());
    }
  }
  rt.scheduler->set_stall_handler([] { get().report_deadlock(); });

  for (int i = 0; i < rt.layout.local_count(); ++i) {
    auto s = std::make_unique<Subrank>();
    s->world = rt.layout.first_local() + i;
    s->local = i;
    s->worker = rt.layout.worker_of_local(i);
    s->handles = LayerState<Handles>(new Handles, [](Handles* h) { delete h; });
    s->handles->init(s->world, rt.layout.total);
    // Copied now, before any subrank runs: every copy starts from the image
    // as the program's static initialization left it.
    if (!make_private_copy(&s->priv_delta)) {
      std::fprintf(stderr, "tucana: error: no memory for subrank %d's copy of the privatized variables\n", s->world);
      rt.transport.abort(1);
    }
    s->args.assign(argv, argv + argc);
    for (auto& a : s->args) s->argv.push_back(a.data());
    s->argv.push_back(nullptr);
    s->fiber = rt.scheduler->spawn(s->worker, &Runtime::subrank_entry, s.get(),
                                   "subrank " + std::to_string(s->world));
    s->fiber->actor = s.get();  // (no worker runs yet: Scheduler::run below)
    s->fiber->trace_id = s->world;
    s->fiber->priority = ready_priority(*s, 0);  // (center: the non-boundary ones first)
    rt.subranks.push_back(std::move(s));
  }
  std::atexit(&on_process_exit);
  if (!rt.config.trace_file.empty()) {
    rt.trace_file_ = rt.config.trace_file;
    trace::start(rt.layout.my_proc, rt.config.workers);
  }

  install_run_hook();
  rt.scheduler->run();
  // Every subrank here has ended: wait (taking part in the detector's
  // rounds) until every process has, or a deadlock elsewhere is agreed.
  if (rt.detector) rt.detector->wait_for_all();
  rt.write_trace();

  int status = 0;
  for (auto& s : rt.subranks)
    if (s->exit_code != 0 && status == 0) status = s->exit_code;
  rt.mpi_finalized = true;
  rt.transport.finalize();
  return status;
}

}  // namespace tucana::mpi

// tucana-run looks for this string to tell a Tucana program from one built
// with plain mpicc (it survives strip: it is data, not a symbol).
extern "C" __attribute__((used)) const char tucana_runtime_marker[] = "TUCANA-RUNTIME: built with tucanacc";

// exit() for the whole program: this definition, linked into the executable,
// comes before libc's. exit() on a subrank must not run the process's exit
// handlers there: they would run on the subrank's fiber stack, and the
// runtime's own destructors unmap that stack. It ends the subrank instead
// (Runtime::exit_called); the process exits once, from the main thread's
// stack, when the last subrank has ended.
extern "C" void exit(int status) noexcept {
  tucana::mpi::Runtime* rt = tucana::mpi::Runtime::instance();
  if (rt && rt->aborting()) {
    // MPI_Abort's own exit (MPICH's, in a one-process job), maybe on a fiber's
    // stack: the job is over, no exit handlers.
    std::fflush(nullptr);
    std::_Exit(status);
  }
  tucana::mpi::Runtime::exit_called(status);  // returns only outside subranks
  using ExitFunction = void (*)(int);
  static auto libc_exit = reinterpret_cast<ExitFunction>(dlsym(RTLD_NEXT, "exit"));
  if (!libc_exit) std::_Exit(status);
  libc_exit(status);
  __builtin_unreachable();
}
