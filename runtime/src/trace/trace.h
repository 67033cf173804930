// Tracing: a per-worker timeline of what each core did (subranks running,
// regions with their subrank and iteration, idle time, MPI progress),
// written as Chrome trace / Perfetto JSON, and a utilization summary.
//
// Off unless TUCANA_TRACE names a file; then each worker appends events to
// its own buffer (no locks: a worker records only what its own thread did).
#pragma once

#include <cstdint>
#include <string>

namespace tucana::trace {

namespace detail {
extern bool g_enabled;
}

// True when tracing is on. Cheap: call sites test it before anything else.
inline bool enabled() { return detail::g_enabled; }

// Monotonic time in nanoseconds (the same clock in every process of a host).
std::int64_t now_ns();

// Turns tracing on for `workers` workers of process `process`.
void start(int process, int workers);

// Records a span on worker `worker`. `name` must outlive the trace (a
// literal or a region name from the translated program's tables).
// Contract: called on the thread of that worker (or before it runs).
void span(int worker, const char* category, const char* name, std::int64_t begin_ns, std::int64_t end_ns,
          int subrank = -1, long iteration = -1);
// A span of a running subrank (its name is made from the number).
void subrank_span(int worker, int subrank, std::int64_t begin_ns, std::int64_t end_ns);
// A span of a running task of a subrank (tasks/task.h): named by its label
// (null: "task"), with the subrank and the task's number as arguments.
void task_span(int worker, int subrank, int task, const char* label, std::int64_t begin_ns, std::int64_t end_ns);

// A fiber woken `latency_ns` ago (Scheduler::unpark) starts running on
// worker `worker`: the cost between a completion and the code it enables.
// finish() prints their median and 90th percentile.
void wake_latency(int worker, std::int64_t latency_ns);
// Writes the events to `path` (when this is the only process) or to
// `path.<process>.part` (tucana-run merges the parts into `path`), and
// prints the utilization of each worker and the wake-up latency to stderr.
void finish(const std::string& path, int nprocs);

}  // namespace tucana::trace
