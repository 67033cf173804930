// GCC's OpenMP entry points that start a team (libgomp's, or libomp's GOMP_*
// for gcc-compiled code), and pthread_create: each thread they start runs
// the outlined function through a trampoline that installs the starting
// subrank's view (threads.h) and puts the thread's own back afterwards.
//
// These definitions are in the executable (libtucana.a), so the program's
// calls bind to them; each forwards to the next definition, the OpenMP
// runtime's or libc's (dlsym(RTLD_NEXT)). The list is libgomp.so.1's own
// (GCC 12: `nm -D libgomp.so.1 | grep GOMP_parallel`) and GOMP_teams_reg
// (host teams). Tasks need nothing: they run on the threads of the team
// that created them, which already have its view, or on the encountering
// thread itself.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "omp/threadprivate.h"
#include "omp/threads.h"

namespace {

using tucana::omp::Handoff;
using Outlined = void (*)(void*);

// The next definition of `name` (the OpenMP runtime's), looked up once.
void* next_symbol(std::atomic<void*>& cache, const char* name) {
  void* f = cache.load(std::memory_order_acquire);
  if (__builtin_expect(f == nullptr, 0)) {
    f = dlsym(RTLD_NEXT, name);
    if (!f) {
      std::fprintf(stderr, "tucana: %s is called but no OpenMP runtime defines it (%s)\n", name, dlerror());
      std::abort();
    }
    cache.store(f, std::memory_order_release);
  }
  return f;
}

#define TUCANA_NEXT(name, type)                       \
  ([]() {                                             \
    static std::atomic<void*> cache{nullptr};         \
    return reinterpret_cast<type>(next_symbol(cache, #name)); \
  }())

// What the trampoline runs, with the view of the thread that started the team.
struct Outing {
  Outlined fn;
  void* data;
  Handoff view;
};

// The view stays after fn returns: libgomp's team threads run the region's
// remaining tasks in its final barrier, after fn. A pool thread keeps it
// until its next region installs that one's (it runs nothing else between).
void trampoline(void* p) {
  const Outing* o = static_cast<const Outing*>(p);
  tucana::omp::install(o->view);
  if (o->view.subrank) tucana::omp::install_team_thread(o->view.subrank);
  o->fn(o->data);
}

// A team started here ends before the call returns: the Outing lives on the
// stack of the starting thread.
struct Region {
  Outing outing;
  Region(Outlined fn, void* data) : outing{fn, data, tucana::omp::capture()} { tucana::omp::region_begin(); }
  ~Region() { tucana::omp::region_end(); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
};

// The older start/end pairs: the Outing lives until GOMP_parallel_end, per
// starting thread (nested ones end in reverse order).
thread_local std::vector<Outing*>* t_open = nullptr;

Outing* open_region(Outlined fn, void* data) {
  if (!t_open) t_open = new std::vector<Outing*>;
  auto* o = new Outing{fn, data, tucana::omp::capture()};
  t_open->push_back(o);
  tucana::omp::region_begin();
  return o;
}

struct PthreadStart {
  void* (*fn)(void*);
  void* arg;
  Handoff view;
};

void* pthread_trampoline(void* p) {
  auto* s = static_cast<PthreadStart*>(p);
  void* (*fn)(void*) = s->fn;
  void* arg = s->arg;
  tucana::omp::install(s->view);
  delete s;
  return fn(arg);
}

}  // namespace

extern "C" {

void GOMP_parallel(Outlined fn, void* data, unsigned num_threads, unsigned flags) {
  Region r(fn, data);
  TUCANA_NEXT(GOMP_parallel, void (*)(Outlined, void*, unsigned, unsigned))(trampoline, &r.outing, num_threads,
                                                                             flags);
}

unsigned GOMP_parallel_reductions(Outlined fn, void* data, unsigned num_threads, unsigned flags) {
  Region r(fn, data);
  return TUCANA_NEXT(GOMP_parallel_reductions, unsigned (*)(Outlined, void*, unsigned, unsigned))(
      trampoline, &r.outing, num_threads, flags);
}

#define TUCANA_PARALLEL_LOOP(name)                                                                       \
  void name(Outlined fn, void* data, unsigned num_threads, long start, long end, long incr, long chunk,   \
            unsigned flags) {                                                                            \
    Region r(fn, data);                                                                                  \
    TUCANA_NEXT(name, void (*)(Outlined, void*, unsigned, long, long, long, long, unsigned))(            \
        trampoline, &r.outing, num_threads, start, end, incr, chunk, flags);                             \
  }
TUCANA_PARALLEL_LOOP(GOMP_parallel_loop_static)
TUCANA_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
TUCANA_PARALLEL_LOOP(GOMP_parallel_loop_guided)
TUCANA_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
TUCANA_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
#undef TUCANA_PARALLEL_LOOP

#define TUCANA_PARALLEL_LOOP_RUNTIME(name)                                                                      \
  void name(Outlined fn, void* data, unsigned num_threads, long start, long end, long incr, unsigned flags) {  \
    Region r(fn, data);                                                                                         \
    TUCANA_NEXT(name, void (*)(Outlined, void*, unsigned, long, long, long, unsigned))(trampoline, &r.outing,  \
                                                                                       num_threads, start, end, \
                                                                                       incr, flags);            \
  }
TUCANA_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
TUCANA_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
TUCANA_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)
#undef TUCANA_PARALLEL_LOOP_RUNTIME

void GOMP_parallel_sections(Outlined fn, void* data, unsigned num_threads, unsigned count, unsigned flags) {
  Region r(fn, data);
  TUCANA_NEXT(GOMP_parallel_sections, void (*)(Outlined, void*, unsigned, unsigned, unsigned))(
      trampoline, &r.outing, num_threads, count, flags);
}

void GOMP_teams_reg(Outlined fn, void* data, unsigned num_teams, unsigned thread_limit, unsigned flags) {
  Region r(fn, data);
  TUCANA_NEXT(GOMP_teams_reg, void (*)(Outlined, void*, unsigned, unsigned, unsigned))(trampoline, &r.outing,
                                                                                       num_teams, thread_limit,
                                                                                       flags);
}

// GCC before 4.9: the starting thread runs fn itself between the two calls.
void GOMP_parallel_start(Outlined fn, void* data, unsigned num_threads) {
  Outing* o = open_region(fn, data);
  TUCANA_NEXT(GOMP_parallel_start, void (*)(Outlined, void*, unsigned))(trampoline, o, num_threads);
}

#define TUCANA_PARALLEL_LOOP_START(name)                                                                \
  void name(Outlined fn, void* data, unsigned num_threads, long start, long end, long incr, long chunk) { \
    Outing* o = open_region(fn, data);                                                                  \
    TUCANA_NEXT(name, void (*)(Outlined, void*, unsigned, long, long, long, long))(                     \
        trampoline, o, num_threads, start, end, incr, chunk);                                           \
  }
TUCANA_PARALLEL_LOOP_START(GOMP_parallel_loop_static_start)
TUCANA_PARALLEL_LOOP_START(GOMP_parallel_loop_dynamic_start)
TUCANA_PARALLEL_LOOP_START(GOMP_parallel_loop_guided_start)
#undef TUCANA_PARALLEL_LOOP_START

void GOMP_parallel_loop_runtime_start(Outlined fn, void* data, unsigned num_threads, long start, long end,
                                      long incr) {
  Outing* o = open_region(fn, data);
  TUCANA_NEXT(GOMP_parallel_loop_runtime_start, void (*)(Outlined, void*, unsigned, long, long, long))(
      trampoline, o, num_threads, start, end, incr);
}

void GOMP_parallel_sections_start(Outlined fn, void* data, unsigned num_threads, unsigned count) {
  Outing* o = open_region(fn, data);
  TUCANA_NEXT(GOMP_parallel_sections_start, void (*)(Outlined, void*, unsigned, unsigned))(trampoline, o,
                                                                                           num_threads, count);
}

void GOMP_parallel_end(void) {
  TUCANA_NEXT(GOMP_parallel_end, void (*)(void))();
  if (t_open && !t_open->empty()) {
    delete t_open->back();
    t_open->pop_back();
    tucana::omp::region_end();
  }
}

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  Create real = TUCANA_NEXT(pthread_create, Create);
  Handoff view = tucana::omp::capture();
  if (view.delta == 0 && !view.subrank) return real(thread, attr, fn, arg);
  auto* s = new PthreadStart{fn, arg, view};
  int rc = real(thread, attr, pthread_trampoline, s);
  if (rc != 0) delete s;
  return rc;
}

}  // extern "C"
