#include "core/privatize.h"

#include <sys/mman.h>
#include <tucana/privatize.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cassert>
#include <cstdint>
#include <cstring>

#include "core/runtime.h"
#include "sched/scheduler.h"

extern "C" {
// Defined by the linker around the section when some object of the program
// has one; weak, so null (an empty image) in a program that has none.
// Hidden: the runtime is linked into the executable, whose image this is.
extern char __start_tucana_priv[] __attribute__((weak, visibility("hidden")));
extern char __stop_tucana_priv[] __attribute__((weak, visibility("hidden")));
// An empty piece of the section, so that every program has its own bounds:
// a shared library's (tucanacc -shared) must never stand for them.
__attribute__((section("tucana_priv"), used)) char tucana_priv_anchor[0];
// What compilers call to register a static object's destructor (C++ ABI),
// with the executable's handle: tucana_priv_atexit outside subranks.
int __cxa_atexit(void (*fn)(void*), void* arg, void* dso_handle);
extern void* __dso_handle __attribute__((visibility("hidden")));

__attribute__((tls_model("initial-exec"))) __thread std::ptrdiff_t tucana_priv_current_delta = 0;
}

namespace tucana::mpi {

namespace {

bool all_zero(const char* p, std::size_t n) { return n == 0 || (p[0] == 0 && std::memcmp(p, p + 1, n - 1) == 0); }

using Init = void (*)(void);

// Filled by static constructors, so built on first use; never destroyed, so
// that no static destructor can run before a late reader.
std::vector<Init>& inits() {
  static auto* list = new std::vector<Init>;
  return *list;
}
std::atomic<bool> g_inits_ran{false};

}  // namespace

// The copies live until the process exits: they are never unmapped. A
// subrank's copy is its globals, and pointers to them may outlive the
// subrank (kept by the process's exit handlers, by threads the program
// started, by other subranks), as the Runtime object itself does; unmapping
// would turn such a pointer into a crash, keeping costs nothing the process
// needs back.
bool copy_private_image(const char* begin, const char* end, std::ptrdiff_t* delta) {
  assert(begin <= end && delta);
  *delta = 0;
  if (begin == end) return true;
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const auto size = static_cast<std::size_t>(end - begin);
  // The copy starts at the image's offset within its aligned unit.
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(begin) % kPrivateCopyAlign;
  const std::size_t span = (offset + size + page - 1) / page * page;
  const std::size_t reserve = span + kPrivateCopyAlign;
  void* mapped = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return false;
  auto* first = static_cast<char*>(mapped);
  const std::uintptr_t unit_address =
      (reinterpret_cast<std::uintptr_t>(first) + kPrivateCopyAlign - 1) / kPrivateCopyAlign * kPrivateCopyAlign;
  char* unit = first + (unit_address - reinterpret_cast<std::uintptr_t>(first));
  // Give back what the alignment did not need (page-aligned pieces).
  if (unit > first) munmap(first, static_cast<std::size_t>(unit - first));
  if (unit + span < first + reserve) munmap(unit + span, static_cast<std::size_t>(first + reserve - (unit + span)));
  char* copy = unit + offset;
  // Page by page: the block is zero-filled, so the image's zero pages (its
  // arrays that start at zero) are not written, and cost no memory until the
  // subrank writes them.
  const char* from = begin;
  while (from < end) {
    const char* page_end = begin + ((offset + static_cast<std::size_t>(from - begin)) / page + 1) * page - offset;
    const char* to = page_end < end ? page_end : end;
    const auto n = static_cast<std::size_t>(to - from);
    if (!all_zero(from, n)) std::memcpy(copy + (from - begin), from, n);
    from = to;
  }
  *delta = copy - begin;
  assert(*delta % static_cast<std::ptrdiff_t>(kPrivateCopyAlign) == 0);
  return true;
}

bool make_private_copy(std::ptrdiff_t* delta) {
  return copy_private_image(__start_tucana_priv, __stop_tucana_priv, delta);
}

void run_private_inits() {
  g_inits_ran.store(true, std::memory_order_relaxed);
  // The shared libraries loaded before the subranks started first (they
  // were initialized before the executable), each as if before main.
  // (Weak: the unit tests link this file without priv_modules.cc.)
  if (run_module_inits) run_module_inits();
  for (Init init : inits()) init();
}

void AtexitList::push(Fn fn, void* arg) {
  assert(fn);
  sync::MutexLock lock(mutex_);
  calls_.emplace_back(fn, arg);
}

void AtexitList::run_all() {
  for (;;) {
    std::pair<Fn, void*> call;
    {
      sync::MutexLock lock(mutex_);
      if (calls_.empty()) return;
      call = calls_.back();
      calls_.pop_back();
    }
    call.first(call.second);  // unlocked: it may register more, or exit()
  }
}

bool AtexitList::empty() {
  sync::MutexLock lock(mutex_);
  return calls_.empty();
}

std::atomic<void (*)(Subrank*)> g_subrank_run_hook{nullptr};

namespace {
// sched::g_run_hook: runs at every switch, so two dependent loads and a
// store when no subrank hook is set.
void take_actor_view(void* actor) {
  Subrank* s = actor ? static_cast<Actor*>(actor)->subrank : nullptr;
  tucana_priv_current_delta = s ? s->priv_delta : 0;
  if (auto hook = g_subrank_run_hook.load(std::memory_order_relaxed); __builtin_expect(hook != nullptr, 0) && s)
    hook(s);
}
}  // namespace

void install_run_hook() { sched::g_run_hook.store(&take_actor_view, std::memory_order_release); }

}  // namespace tucana::mpi

