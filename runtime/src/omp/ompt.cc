// LLVM's libomp (clang -fopenmp): the executable is an OMPT tool (OpenMP 5.x,
// "OMPT"): libomp calls ompt_start_tool when it starts, and then
//  - parallel_begin on the thread that encounters a parallel region: the
//    region's tool data records that thread's view (threads.h);
//  - implicit_task begin on each thread of the team: it installs the
//    region's view, keeping the thread's own in the task's tool data;
//  - implicit_task end: puts the thread's own view back.
// Explicit tasks run inside an implicit task of their team, with its view.
// The few OMPT declarations needed are written out here (the ABI of the
// OpenMP 5.0 specification, the values of LLVM's omp-tools.h), so that the
// runtime builds without libomp's headers.
#include <cstdint>

#include "omp/threadprivate.h"
#include "omp/threads.h"

namespace {

union ompt_data_t {
  std::uint64_t value;
  void* ptr;
};
using ompt_interface_fn_t = void (*)(void);
using ompt_function_lookup_t = ompt_interface_fn_t (*)(const char*);
using ompt_callback_t = void (*)(void);
using ompt_initialize_t = int (*)(ompt_function_lookup_t, int, ompt_data_t*);
using ompt_finalize_t = void (*)(ompt_data_t*);
using ompt_set_callback_t = int (*)(int event, ompt_callback_t callback);
struct ompt_frame_t;

constexpr int kCallbackParallelBegin = 3;  // ompt_callback_parallel_begin
constexpr int kCallbackParallelEnd = 4;    // ompt_callback_parallel_end
constexpr int kCallbackImplicitTask = 7;   // ompt_callback_implicit_task
constexpr int kScopeBegin = 1;             // ompt_scope_begin
constexpr int kScopeEnd = 2;               // ompt_scope_end
constexpr int kTaskInitial = 0x1;          // ompt_task_initial

struct ompt_start_tool_result_t {
  ompt_initialize_t initialize;
  ompt_finalize_t finalize;
  ompt_data_t tool_data;
};

// A view as tool data: the handoff lives as long as the region (freed at
// parallel_end, after every implicit task of the team has ended).
void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel, unsigned, int, const void*) {
  parallel->ptr = new tucana::omp::Handoff(tucana::omp::capture());
  tucana::omp::region_begin();
}

void on_parallel_end(ompt_data_t* parallel, ompt_data_t*, int, const void*) {
  delete static_cast<tucana::omp::Handoff*>(parallel->ptr);
  parallel->ptr = nullptr;
  tucana::omp::region_end();
}

void on_implicit_task(int endpoint, ompt_data_t* parallel, ompt_data_t* task, unsigned, unsigned, int flags) {
  // The initial task of a thread (libomp's start on a worker thread, for
  // example) is not a region of a subrank's: the thread keeps its view.
  if (flags & kTaskInitial) return;
  if (endpoint == kScopeBegin) {
    const auto* view = parallel ? static_cast<const tucana::omp::Handoff*>(parallel->ptr) : nullptr;
    if (!view) {
      task->ptr = nullptr;
      return;
    }
    task->ptr = new tucana::omp::Handoff(tucana::omp::install(*view));
    if (view->subrank) tucana::omp::install_team_thread(view->subrank);
  } else if (endpoint == kScopeEnd) {
    auto* old = static_cast<tucana::omp::Handoff*>(task->ptr);
    if (!old) return;
    tucana::omp::install(*old);
    delete old;
    task->ptr = nullptr;
  }
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  set_callback(kCallbackParallelBegin, reinterpret_cast<ompt_callback_t>(&on_parallel_begin));
  set_callback(kCallbackParallelEnd, reinterpret_cast<ompt_callback_t>(&on_parallel_end));
  set_callback(kCallbackImplicitTask, reinterpret_cast<ompt_callback_t>(&on_implicit_task));
  return 1;  // keep the tool
}

void finalize(ompt_data_t*) {}

ompt_start_tool_result_t g_tool = {&initialize, &finalize, {0}};

}  // namespace

// Found by libomp in the executable: the linker exports it to the dynamic
// symbol table because libomp.so, in the link, defines it too (weakly).
extern "C" __attribute__((visibility("default"), used)) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int /*omp_version*/, const char* /*runtime_version*/) {
  return &g_tool;
}

// Referenced by the entry point (main.cc), so that the linker takes this
// object from the runtime's static library into every program.
extern "C" void tucana_omp_tool_anchor(void) {}
