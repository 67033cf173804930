/* Tasks inside a rank: the TPOD model and the hybrid model.
 *
 * A rank (a subrank of the virtual MPI) spawns tasks: functions that run as
 * fibers on the workers of its process, on any worker (idle workers steal
 * them), while the rank goes on. A task acts for its rank: it may call any
 * supported MPI function; a message it sends comes from its rank, matching
 * is MPI's (source, tag, communicator), and a blocking call suspends only
 * the task. Tasks of one rank may depend on each other, through the data
 * they name (as OpenMP's depend clauses) or through task handles; a task
 * starts once every task it depends on has finished (a join counter).
 *
 * Usage (the #pragma tucana task / taskwait / taskloop forms translate into
 * these calls; see docs/tasks.md):
 *
 *   struct face_args { double *plane; int peer; };
 *   static void send_face(void *p) {
 *     struct face_args *a = p;
 *     MPI_Send(a->plane, n, MPI_DOUBLE, a->peer, 0, MPI_COMM_WORLD);
 *   }
 *   ...
 *   struct face_args a = {plane, up};
 *   tucana_task_spawn(send_face, &a, sizeof a, NULL);  // `a` is copied
 *   tucana_taskwait();                                 // all children done
 *
 * Contracts for every function here: called by a rank or by one of its
 * tasks (not by a helper of a non-blocking collective, not outside the
 * runtime). Under plain MPI (no Tucana runtime) this header is not usable:
 * the annotated form is, since a plain compiler ignores the pragmas. C and
 * C++. */
#ifndef TUCANA_TASK_H
#define TUCANA_TASK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A task, for depending on it or waiting for it. Valid from its spawn until
 * the taskwait of its parent (the rank or task that spawned it) that waits
 * for it; using it afterwards is an error. */
typedef struct tucana_task *tucana_task_t;

/* depend(in: x), depend(out: x), depend(inout: x): among the tasks that one
 * parent spawns, a task that names x as `out` or `inout` runs after every
 * earlier sibling naming x (in or out); one naming x `in` runs after the
 * earlier siblings naming x `out`/`inout`. x is identified by its address. */
enum tucana_dep_kind { TUCANA_DEP_IN = 1, TUCANA_DEP_OUT = 2, TUCANA_DEP_INOUT = 3 };

typedef struct tucana_task_dep {
  const void *addr;
  int kind; /* an enum tucana_dep_kind */
} tucana_task_dep;

typedef struct tucana_task_attr {
  /* Higher runs first among the ready fibers of the process (default 0). */
  int priority;
  /* 1: a boundary task (its data crosses processes): runs before the
   * others of its priority. 0: learnt: a task whose counterpart (same
   * function, same place in its parent's spawn order) of the previous
   * taskwait epoch talked to another process counts as a boundary task. -1:
   * never. */
  int boundary;
  const tucana_task_dep *deps; /* ndeps entries (may be null when 0) */
  int ndeps;
  const tucana_task_t *after; /* tasks of the same parent to run after */
  int nafter;
  /* A label for deadlock reports and traces (a string that outlives the
   * task, e.g. a literal); null: the function's address. */
  const char *name;
} tucana_task_attr;

#define TUCANA_TASK_ATTR_INIT {0, 0, NULL, 0, NULL, 0, NULL}

/* Spawns fn(copy) as a task of the calling rank (or a child of the calling
 * task), where copy is a copy of the arg_size bytes at arg (arg may be a
 * local: the task gets its own copy, as OpenMP's firstprivate); with
 * arg_size 0, fn gets arg itself. `attr` may be null (defaults). Returns
 * its handle. The task starts once its dependencies have finished; a
 * subrank has at most a few thousand tasks started at once (memory
 * mappings: see docs/tasks.md), later ones wait for a slot. Contract:
 * arg_size == 0 or arg is not null. */
tucana_task_t tucana_task_spawn(void (*fn)(void *), const void *arg, size_t arg_size, const tucana_task_attr *attr);

/* Suspends the caller (only it: its worker runs other fibers) until every
 * task it has spawned has finished, nested tasks included (a task finishes
 * after its own children). Handles of those tasks end here. */
void tucana_taskwait(void);

/* Suspends the caller until task `t` (a child of the caller) has finished. */
void tucana_task_wait(tucana_task_t t);

/* The number of tasks per rank the run asked for (tucana-run --tasks V,
 * TUCANA_TASKS; default 1): what taskloop makes without num_tasks or
 * grainsize. */
int tucana_num_tasks(void);

/* The calling task's number within its rank (1, 2, ... in spawn order), or
 * 0 when the rank's own code calls it. */
int tucana_task_id(void);

/* The taskloop helper: splits [0, n) into `num_tasks` contiguous chunks
 * (tucana_num_tasks() when num_tasks <= 0; chunks of `grainsize` iterations
 * when grainsize > 0 instead), spawns body(lo, hi, arg copy) for each, and
 * waits for them (an implicit taskgroup, as OpenMP's taskloop). Chunks
 * differ in size by one iteration at most. Contract: n >= 0; not both
 * num_tasks > 0 and grainsize > 0. */
void tucana_taskloop(long long n, long long num_tasks, long long grainsize,
                     void (*body)(long long lo, long long hi, void *arg), const void *arg, size_t arg_size,
                     const tucana_task_attr *attr);

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_TASK_H */
