// Run-time configuration, read from TUCANA_* environment variables (which
// tucana-run sets from its command line). The variables, their kinds and
// their errors are the rows of run_options.def.
#pragma once

#include <cstddef>
#include <string>

namespace tucana {

struct Config {
  int workers = 1;               // TUCANA_WORKERS: worker threads per process
  int vf = 1;                    // TUCANA_VF: subranks per worker
  int vranks = 0;                // TUCANA_VRANKS: total subranks (overrides vf when > 0)
  // TUCANA_TASKS: tasks per rank the program is asked to make
  // (tucana_num_tasks(), the default of taskloop): the hybrid model.
  int tasks = 1;
  std::size_t stack_size = 8u << 20;  // TUCANA_STACK_SIZE: bytes per subrank stack
  double deadlock_timeout = 10;  // TUCANA_DEADLOCK_TIMEOUT: seconds, 0 = off
  std::size_t eager_limit = 64u << 10;  // TUCANA_EAGER_LIMIT: bytes
  bool steal = true;             // TUCANA_STEAL: idle workers run other workers' ready subranks
  // TUCANA_POLICY: the order of each worker's ready queue, the name of a
  // policy registered in sched/policy.cc: "priority" (the highest
  // superblock region priority first, FIFO among equals) or "fifo" (the
  // order subranks became ready, priorities ignored).
  std::string policy = "priority";
  // TUCANA_BOUNDARY: among ready subranks of equal priority, those that
  // exchange messages with other processes (learnt from their
  // point-to-point calls) run "first" (default), "off" (no preference) or
  // "center" (last: the slides' center-first control).
  enum class BoundaryOrder { kFirst, kOff, kCenter };
  BoundaryOrder boundary_order = BoundaryOrder::kFirst;
  // TUCANA_PRIORITY_SCOPE: "process" (default): a worker runs a ready
  // subrank of another worker of its process before its own when that one
  // ranks higher; "worker": each worker ranks only its own ready subranks
  // (sched::SchedulerConfig::process_wide_priority).
  bool process_wide_priority = true;
  // TUCANA_WAKE: "home" (default): a subrank woken by a completed request
  // is handed to its home worker; "waker": it runs on the worker that
  // completed the request (sched::SchedulerConfig::wake_on_waker).
  bool wake_on_waker = false;
  // TUCANA_PACK: "split" (default): a subrank packs strided data for
  // another process, and unpacks what it receives, on its own worker
  // outside the transport lock; "locked": inside it, as an MPI library
  // with a process-wide lock packs a derived datatype (the control).
  bool pack_under_lock = false;
  // TUCANA_PROGRESS: who calls the real MPI with several workers
  // (comm::Progress, docs/runtime.md "Progress engine"): "any" idle worker
  // polls and senders post at once (MPI_THREAD_SERIALIZED, the default),
  // "worker": only worker 0, the others hand it their operations
  // (MPI_THREAD_FUNNELED), "multiple": as any, but senders post without
  // waiting for the transport lock (MPI_THREAD_MULTIPLE).
  enum class ProgressMode { kAny, kWorker, kMultiple };
  ProgressMode progress = ProgressMode::kAny;
  // TUCANA_SCHED_SEED: a non-negative integer turns on seeded random
  // schedules (sched::SchedulerConfig::randomized), for testing; a failing
  // run is reproduced by its seed.
  bool sched_randomized = false;
  unsigned long long sched_seed = 0;
  // TUCANA_HELPER_STACK_SIZE: bytes per helper fiber (non-blocking
  // collectives and the user functions they call); default: 1M, or the
  // subrank stack size when that is smaller.
  std::size_t helper_stack_size = 0;  // 0: the default
  // TUCANA_TASK_STACK_SIZE: bytes per task fiber (tasks/task.h); default:
  // 256k, or the subrank stack size when smaller.
  std::size_t task_stack_size = 0;  // 0: the default
  // TUCANA_OVERSUBSCRIBED: 1 or 0 overrides the detection of more worker
  // threads on this machine than cores (the idle policy, sched/worker.cc).
  int oversubscribed = -1;  // -1: detect
  bool tag_output = false;       // TUCANA_TAG_OUTPUT=1: prefix each output line with "[R] "
  std::string output_directory;  // TUCANA_OUTPUT_FILENAME: each subrank's output in DIR/rank.R/
  std::string trace_file;        // TUCANA_TRACE: the timeline's file (empty: no trace)

  // Reads the environment. Returns false with `error` naming the variable
  // and the problem when a value is malformed.
  static bool from_environment(Config* out, std::string* error);

  // Parses "64k", "8M", "1g" or a plain byte count (binary multiples).
  static bool parse_size(const std::string& text, std::size_t* out);
};

}  // namespace tucana
