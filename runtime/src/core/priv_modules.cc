// Privatized variables of shared libraries (tucana/privatize.h, "Shared
// libraries"; docs/privatization.md): every module (the executable and each
// shared library tucanacc links) registers its image from a constructor of
// libtucana_module.a (priv_module.c). The executable's image is the one
// privatize.cc copies for each subrank when it is created; every other
// module has a copy per subrank, made before the subrank's main for a
// library loaded before the subranks started, and on the subrank's first use
// of it for a library opened later (dlopen).
#include <dlfcn.h>
#include <tucana/privatize.h>

#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/privatize.h"
#include "core/runtime.h"
#include "sched/scheduler.h"
#include "sched/worker.h"

extern "C" {
// The executable's image (privatize.cc's, hidden: linked into the executable).
extern char __start_tucana_priv[] __attribute__((weak, visibility("hidden")));
}

namespace tucana::mpi {

namespace {

using Init = void (*)(void);

// A slot of a subrank's copy of a module that it has not made yet.
constexpr std::ptrdiff_t kNoCopy = PTRDIFF_MIN;

struct Module {
  char* begin = nullptr;
  char* end = nullptr;
  bool main = false;  // the executable's own image (tucana_priv_delta)
  // Initializers (tucana_priv_module_add_init), run per subrank on its copy.
  // Only appended by the module's constructors, which run before any
  // subrank can use the module (dlopen returns after them).
  std::vector<Init> inits;
  // Per local subrank (Subrank::local): the distance to its copy, or
  // kNoCopy. Made when first needed, never freed (as the copies are not).
  std::atomic<std::atomic<std::ptrdiff_t>*> copies{nullptr};
};

// Registered modules in order (a library's dependencies first), never
// removed: a module with privatized variables is kept loaded (RTLD_NODELETE,
// tucana_priv_register_module), so that its subranks' copies and the
// destructor calls they registered stay valid after a dlclose. Zero before
// any constructor runs (modules register from constructors of priority 101).
constexpr int kMaxModules = 1024;
std::atomic<Module*> g_modules[kMaxModules];
std::atomic<int> g_module_count{0};
sync::Mutex g_modules_mutex{sync::LockLevel::kLeaf, "shared library images"};

// The subrank the calling thread works for: its fiber (or a helper fiber),
// or a thread it started (OpenMP, pthread_create); null outside subranks.
// (Inline: every use of a shared library's variable asks.)
inline Subrank* running_subrank() {
  if (Subrank* s = actor_subrank(sched::Scheduler::current_fiber_inline())) return s;
  return thread_subrank();
}

// Subrank s's copy of module m (made now if it has none; then m's
// initializers run for s, on the calling thread, which works for s).
std::ptrdiff_t module_copy(Module* m, Subrank* s) {
  std::atomic<std::ptrdiff_t>* copies = m->copies.load(std::memory_order_acquire);
  if (copies) {
    std::ptrdiff_t d = copies[s->local].load(std::memory_order_acquire);
    if (d != kNoCopy) return d;
  }
  std::ptrdiff_t delta = 0;
  {
    sync::MutexLock lock(g_modules_mutex);
    copies = m->copies.load(std::memory_order_relaxed);
    const int n = Runtime::get().layout.local_count();
    if (!copies) {
      assert(n > 0 && "module_copy: the subranks exist");
      copies = new std::atomic<std::ptrdiff_t>[static_cast<std::size_t>(n)];
      for (int i = 0; i < n; ++i) copies[i].store(kNoCopy, std::memory_order_relaxed);
      m->copies.store(copies, std::memory_order_release);
    }
    assert(s->local >= 0 && s->local < n && "module_copy: a subrank of this process");
    std::ptrdiff_t d = copies[s->local].load(std::memory_order_relaxed);
    if (d != kNoCopy) return d;  // (another thread of s made it meanwhile)
    if (!copy_private_image(m->begin, m->end, &delta)) {
      std::fprintf(stderr, "tucana: error: no memory for subrank %d's copy of a shared library's privatized variables\n",
                   s->world);
      std::fflush(stderr);
      std::abort();
    }
    // Published before the initializers run: they use the copy.
    copies[s->local].store(delta, std::memory_order_release);
  }
  for (Init init : m->inits) init();
  return delta;
}

Module* module_of(tucana_priv_module* handle) {
  auto* m = static_cast<Module*>(handle->entry);
  assert(m && "a module registered itself first (libtucana_module.a linked, constructor priority 101)");
  return m;
}

}  // namespace

void run_module_inits() {
  Subrank* s = running_subrank();
  if (!s) return;
  const int n = g_module_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    Module* m = g_modules[i].load(std::memory_order_acquire);
    if (!m->main && m->begin != m->end) (void)module_copy(m, s);
  }
}

void* module_extern(char* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const int n = g_module_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    Module* m = g_modules[i].load(std::memory_order_acquire);
    if (m->main || at < reinterpret_cast<std::uintptr_t>(m->begin) || at >= reinterpret_cast<std::uintptr_t>(m->end))
      continue;
    Subrank* s = running_subrank();
    return s ? p + module_copy(m, s) : p;
  }
  return p;
}

}  // namespace tucana::mpi

using tucana::mpi::Module;

extern "C" void tucana_priv_register_module(tucana_priv_module* handle, char* begin, char* end) {
  using namespace tucana::mpi;
  assert(handle && !handle->entry && "tucana_priv_register_module: once per module");
  assert(begin <= end && "tucana_priv_register_module: an image");
  auto* m = new Module;
  m->begin = begin;
  m->end = end;
  m->main = begin == __start_tucana_priv;  // (both null: nothing to copy anyway)
  if (!m->main && begin != end) {
    // Kept loaded: see g_modules. (Its constructor runs inside the loader,
    // whose lock is recursive.)
    Dl_info info;
    if (dladdr(begin, &info) && info.dli_fname)
      (void)dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  }
  tucana::sync::MutexLock lock(g_modules_mutex);
  const int n = g_module_count.load(std::memory_order_relaxed);
  if (n == kMaxModules) {
    std::fprintf(stderr, "tucana: error: more than %d modules with privatized variables\n", kMaxModules);
    std::abort();
  }
  g_modules[n].store(m, std::memory_order_release);
  g_module_count.store(n + 1, std::memory_order_release);
  handle->entry = m;
}

extern "C" __attribute__((const, nothrow)) ptrdiff_t tucana_priv_module_delta(tucana_priv_module* handle) {
  Module* m = tucana::mpi::module_of(handle);
  if (m->main) return tucana_priv_current_delta;
  if (m->begin == m->end) return 0;
  tucana::mpi::Subrank* s = tucana::mpi::running_subrank();
  return s ? tucana::mpi::module_copy(m, s) : 0;
}

extern "C" void tucana_priv_module_add_init(tucana_priv_module* handle, void (*init)(void)) {
  Module* m = tucana::mpi::module_of(handle);
  if (m->main) {
    tucana_priv_add_init(init);
    return;
  }
  assert(init && "tucana_priv_module_add_init: an initializer");
  tucana::sync::MutexLock lock(tucana::mpi::g_modules_mutex);
  m->inits.push_back(init);
}
