/* A stand-in for the task runtime, for the golden tests that run translated
 * programs before (or without) the real one: tasks are copied at the spawn
 * and run later, at the parent's next taskwait (so a task that read its
 * captures late, or wrote a copy where it should write the parent's
 * variable, gives a wrong result); taskloop chunks run last chunk first.
 * Every spawn and taskloop is logged to stderr with its attributes. Also
 * tucana_priv_delta() (no subranks: the image is the copy). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tucana/task.h>

struct pending {
  void (*fn)(void *);
  void *arg;
};
static struct pending queue[1024];
static int queued;

static void log_attr(const char *what, const tucana_task_attr *attr) {
  fprintf(stderr, "%s name=%s priority=%d boundary=%d ndeps=%d", what, attr && attr->name ? attr->name : "-",
          attr ? attr->priority : 0, attr ? attr->boundary : 0, attr ? attr->ndeps : 0);
  for (int i = 0; attr && i < attr->ndeps; i++)
    fprintf(stderr, " %s", attr->deps[i].kind == TUCANA_DEP_IN ? "in" : attr->deps[i].kind == TUCANA_DEP_OUT ? "out" : "inout");
  fprintf(stderr, "\n");
}

tucana_task_t tucana_task_spawn(void (*fn)(void *), const void *arg, size_t arg_size, const tucana_task_attr *attr) {
  log_attr("spawn", attr);
  void *copy = malloc(arg_size ? arg_size : 1);
  if (arg_size) memcpy(copy, arg, arg_size);
  if (queued == 1024) abort();
  queue[queued].fn = fn;
  queue[queued].arg = copy;
  queued++;
  return NULL;
}

void tucana_taskwait(void) {
  /* Tasks that tasks spawn join the queue and run in this loop too. */
  for (int i = 0; i < queued; i++) {
    queue[i].fn(queue[i].arg);
    free(queue[i].arg);
  }
  queued = 0;
}

void tucana_taskloop(long long n, long long num_tasks, long long grainsize,
                     void (*body)(long long lo, long long hi, void *arg), const void *arg, size_t arg_size,
                     const tucana_task_attr *attr) {
  long long chunks = grainsize > 0 ? (n + grainsize - 1) / grainsize : num_tasks > 0 ? num_tasks : 3;
  if (chunks > n) chunks = n;
  fprintf(stderr, "taskloop n=%lld chunks=%lld", n, chunks);
  log_attr("", attr);
  for (long long c = chunks - 1; c >= 0; c--) {
    long long lo = n * c / chunks, hi = n * (c + 1) / chunks;
    void *copy = malloc(arg_size ? arg_size : 1);
    if (arg_size) memcpy(copy, arg, arg_size);
    body(lo, hi, copy);
    free(copy);
  }
}

ptrdiff_t tucana_priv_delta(void) { return 0; }