using tucana::mpi::Subrank;

// The running fiber's subrank (a subrank's own fiber and its helper
// fibers) has the delta; anything else uses the image. Translated code on
// x86-64 reads tucana_priv_current_delta itself (tucana/privatize.h); this
// is the portable way, and the debugger's.
extern "C" __attribute__((const, nothrow)) ptrdiff_t tucana_priv_delta(void) {
  // The run hook publishes the running fiber's subrank's priv_delta (that of
  // the subrank a helper or task fiber works for).
  return tucana_priv_current_delta;
}

extern "C" __attribute__((const, nothrow)) void* tucana_priv_extern(const volatile void* image) {
  auto at = reinterpret_cast<std::uintptr_t>(image);
  char* p = const_cast<char*>(reinterpret_cast<const volatile char*>(image));
  if (at >= reinterpret_cast<std::uintptr_t>(__start_tucana_priv) &&
      at < reinterpret_cast<std::uintptr_t>(__stop_tucana_priv))
    return p + tucana_priv_current_delta;
  // A shared library's variable? (priv_modules.cc)
  if (tucana::mpi::module_extern) return tucana::mpi::module_extern(p);
  return p;
}

extern "C" int* tucana_priv_errno(void) { return &errno; }

extern "C" void tucana_priv_add_init(void (*init)(void)) {
  assert(init && "tucana_priv_add_init: an initializer");
  assert(!tucana::mpi::g_inits_ran.load(std::memory_order_relaxed) &&
         "tucana_priv_add_init: called before main (no subrank has run the initializers yet)");
  tucana::mpi::inits().push_back(init);
}

extern "C" void tucana_priv_atexit(void (*fn)(void*), void* arg) {
  assert(fn && "tucana_priv_atexit: a function");
  if (Subrank* s = tucana::mpi::actor_subrank(tucana::sched::Scheduler::current_fiber_inline())) {
    s->priv_atexit.push(fn, arg);
    return;
  }
  // Outside subranks: a static object's destructor, run at the process's exit.
  int failed = __cxa_atexit(fn, arg, &__dso_handle);
  assert(!failed && "tucana_priv_atexit: __cxa_atexit registered the call");
  (void)failed;
}
